package explore

import (
	"fmt"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner"
)

// sweepCheckCases are sweeps whose points fail validation at some GPU
// counts and not at others, each with the field a full Validate of the
// point names first ("" where it passes), by hand from the rules in
// validateCluster (1 to MaxGPUs), checkPhase (a phase within
// cluster.gpus) and validatePorts (planes divide a server's 8 ports).
var sweepCheckCases = []struct {
	name  string
	base  func() planner.Scenario
	first map[int]string // GPU count -> Validate's first field
}{
	{"counts out of range and off the server grid", func() planner.Scenario { return flatIB(1024) },
		map[int]string{0: "cluster.gpus", 1: "", 12: "", 1024: "", 3_000_000: "", planner.MaxGPUs + 1: "cluster.gpus"}},
	{"phases that fit only the larger sizes", func() planner.Scenario {
		s := flatIB(1024)
		s.Phases = []planner.Phase{{GPUs: 512}, {GPUs: 2048}}
		return s
	}, map[int]string{256: "phase[1].gpus", 1024: "phase[2].gpus", 2048: "", 4096: ""}},
	{"a pod size on a system, and a size over the catalog's reach", func() planner.Scenario {
		s := flatIB(24576)
		s.Cluster.System = "dgx-h100"
		s.Network.PodGPUs = 1024
		return s
	}, map[int]string{512: "", 1024: "", 3000: "", 24576: "", 2_000_000: ""}},
	{"fixed findings before and after the count's", func() planner.Scenario {
		s := flatIB(1024)
		s.Network.Planes = 3 // validatePorts: before the phases
		s.Phases = []planner.Phase{{GPUs: 2048}}
		s.Network.Media.LeafSpineM = -1 // validateMedia: after them
		return s
	}, map[int]string{0: "cluster.gpus", 1024: "network.planes", 4096: "network.planes"}},
	{"more findings than are listed", func() planner.Scenario {
		s := flatIB(1024)
		s.Prices = map[string]float64{}
		for i := range fielderr.MaxListed {
			s.Prices[fmt.Sprintf("no-such-part-%02d", i)] = 1
		}
		return s
	}, map[int]string{0: "cluster.gpus", 1024: "prices.no-such-part-00"}},
	{"an unknown system", func() planner.Scenario {
		s := flatIB(1024)
		s.Cluster.System = "no-such-system"
		return s
	}, map[int]string{0: "cluster.system", 1024: "cluster.system"}},
}

// TestSweepCheckAsValidate: each sweep row's error is, word for word, the
// one a full build of that point's scenario gives (Scenario.Validate,
// then the back end), and Validate's first field is the hand-given one.
// Catches a check that reads the GPU count found once for the sweep
// (validatePhases or validateCluster moved into fixedChecks: the phase
// rows at 256 and 1024 name the same phases, the count 0 passes or every
// row fails), the shared findings joined out of Validate's order (the
// planes after the media), or the cap on listed findings left out.
func TestSweepCheckAsValidate(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range sweepCheckCases {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base()
			var gpus []int
			for g := range tc.first {
				gpus = append(gpus, g)
			}
			rows := SweepWith(base, cat, gpus, SweepOptions{})
			for i, g := range gpus {
				s := base.FlatLinks()
				s.Cluster.GPUs = g
				v := s.Clone() // no case sets a style: build's withStyle leaves it as it is
				verr := v.Validate(cat)
				got := ""
				if fes := fielderr.FieldErrors(verr); len(fes) > 0 {
					got = fes[0].Field
				}
				if got != tc.first[g] {
					t.Errorf("%d GPUs: Validate's first field %q, want %q (%v)", g, got, tc.first[g], verr)
				}
				_, want := planner.BuildWith(s, cat, SweepOptions{}.build())
				if verr != nil && (want == nil || want.Error() != verr.Error()) {
					t.Fatalf("%d GPUs: build's error %v is not Validate's %v", g, want, verr)
				}
				if e := rows[i].Err; fmt.Sprint(e) != fmt.Sprint(want) {
					t.Errorf("%d GPUs: sweep row error\n%v\nwant (a full build)\n%v", g, e, want)
				}
			}
		})
	}
}

// TestSweepCheckOwnErrors: a sweep's rows that fail on the same shared
// finding hold their own field errors, so that a caller renaming one
// row's field (the CLI names the flag that set it) leaves the others'.
// Catches the once-found field errors handed to every row as they are.
func TestSweepCheckOwnErrors(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name string
		edit func(*planner.Scenario)
	}{
		{"a shared check's finding", func(s *planner.Scenario) { s.Network.Planes = 3 }},
		{"an unknown system", func(s *planner.Scenario) { s.Cluster.System = "no-such-system" }},
	} {
		s := flatIB(1024)
		tc.edit(&s)
		rows := SweepWith(s, cat, []int{512, 1024}, SweepOptions{})
		a, b := fielderr.FieldErrors(rows[0].Err), fielderr.FieldErrors(rows[1].Err)
		if len(a) == 0 || len(b) == 0 {
			t.Fatalf("%s: rows %v, %v; want both to fail", tc.name, rows[0].Err, rows[1].Err)
		}
		field := b[0].Field
		a[0].Field = "--edited"
		if b[0].Field != field {
			t.Errorf("%s: editing the first row's error changed the second's to %q", tc.name, b[0].Field)
		}
	}
}
