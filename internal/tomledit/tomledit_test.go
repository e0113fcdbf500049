package tomledit

import (
	"testing"
)

// TestEdits: each row is one edit of a hostile layout and the exact text
// it must give. Mutations caught: a key inside a multi-line string or
// array taken for a real one, an array of tables edited, a deleted
// inline member leaving a dangling comma, a new key written with LF in a
// CRLF file, an emptied table's header left behind, a quoted key not
// matched.
func TestEdits(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		edit      func(d *Doc) error
		want      string
	}{
		{"key inside a multi-line string",
			"s = \"\"\"\ngpus = 1\n\"\"\"\ngpus = 2\n",
			func(d *Doc) error { return d.Set([]string{"gpus"}, int64(3)) },
			"s = \"\"\"\ngpus = 1\n\"\"\"\ngpus = 3\n"},
		{"array over lines with comments",
			"a = [\n  1, # one\n  2,\n]\nb = 1\n",
			func(d *Doc) error { return d.Set([]string{"b"}, int64(5)) },
			"a = [\n  1, # one\n  2,\n]\nb = 5\n"},
		{"array of tables left alone",
			"[[cluster]]\ngpus = 64\n[t]\ngpus = 1\n",
			func(d *Doc) error {
				if d.Set([]string{"cluster", "gpus"}, int64(8)) == nil {
					return errSyntax // must be refused
				}
				return d.Set([]string{"t", "gpus"}, int64(2))
			},
			"[[cluster]]\ngpus = 64\n[t]\ngpus = 2\n"},
		{"inline member deleted, comma after",
			"m = { a = 1, b = 2 }\n",
			func(d *Doc) error { return d.Delete([]string{"m", "a"}) },
			"m = { b = 2 }\n"},
		{"last inline member deleted, comma before",
			"m = { a = 1, b = 2 }\n",
			func(d *Doc) error { return d.Delete([]string{"m", "b"}) },
			"m = { a = 1 }\n"},
		{"CRLF kept",
			"[t]\r\na = 1\r\n",
			func(d *Doc) error { return d.Set([]string{"t", "b"}, "x") },
			"[t]\r\na = 1\r\nb = \"x\"\r\n"},
		{"emptied table goes",
			"a = 1\n\n[w]\nx = 1 # note\n[z]\ny = 2\n",
			func(d *Doc) error { return d.Delete([]string{"w", "x"}) },
			"a = 1\n\n[z]\ny = 2\n"},
		{"quoted key matched",
			"[\"net\".'x']\n\"k\" = 1\n",
			func(d *Doc) error { return d.Set([]string{"net", "x", "k"}, 2.5) },
			"[\"net\".'x']\n\"k\" = 2.5\n"},
		{"dotted key in its table",
			"[network]\nfabric = \"ib\"\n",
			func(d *Doc) error { return d.Set([]string{"network", "media", "server_leaf"}, "dac") },
			"[network]\nfabric = \"ib\"\nmedia.server_leaf = \"dac\"\n"},
		{"root key after the leading comments, before tables",
			"# notes\n\n[t]\na = 1\n",
			func(d *Doc) error { return d.Set([]string{"schema"}, int64(1)) },
			"# notes\n\nschema = 1\n[t]\na = 1\n"},
		{"key needing quotes",
			"[prices]\n",
			func(d *Doc) error { return d.Set([]string{"prices", "a.b c"}, 1.0) },
			"[prices]\n\"a.b c\" = 1.0\n"},
		{"no newline at the end",
			"a = 1",
			func(d *Doc) error { return d.Set([]string{"b"}, true) },
			"a = 1\nb = true\n"},
		{"byte order mark",
			"\uFEFF# c\na = 1\n",
			func(d *Doc) error { return d.Set([]string{"a"}, int64(2)) },
			"\uFEFF# c\na = 2\n"},
		{"byte order mark, new root key",
			"\uFEFF# c\n[t]\n",
			func(d *Doc) error { return d.Set([]string{"a"}, int64(2)) },
			"\uFEFF# c\na = 2\n[t]\n"},
		{"date-time value",
			"d = 1979-05-27 07:32:00Z # x\ne = 1\n",
			func(d *Doc) error { return d.Set([]string{"e"}, int64(2)) },
			"d = 1979-05-27 07:32:00Z # x\ne = 2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := New([]byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.edit(d); err != nil {
				t.Fatal(err)
			}
			if got := string(d.Bytes()); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestValueText: values written as TOML reads them back. Mutation
// caught: a float written without a point (reads back as an integer),
// a control character written raw.
func TestValueText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{25000.0, "25000.0"}, {1e12, "1e+12"}, {0.45, "0.45"}, {int64(-3), "-3"},
		{"a\"b\\c\n\x1b", `"a\"b\\c\n\u001B"`}, {[]any{int64(1), "x"}, `[1, "x"]`},
		{map[string]any{"b": true, "a": 1.5}, `{a = 1.5, b = true}`},
	} {
		if got, err := Value(tc.v); err != nil || got != tc.want {
			t.Errorf("Value(%#v) = %s (%v), want %s", tc.v, got, err, tc.want)
		}
	}
}
