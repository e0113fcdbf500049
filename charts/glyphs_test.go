package charts

import (
	"strings"
	"testing"
)

// TestMissingGlyphs: characters of Latin, Greek and Cyrillic names are
// drawn; CJK ones are listed once each. Mutation caught: undrawable
// characters dropped from the report without a word (issue 26: CJK
// characters in a name vanished from the PDF).
func TestMissingGlyphs(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want string
	}{
		{"Réseau Ω Сеть — 1,024 × H100", ""},
		{"训练集群 A 训练", "训练集群"},
		{"Pod 東京", "東京"},
		{"tab\there", ""},
	} {
		if got := string(MissingGlyphs(tc.s)); got != tc.want {
			t.Errorf("MissingGlyphs(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
	if w := GlyphWarning("集群"); w == "" || !strings.Contains(w, "集群") || !strings.Contains(w, FontName) {
		t.Errorf("warning %q", w)
	}
}
