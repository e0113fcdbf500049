package planner

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// pricedSuffix is what plan's message adds to a fix it built: its switches
// and price.
var pricedSuffix = regexp.MustCompile(`: [0-9,]+ switch(es)?, \$[0-9.,]+[KMB]?$`)

// fixWords splits a too-large message into its head (what does not fit)
// and its fixes' words, without prices or the short form's pointer to
// plan, sorted: the short form lists the fixes in the order it tries
// them, plan's cheapest first.
func fixWords(t *testing.T, msg string) (string, []string) {
	t.Helper()
	head, fixes, ok := strings.Cut(msg, "; try ")
	if !ok {
		t.Fatalf("%q: no fixes", msg)
	}
	fixes, _, _ = strings.Cut(fixes, "; fabricplan plan --gpus ")
	words := strings.Split(fixes, "; or ")
	for i, w := range words {
		words[i] = pricedSuffix.ReplaceAllString(w, "")
	}
	slices.Sort(words)
	return head, words
}

// A sweep's row shows a too-large fabric's short form (RowError): the
// fixes that fit by sizing alone, unpriced, and plan prices each. It
// must list the same fixes as plan's priced message, in any order (the
// short form keeps the order it tries them; plan's is cheapest first:
// on Tomahawk5 the Tomahawk6 comes before the planes). By hand: GB200
// NVL72 12,345 GPUs is 172 racks of 18 trays x 4 ports, 12,384 ports a
// plane past the 12,128 rack-aligned leaves reach (as
// TestTooLargeSuggestsPlanesThatPlan) and under QM9700's 64³/4 = 65,536
// packed, so packed leaves or 2 planes of the 4 ports; 66,000 GPUs is
// 66,024 ports, past 65,536 even packed, and 66,024/12,128 needs 6 planes
// of 4 ports: packed leaves are left out and the plane split needs the
// NICs' ports split; QM9700 131,072 GPUs is 16,384 servers x 8 = 131,072
// ports, 2 x 65,536: 2 planes; Tomahawk5 (128 x 400G) 600,001 GPUs is
// 75,001 x 8 = 600,008 ports past 128³/4 = 524,288: 2 planes, or a
// higher-radix switch. Mutations caught: sizedFixes listing every
// candidate without sizing it (packed leaves at 66,000), leaving out the
// unsized plane split (66,000), RowError returning the priced message
// (the prices and no "prices each").
func TestRowErrorListsPlansFixes(t *testing.T) {
	cat := testCatalog(t)
	gb := func(gpus int) Scenario {
		s := NewScenario()
		s.Cluster.System, s.Cluster.GPUs = "gb200-nvl72", gpus
		return s
	}
	th5 := ibScenario(600001)
	th5.Network.Fabric, th5.Network.Switch = Ethernet, "tomahawk5"
	for _, tc := range []struct {
		name  string
		s     Scenario
		fixes []string // words that begin each fix, by hand
	}{
		{"GB200 NVL72, 12,345 GPUs", gb(12345), []string{"leaf_alignment = \"packed\"", "2 planes", "fewer GPUs"}},
		{"GB200 NVL72, 66,000 GPUs", gb(66000), []string{"at least 6 planes, splitting", "fewer GPUs"}},
		{"QM9700, 131,072 GPUs", ibScenario(131072), []string{"2 planes", "fewer GPUs"}},
		{"Tomahawk5, 600,001 GPUs", th5, []string{"a higher-radix switch: tomahawk6-100g", "2 planes", "a higher-radix switch: arista-7700r4", "fewer GPUs"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Build(tc.s, cat)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("err = %v, want ErrTooLarge", err)
			}
			short := RowError(err)
			if strings.Contains(short, "$") || !strings.HasSuffix(short, "prices each") {
				t.Errorf("short form %q: want no prices and plan named to price them", short)
			}
			fullHead, full := fixWords(t, err.Error())
			shortHead, got := fixWords(t, short)
			if shortHead != fullHead {
				t.Errorf("short form says %q, plan %q", shortHead, fullHead)
			}
			if !slices.Equal(got, full) {
				t.Errorf("short form's fixes %q, plan's %q", got, full)
			}
			if len(got) != len(tc.fixes) {
				t.Fatalf("fixes %q, want %d: %q", got, len(tc.fixes), tc.fixes)
			}
			for _, want := range tc.fixes {
				if !slices.ContainsFunc(got, func(w string) bool { return strings.HasPrefix(w, want) }) {
					t.Errorf("fixes %q: none begins %q", got, want)
				}
			}
		})
	}
	if got, want := RowError(errors.New("other")), "other"; got != want {
		t.Errorf("RowError(other) = %q, want %q", got, want)
	}
}
