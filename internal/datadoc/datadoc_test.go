package datadoc

import (
	"strings"
	"testing"
)

// Decode refuses what a data document must not have, naming the
// document. Mutations caught: unknown keys ignored, the schema not
// checked (or checked when the caller passes none), the document's name
// left out of an error.
func TestDecode(t *testing.T) {
	type doc struct {
		Schema int     `toml:"schema"`
		Price  float64 `toml:"price"`
	}
	for _, tc := range []struct {
		name, src string
		noSchema  bool
		want      string // the error; "" for none
	}{
		{"good", "schema = 1\nprice = 2.5\n", false, ""},
		{"unknown key", "schema = 1\ncolour = 1\n", false, `prices: unknown key "colour"`},
		{"schema 2", "schema = 2\n", false, "prices: schema 2, want 1"},
		{"no schema", "price = 1\n", false, "prices: schema 0, want 1"},
		{"no schema asked", "price = 1\n", true, ""},
		{"broken", "schema = [\n", false, "prices: toml: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d doc
			schema := &d.Schema
			if tc.noSchema {
				schema = nil
			}
			err := Decode("prices", []byte(tc.src), &d, schema)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Errorf("error %v, want one starting %q", err, tc.want)
			}
		})
	}
	var d doc
	if err := Decode("prices", []byte("schema = 1\nprice = 2.5\n"), &d, &d.Schema); err != nil || d.Price != 2.5 {
		t.Errorf("decoded %+v (%v), want price 2.5", d, err)
	}
}
