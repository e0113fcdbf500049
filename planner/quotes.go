package planner

import "fabricplan/planner/quotes"

// Quote is one vendor's price for one catalog part (planner/quotes):
// a BOM line priced at a quote carries it.
type Quote = quotes.Quote

// Quotes is a loaded quotes file (planner/quotes), the scenario's: the
// planner prices each part at the quote in force.
type Quotes = quotes.Set

// dateLayout is how a plan's notes write a day.
const dateLayout = "2006-01-02"
