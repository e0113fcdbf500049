// Package builtdoc keeps data/'s documents decoded when the program is
// built, so a start does not decode their TOML again: Source writes a
// decoded document as Go source (a function that makes a fresh copy of
// it), and a Doc gives that copy back for exactly the bytes it was made
// from, leaving any other bytes to the TOML decoder. The TOML stays the
// record (with every figure's source) and is embedded as before; each
// package's TestBuiltDocs fails when its generated file is stale or
// differs from what the TOML decodes to, and rewrites it with
// -write-built (go generate). It imports nothing of ours.
package builtdoc
