package validation

import (
	"strings"
	"testing"

	"fabricplan/data"
)

// Every published point in data/validation.toml runs and is within its
// tolerance; the table is printed with -v. Mutations caught: a point
// that no longer builds, a model change that moves a published run
// past its tolerance.
func TestValidationPoints(t *testing.T) {
	cat := testCatalog(t)
	points, err := Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) < 25 {
		t.Fatalf("%d points", len(points))
	}
	kinds := map[string]bool{}
	for _, r := range Run(points, cat) {
		kinds[r.Point.Kind] = true
		t.Logf("| %s | %g %s | %.4g | %+.1f%% | %q |", r.Point.Name, r.Point.Published, r.Point.Unit, r.Model, 100*r.Error(), r.Point.Fitted)
		if !r.Within() {
			t.Errorf("%s: model %.4g, published %g (%+.1f%%, tolerance %.0f%%): %v", r.Point.Name, r.Model, r.Point.Published,
				100*r.Error(), 100*r.Point.Tolerance, r.Err)
		}
	}
	for _, k := range []string{KindStep, KindAllReduceBusBW, KindAllToAllRDMA, KindAllToAllLatency, KindECMPGain, KindRoCEOverIB, KindRoutingGain, KindBisectionShare, KindColocationSlowdown, KindColocationBusBW} {
		if !kinds[k] {
			t.Errorf("no %s point", k)
		}
	}
}

// A model that drifts fails only the points not used to fit it: with
// InfiniBand's efficiency halved, the unfitted DeepEP all-to-all points
// drift, while the fitted NDR busbw point is off but not "drifted".
// Mutations caught: Drifted true for fitted points, or false when off.
func TestValidationDrift(t *testing.T) {
	cat := testCatalog(t)
	jd := *cat.JCT
	jd.Efficiency.InfiniBand /= 2
	c := *cat
	c.JCT = &jd
	points, err := Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	var driftedEP, fittedOff bool
	for _, r := range Run(points, &c) {
		if r.Point.Kind == KindAllToAllRDMA && r.Drifted() {
			driftedEP = true
		}
		if r.Point.Fitted == "efficiency.infiniband" {
			fittedOff = !r.Within() && !r.Drifted()
		}
	}
	if !driftedEP || !fittedOff {
		t.Errorf("halved InfiniBand: DeepEP drifted %v, fitted NDR point off but not drifted %v", driftedEP, fittedOff)
	}
}

// Bad validation files are refused with the point and what is missing.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"no schema", "[[point]]\nname = \"a\"\n", "schema"},
		{"unknown kind", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"magic\"\npublished = 1\ntolerance = 0.1\nsource = \"s\"\n", "unknown kind"},
		{"no source", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"ecmp_gain\"\npublished = 1\ntolerance = 0.1\n", "source"},
		{"step without scenario", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"step\"\npublished = 1\ntolerance = 0.1\nsource = \"s\"\n", "needs a scenario"},
		{"unknown key", "schema = 1\n[[point]]\nname = \"a\"\ncolour = 1\n", "unknown key"},
		{"broken", "schema = 1\n[[point]\n", "validation points"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

// FuzzParse: no input panics the parser, and whatever it
// accepts runs without panicking.
func FuzzParse(f *testing.F) {
	src, err := data.FS.ReadFile("validation.toml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(src))
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"alltoall_latency\"\npublished = 1\ntolerance = 0.1\nsource = \"s\"\nep = 3\nbytes = 8\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"allreduce_busbw\"\npublished = 1\ntolerance = 0.1\nsource = \"s\"\ngpu = \"h100\"\nranks = 0\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"routing_gain\"\npublished = 1\ntolerance = 0.1\nsource = \"s\"\ngpu = \"gb300\"\ngpus_per_server = 3\nnics_per_server = 5\nnic_gbps = 700\nranks = 37\nqps = 9\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"bisection_share\"\npublished = 0.5\ntolerance = 0.1\nsource = \"s\"\nfabric = \"ethernet\"\nnic_gbps = 25\nranks = 77\nleaf_down = 7\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"colocation_slowdown\"\npublished = 1.1\ntolerance = 0.1\nsource = \"s\"\nscenario = \"schema = 1\\n[cluster]\\ngpus = 96\\n[workload]\\njobs = 3\\nplacement = \\\"spread\\\"\\n\"\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"colocation_slowdown\"\nmetric = \"added\"\npublished = 0.11\ntolerance = 1\ngap = \"g\"\nsource = \"s\"\nscenario = \"schema = 1\\n[workload]\\nbackground_leaf = 0.125\\n\"\n")
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, s string) {
		points, err := Parse([]byte(s))
		if err != nil || len(points) > 3 {
			return
		}
		Run(points, cat)
	})
}
