package textfmt

import (
	"strings"
	"testing"
)

// TestUTF8 decodes text as editors save it. Expected bytes are written
// out by hand from the encodings' definitions (RFC 2781, RFC 3629).
// Mutations caught: UTF-16 left undecoded (the garbled "p\x00a\x00r"
// column names of issue #48), the byte order swapped, a UTF-8 BOM kept,
// a surrogate pair split into two U+FFFD, a lone surrogate decoded as
// U+FFFD silently, ordinary UTF-8 with a NUL taken for UTF-16.
func TestUTF8(t *testing.T) {
	for _, tc := range []struct {
		name, src, want, enc, err string
	}{
		{"plain UTF-8", "part,€\n", "part,€\n", "", ""},
		{"UTF-8 BOM", "\xEF\xBB\xBFpart\n", "part\n", "UTF-8 with a byte-order mark", ""},
		{"UTF-16LE BOM", "\xFF\xFEp\x00a\x00\n\x00", "pa\n", "UTF-16LE", ""},
		{"UTF-16BE BOM", "\xFE\xFF\x00p\x00a\x00\n", "pa\n", "UTF-16BE", ""},
		{"UTF-16LE no BOM", "p\x00a\x00r\x00t\x00\n\x00", "part\n", "UTF-16LE", ""},
		{"UTF-16BE no BOM", "\x00p\x00a\x00r\x00t\x00\n", "part\n", "UTF-16BE", ""},
		{"UTF-16LE euro and a pair", "\xFF\xFE\xAC\x20\x3D\xD8\x00\xDE", "€😀", "UTF-16LE", ""},
		{"UTF-16LE lone surrogate", "\xFF\xFEa\x00\x3D\xD8", "", "UTF-16LE", "lone surrogate"},
		{"UTF-16LE odd length", "\xFF\xFEa\x00b", "", "UTF-16LE", "odd number of bytes"},
		{"one NUL in UTF-8 text", "part,unit\x00price\n", "part,unit\x00price\n", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Encoding([]byte(tc.src)); got != tc.enc {
				t.Errorf("Encoding = %q, want %q", got, tc.enc)
			}
			got, err := UTF8([]byte(tc.src))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("UTF8 = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestInvisible finds characters that do not show. Mutations caught:
// only U+200B looked for (a word joiner or a BOM pasted into a key
// passes), an ordinary space or a letter taken for invisible.
func TestInvisible(t *testing.T) {
	for _, tc := range []struct {
		s     string
		want  rune
		words string
	}{
		{"cluster.gpus", 0, ""},
		{"cluster name", 0, ""},
		{"cluster.gp\u200bus", '\u200b', "an invisible U+200B (zero width space)"},
		{"\ufeffschema", '\ufeff', "an invisible U+FEFF (zero width no-break space)"},
		{"gpus\u2060", '\u2060', "an invisible U+2060 (word joiner)"},
		{"gpus\u00a0", '\u00a0', "an invisible U+00A0 (no-break space)"},
		{"gp\u202eus", '\u202e', "an invisible U+202E"},
		{"gp\x07us", '\x07', "an invisible U+0007"},
	} {
		r, ok := Invisible(tc.s)
		if ok != (tc.want != 0) || r != tc.want {
			t.Errorf("Invisible(%q) = %U, %v; want %U", tc.s, r, ok, tc.want)
			continue
		}
		if ok && InvisibleWords(r) != tc.words {
			t.Errorf("InvisibleWords(%U) = %q, want %q", r, InvisibleWords(r), tc.words)
		}
	}
}
