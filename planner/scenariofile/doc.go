// Package scenariofile reads and writes scenario files: a strict TOML
// decode that reports every unknown key (with a suggestion), wrong type
// and bad value at once with its line; the catalog checks of what did
// decode; the quotes file a scenario names; and saves through
// internal/safefile that never leave a file half-written, keeping the
// user's comments and spelling (Edit). It imports the planner; the
// planner, which does no file I/O, never imports it. Only cli and app
// call it.
package scenariofile
