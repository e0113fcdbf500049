// Package memo is the engine's one memo mechanism: a small cache whose
// key is derived from the inputs a result depends on, in one place
// (Of), never written out by hand as a struct that must be kept in step
// with them. Of encodes every value given to it, every field of a
// struct, recursively, and a pointer by the value it points at, so a
// field added to an input is in the key at once. Inputs that are never
// changed once loaded (a catalog) may be given as Same(p): they key by
// identity, and the key keeps them alive.
//
// A Cache holds a few results, the least recently used dropped first,
// optionally within a budget of weight (the memory the results hold),
// and is safe for concurrent use.
package memo
