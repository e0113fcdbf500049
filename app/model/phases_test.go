package model

import (
	"reflect"
	"testing"
)

// FuzzParsePhases: any text either fails with a message or reads into
// phases that FormatPhases writes back to the same phases. Catches a
// format the parser cannot read back (units or dates lost), and panics
// on odd input.
func FuzzParsePhases(f *testing.F) {
	for _, s := range []string{"256, 1k@2026-Q3, 4su", "", ",", "@", "su", "1su@", "9999999999", "1,2,3", " 2SU @2027 ", "1k@a,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := ParsePhases(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		back, err := ParsePhases(FormatPhases(got))
		if err != nil || !reflect.DeepEqual(back, got) && len(got) > 0 {
			t.Fatalf("%q -> %v -> %q -> %v (%v)", text, got, FormatPhases(got), back, err)
		}
	})
}
