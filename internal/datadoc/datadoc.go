// Package datadoc decodes the documents Fabric Planner ships in data/
// (the catalog, prices, facility, reliability, market and validation
// tables): strictly, stopping at the first problem, with the document's
// name in every error. User files go through planner/scenariofile
// instead, which reports every problem with its line and a suggestion.
// It imports nothing of ours.
package datadoc

import (
	"fmt"

	"github.com/BurntSushi/toml"
)

// Decode decodes one of the data documents, src, into v: a TOML error or
// an unknown key is an error that starts with what; when schema is not
// nil, the decoded document's schema must be 1.
func Decode(what string, src []byte, v any, schema *int) error {
	md, err := toml.Decode(string(src), v)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return fmt.Errorf("%s: unknown key %q", what, und[0].String())
	}
	if schema != nil && *schema != 1 {
		return fmt.Errorf("%s: schema %d, want 1", what, *schema)
	}
	return nil
}
