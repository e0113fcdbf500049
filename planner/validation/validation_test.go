package validation

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"fabricplan/data"
)

// Every published point in data/validation.toml runs, and the classes
// come out as counted by hand from the file's fitted and series keys: 11
// points fitted a constant; 18 share a series with one (SC21 Table 1
// 8, Llama 3 Table 4 1, Megatron-Bridge 25.09 5, H100 NVLS 1, CoreWeave
// GB200 1, AReaL#639 1, and the DeepEP low-latency row whose table
// fitted alltoall_peer_us); 17 are independent. Whether each is within
// its tolerance is the ratchet's business (TestRatchetHoldsOnMain); the
// table is printed with -v. Mutations caught: a point that no longer
// builds, a neighbour counted as independent (the series not compared,
// [fitted_series] ignored), a kind left without a point.
func TestValidationPoints(t *testing.T) {
	cat := testCatalog(t)
	points, err := Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	kinds, classes := map[string]bool{}, map[string]int{}
	for _, r := range Run(points, cat) {
		kinds[r.Point.Kind] = true
		classes[r.Point.Class]++
		t.Logf("| %s | %g %s | %.4g | %+.1f%% | %s | %s |", r.Point.Name, r.Point.Published, r.Point.Unit, r.Model, 100*r.Error(), r.Point.Class, r.Status())
		if r.Err != nil {
			t.Errorf("%s: %v", r.Point.Name, r.Err)
		}
	}
	if want := map[string]int{ClassFitted: 11, ClassNeighbour: 18, ClassIndependent: 17}; !maps.Equal(classes, want) {
		t.Errorf("classes %v, want %v", classes, want)
	}
	for _, k := range []string{KindStep, KindAllReduceBusBW, KindAllToAllRDMA, KindAllToAllLatency, KindECMPGain, KindRoCEOverIB, KindRoutingGain, KindBisectionShare, KindColocationSlowdown, KindColocationBusBW} {
		if !kinds[k] {
			t.Errorf("no %s point", k)
		}
	}
}

// Classes follow the series: a point that fitted a constant is fitted,
// one sharing its series (or a series listed in [fitted_series]) a
// neighbour, the rest independent; a tolerance key is refused, since
// tolerances are by kind. Mutations caught: the class read from the
// point alone, [fitted_series] ignored, a per-point tolerance accepted.
func TestParseClasses(t *testing.T) {
	pt := func(name, series, fitted string) string {
		return fmt.Sprintf("[[point]]\nname = %q\nkind = \"ecmp_gain\"\npublished = 1.4\nsource = \"s\"\nseries = %q\nfitted = %q\n", name, series, fitted)
	}
	src := "schema = 1\n[fitted_series]\nlow = \"c\"\n" + pt("a", "t1", "x") + pt("b", "t1", "") + pt("c", "t2", "") + pt("d", "low", "")
	points, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range points {
		got[p.Name] = p.Class
	}
	if want := map[string]string{"a": ClassFitted, "b": ClassNeighbour, "c": ClassIndependent, "d": ClassNeighbour}; !maps.Equal(got, want) {
		t.Errorf("classes %v, want %v", got, want)
	}
	if _, err := Parse([]byte(strings.Replace(src, "published = 1.4\n", "published = 1.4\ntolerance = 0.5\n", 1))); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Errorf("a per-point tolerance: %v, want unknown key", err)
	}
	if _, err := Parse([]byte("schema = 1\n" + pt("a", "t", "") + pt("a", "t", ""))); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("a name twice: %v", err)
	}
}

// Drifted marks only the points not used to fit a constant: with
// InfiniBand's efficiency halved, the unfitted DeepEP all-to-all points
// drift, while the fitted NDR busbw point is off but not "drifted" (the
// ratchet, not Drifted, fails validate). Mutations caught: Drifted true
// for fitted points, or false when off.
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
		{"unknown kind", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"magic\"\npublished = 1\nseries = \"t\"\nsource = \"s\"\n", "unknown kind"},
		{"no source", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"ecmp_gain\"\npublished = 1\nseries = \"t\"\n", "source"},
		{"step without scenario", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"step\"\npublished = 1\nseries = \"t\"\nsource = \"s\"\n", "needs a scenario"},
		{"no series", "schema = 1\n[[point]]\nname = \"a\"\nkind = \"ecmp_gain\"\npublished = 1\nsource = \"s\"\n", "series"},
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
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"alltoall_latency\"\npublished = 1\nseries = \"t\"\nsource = \"s\"\nep = 3\nbytes = 8\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"allreduce_busbw\"\npublished = 1\nseries = \"t\"\nsource = \"s\"\ngpu = \"h100\"\nranks = 0\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"routing_gain\"\npublished = 1\nseries = \"t\"\nsource = \"s\"\ngpu = \"gb300\"\ngpus_per_server = 3\nnics_per_server = 5\nnic_gbps = 700\nranks = 37\nqps = 9\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"bisection_share\"\npublished = 0.5\nseries = \"t\"\nsource = \"s\"\nfabric = \"ethernet\"\nnic_gbps = 25\nranks = 77\nleaf_down = 7\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"colocation_slowdown\"\npublished = 1.1\nseries = \"t\"\nsource = \"s\"\nscenario = \"schema = 1\\n[cluster]\\ngpus = 96\\n[workload]\\njobs = 3\\nplacement = \\\"spread\\\"\\n\"\n")
	f.Add("schema = 1\n[[point]]\nname = \"a\"\nkind = \"colocation_slowdown\"\nmetric = \"added\"\npublished = 0.11\nseries = \"t\"\ngap = \"g\"\nsource = \"s\"\nscenario = \"schema = 1\\n[workload]\\nbackground_leaf = 0.125\\n\"\n")
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, s string) {
		points, err := Parse([]byte(s))
		if err != nil || len(points) > 3 {
			return
		}
		Run(points, cat)
	})
}
