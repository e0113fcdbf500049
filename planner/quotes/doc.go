// Package quotes reads vendor quotes: a quotes file in CSV (a header row
// naming the columns) or TOML ([[quote]] tables), each quote checked
// with its line, and the quote in force for a catalog part (the cheapest
// unexpired one, else the cheapest expired). The planner prices a BOM
// line at the quote in force; planner/scenariofile reads the file. It
// imports nothing of ours.
package quotes
