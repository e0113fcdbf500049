package fielderr

import (
	"errors"
	"fmt"
	"testing"
)

// A FieldError reads "field (line N): problem; fix", dropping the parts
// it lacks. Mutations caught: the line written when 0, the fix separator
// written without a fix.
func TestFieldErrorText(t *testing.T) {
	for _, tc := range []struct {
		e    FieldError
		want string
	}{
		{FieldError{Field: "network.planes", Line: 7, Problem: "is 0", Fix: "give 1 to 16"}, "network.planes (line 7): is 0; give 1 to 16"},
		{FieldError{Field: "gpus", Problem: "is missing"}, "gpus: is missing"},
		{*New("workload.tp", "give a power of two", "is %d", 3), "workload.tp: is 3; give a power of two"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// FieldErrors finds every field error through joins and %w at any depth,
// in order; FileErrors stops at a FileError and does not report the
// field errors inside it as files. Mutations caught: only the first
// error of a join, a %w-wrapped join not descended, FileErrors looking
// inside a FileError (a nested file reported twice).
func TestErrorsFoundAtAnyDepth(t *testing.T) {
	a, b, c := New("a", "", "bad"), New("b", "", "bad"), New("c", "", "bad")
	inner := &FileError{Path: "quotes.csv", Err: c}
	file := &FileError{Path: "s.toml", Err: errors.Join(a, fmt.Errorf("wrapped: %w", errors.Join(b, inner)))}
	err := fmt.Errorf("open: %w", file)

	var fields []string
	for _, f := range FieldErrors(err) {
		fields = append(fields, f.Field)
	}
	if fmt.Sprint(fields) != "[a b c]" {
		t.Errorf("FieldErrors = %v, want [a b c]", fields)
	}
	files := FileErrors(err)
	if len(files) != 1 || files[0] != file {
		t.Errorf("FileErrors = %v, want the outer file only", files)
	}
	var fe *FieldError
	if !errors.As(err, &fe) || fe != a {
		t.Errorf("errors.As found %v, want the first field error", fe)
	}
	if FieldErrors(nil) != nil || FileErrors(errors.New("plain")) != nil {
		t.Error("no field or file errors expected from nil or a plain error")
	}
}
