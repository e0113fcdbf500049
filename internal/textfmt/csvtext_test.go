package textfmt

import "testing"

// TestCSVTextCleans: a CSV text cell loses control and bidi characters
// before the formula check, so a file opened in a terminal or a
// spreadsheet shows what the user typed and never runs it. Mutations
// caught: CSVText only neutralising formulas (ESC, NUL, CR and U+202E
// written to the file raw), the formula check made before cleaning (a
// leading control hides "=").
func TestCSVTextCleans(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Pod\x1b[2J A", "Pod [2J A"},
		{"a\x00b\rc", "a b c"},
		{"\u202eevil", "evil"},
		{"\t=cmd()", "'=cmd()"},
		{"\x1b=1+1", "'=1+1"},
		{"-2", "'-2"},
		{"Réseau Ω", "Réseau Ω"},
	} {
		if got := CSVText(tc.in); got != tc.want {
			t.Errorf("CSVText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
