package textfmt

import (
	"fmt"
	"maps"
	"slices"
)

// KeyList lists m's keys, sorted, in brackets ("[a b c]"): the choices
// an error's fix offers.
func KeyList[V any](m map[string]V) string { return fmt.Sprint(slices.Sorted(maps.Keys(m))) }
