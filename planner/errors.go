package planner

import (
	"errors"
	"fmt"
	"strings"
)

// FieldError reports one bad input value: the scenario key it belongs to,
// the line of the scenario file it came from (0 when not from a file), what
// is wrong and how to fix it.
type FieldError struct {
	Field   string // dotted scenario key, e.g. "network.planes"
	Line    int    // 1-based line in the scenario file; 0 if unknown
	Problem string // what is wrong, lower-case, no trailing period
	Fix     string // how to fix it; may be empty
}

// Error formats the field, its line, the problem and the fix on one line.
func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.Field)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	b.WriteString(": ")
	b.WriteString(e.Problem)
	if e.Fix != "" {
		b.WriteString("; ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

func fieldErr(field, fix, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...), Fix: fix}
}

// FieldErrors returns every *FieldError wrapped in err (joined or single).
func FieldErrors(err error) []*FieldError {
	if err == nil {
		return nil
	}
	var out []*FieldError
	var fe *FieldError
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			out = append(out, FieldErrors(e)...)
		}
		return out
	}
	if errors.As(err, &fe) {
		out = append(out, fe)
	}
	return out
}

// ErrTooLarge is wrapped by plan errors for fabrics that need more than
// three switch tiers.
var ErrTooLarge = errors.New("fabric needs more than three tiers")
