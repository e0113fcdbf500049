// Package fielderr holds the errors Fabric Planner reports about user
// input: a FieldError names one scenario key, its line and the fix; a
// FileError ties the errors found in one file to its path. Both survive
// errors.Join and %w wrapping, and FieldErrors/FileErrors find them at any
// depth. It imports nothing of ours.
package fielderr

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

// New returns the FieldError of field with the problem written from
// format and args, and the fix.
func New(field, fix, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...), Fix: fix}
}

// FieldErrors returns every *FieldError wrapped in err, through joins and
// wrapping at any depth, in order.
func FieldErrors(err error) []*FieldError { return errorsOf[*FieldError](err) }

// FileError ties the errors found in one scenario file to its path.
type FileError struct {
	Path string
	Err  error
}

// Error names the file, then its errors.
func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the file's errors.
func (e *FileError) Unwrap() error { return e.Err }

// FileErrors returns every *FileError wrapped in err, in order.
func FileErrors(err error) []*FileError { return errorsOf[*FileError](err) }

// errorsOf returns the errors of type T in err's tree, in order, without
// looking inside them.
func errorsOf[T error](err error) []T {
	var out []T
	walkErrors(err, func(e error) bool {
		if t, ok := e.(T); ok {
			out = append(out, t)
			return false
		}
		return true
	})
	return out
}

// walkErrors visits err and what it wraps, depth first; visit returns
// false to skip what an error wraps.
func walkErrors(err error, visit func(error) bool) {
	if err == nil || !visit(err) {
		return
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			walkErrors(e, visit)
		}
	case interface{ Unwrap() error }:
		walkErrors(u.Unwrap(), visit)
	}
}

// MaxListed is how many errors one document's report lists; the rest are
// counted (JoinCapped), so a file of garbage gets a readable answer.
const MaxListed = 50

// JoinCapped joins errs and, when more were left out, says how many in a
// last FieldError of the field "file".
func JoinCapped(errs []error, more int) error {
	if more > 0 {
		errs = append(errs, &FieldError{Field: "file", Problem: fmt.Sprintf("%d more problems not listed", more),
			Fix: "fix the ones above first"})
	}
	return errors.Join(errs...)
}
