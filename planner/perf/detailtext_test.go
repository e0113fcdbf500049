package perf

import (
	"fmt"
	"testing"

	"fabricplan/internal/textfmt"
)

// TestStaticDetailAsFmt: the static-routing effect's detail, written
// into one buffer, reads as the fmt.Sprintf it replaced, over one and
// several planes, uplinks as fast as the ports and faster, two and
// three tiers, with and without polarization, and uplink counts that
// group (1,024) or not. Mutations caught: a verb's precision changed
// (%.3g written with 2 digits: 1.5x as 1.5 is the same, 1.33x as 1.3
// is not), the planes or the uplinks' clause dropped or its condition
// turned (> 1 as >= 1), the uplinks not grouped (12288 for 12,288).
func TestStaticDetailAsFmt(t *testing.T) {
	want := func(fv fabricView) string {
		f := fv.flowsPerPort()
		where := fmt.Sprintf("%s leaf uplinks", textfmt.Int(int(fv.jobUplinks)))
		if fv.planes > 1 {
			where += fmt.Sprintf(" over %d planes", fv.planes)
		}
		if r := fv.upRatio(); r > 1 {
			where += fmt.Sprintf(" (%.0f flows each at full rate: uplinks %.3gx the port's speed)", fv.uplinkFlows(f), r)
		}
		detail := fmt.Sprintf("%.0f flows per port (queue pairs, up to %.0f at once) hashed onto %s, %.0f links met per tier: each collective runs at its most loaded link; adaptive routing balances them",
			f, fv.maxActiveQueuePairs, where, fv.stages)
		if fv.tiers >= 3 && fv.polarization > 0 {
			detail += fmt.Sprintf("; the spines repeat the leaves' hash (polarization %.2g), so their flows reach fewer uplinks", fv.polarization)
		}
		return detail
	}
	for _, tc := range []struct {
		name                 string
		planes, tiers        int
		uplinks, up, polar   float64
		qps, active, ch, stg float64
	}{
		{"two tiers", 1, 2, 64, 0, 0, 1, 1, 2, 2},
		{"grouped uplinks, 2 planes", 2, 2, 12288, 1, 0, 4, 2, 2, 2},
		{"faster uplinks", 1, 2, 1024, 2, 0, 2, 2, 1, 1},
		{"uplinks 4/3 as fast", 2, 3, 999, 4.0 / 3, 0.5, 8, 4, 2, 2},
		{"three tiers polarized", 1, 3, 1_000_000, 1, 1.0 / 3, 1, 1, 4, 3},
		{"one uplink, half flows", 8, 3, 1, 1, 0, 0.5, 0.5, 0.5, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fv := fabricView{planes: tc.planes, tiers: tc.tiers, jobUplinks: tc.uplinks, upSpeedRatio: tc.up, polarization: tc.polar,
				qps: tc.qps, maxActiveQueuePairs: tc.active, channels: tc.ch, stages: tc.stg}
			if got, w := staticDetail(fv), want(fv); got != w {
				t.Errorf("got  %q\nwant %q", got, w)
			}
		})
	}
}

// TestClassSetNames: every set of traffic classes is named from its
// table as joining its names in step order names it. Mutations caught:
// a table one entry short (the set of every class unnamed), the names
// joined in another order, a set named by another's entry.
func TestClassSetNames(t *testing.T) {
	for s := range classSet(1 << maxClasses) {
		var names []string
		for i, n := range classOrder {
			if s&(1<<i) != 0 {
				names = append(names, n)
			}
		}
		if got, want := s.String(), textfmt.JoinAnd(names); got != want {
			t.Errorf("set %05b: %q, want %q", s, got, want)
		}
	}
	if got := classSet(1<<maxClasses - 1).String(); got != "tensor parallel, data parallel, pipeline parallel, context parallel and expert parallel" {
		t.Errorf("every class: %q", got)
	}
}

// TestInNetworkDetail: the in-network reduction effect's detail names the
// reductions that ran, in class order, once each, with its ending, as
// the joined names did. Mutations caught: the one-reduction string
// taken from another class's or the other algorithm's entry, a second
// reduction dropped (the single string returned for two), a reduction
// named twice, a class that ran none named.
func TestInNetworkDetail(t *testing.T) {
	const end = " (negative: time saved against ring and tree alone)"
	nvls := func(class string) string { return "NVLink SHARP (NVLS) reduces " + class + " in the NVSwitches" }
	sharp := func(class string) string { return "SHARP reduces " + class + " in the InfiniBand switches" }
	for _, tc := range []struct {
		name    string
		classes []TrafficClass
		want    string
	}{
		{"none", []TrafficClass{{Name: ClassTP, Algorithm: AlgoRing}, {Name: ClassDP, Algorithm: AlgoPAT}}, ""},
		{"nvls tp", []TrafficClass{{Name: ClassTP, Algorithm: AlgoNVLS}, {Name: ClassDP, Algorithm: AlgoRing}}, nvls(ClassTP) + end},
		{"sharp dp", []TrafficClass{{Name: ClassTP, Algorithm: AlgoRing}, {Name: ClassDP, Algorithm: AlgoSHARP}}, sharp(ClassDP) + end},
		{"nvls ep", []TrafficClass{{Name: ClassEP, Algorithm: AlgoNVLS}}, nvls(ClassEP) + end},
		{"both", []TrafficClass{{Name: ClassTP, Algorithm: AlgoNVLS}, {Name: ClassDP, Algorithm: AlgoSHARP}}, nvls(ClassTP) + " and " + sharp(ClassDP) + end},
		{"three, one twice", []TrafficClass{{Name: ClassTP, Algorithm: AlgoNVLS}, {Name: ClassDP, Algorithm: AlgoSHARP}, {Name: ClassTP, Algorithm: AlgoNVLS}, {Name: ClassCP, Algorithm: AlgoNVLS}},
			nvls(ClassTP) + ", " + sharp(ClassDP) + " and " + nvls(ClassCP) + end},
		{"a class of no table", []TrafficClass{{Name: "other", Algorithm: AlgoSHARP}}, sharp("other") + end},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := inNetworkDetail(&StepTime{Classes: tc.classes}); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestCrossingDetailAsFmt: the tier-crossing effect's detail, written
// into one buffer, reads as the fmt.Sprintf it replaced, for one class,
// two, and all five (past the stack buffer's 256 bytes the append grows
// it), at efficiencies that round up, down and to 100, each asked twice
// in a row and in two orders: every efficiency for one set, then every
// set at one efficiency. Mutations caught: a precision other than %.0f,
// the efficiency not times 100, a piece of the text dropped.
func TestCrossingDetailAsFmt(t *testing.T) {
	sets := []classSet{classBit(ClassDP), classBit(ClassDP) | classBit(ClassPP), 1<<maxClasses - 1}
	effs := []float64{0.9, 0.855, 0.8449, 0.9996}
	check := func(set classSet, eff float64) {
		want := fmt.Sprintf("%s cross it at %.0f%% of a link even balanced: flows from many leaves queue at each spine (under one leaf they would not)", set, 100*eff)
		for range 2 {
			if got := crossingDetail(set, eff, false); got != want {
				t.Errorf("%v at %g:\n%s\nwant\n%s", set, eff, got, want)
			}
		}
	}
	for _, set := range sets {
		for _, eff := range effs {
			check(set, eff)
		}
	}
	for _, eff := range effs {
		for _, set := range sets {
			check(set, eff)
		}
	}
	if got, want := crossingDetail(classBit(ClassDP), 0.95, false), "data parallel cross it at 95% of a link even balanced: flows from many leaves queue at each spine (under one leaf they would not)"; got != want {
		t.Errorf("by hand: %q, want %q", got, want) // the set named, 0.95 as 95
	}
}

// TestIndexSwitches: the switches that stand for a search of a list
// (classIndex over classOrder, inNetworkAlgo over inNetworkAlgos,
// algoIndex over Algorithms) and the class places (tpAt ... epAt) agree
// with the lists. Mutations caught: a
// case out of the list's order, a name missing (-1 for a listed name).
func TestIndexSwitches(t *testing.T) {
	for i, name := range classOrder {
		if got := classIndex(name); got != i {
			t.Errorf("classIndex(%q) = %d, want %d", name, got, i)
		}
	}
	for name, at := range map[string]int{ClassTP: tpAt, ClassDP: dpAt, ClassPP: ppAt, ClassCP: cpAt, ClassEP: epAt} {
		if classOrder[at] != name {
			t.Errorf("%s at %d in classOrder, which has %s there", name, at, classOrder[at])
		}
	}
	for i, algo := range inNetworkAlgos {
		if got := inNetworkAlgo(algo); got != i {
			t.Errorf("inNetworkAlgo(%q) = %d, want %d", algo, got, i)
		}
	}
	for i, algo := range Algorithms {
		if got := algoIndex(algo); int(got) != i+1 {
			t.Errorf("algoIndex(%q) = %d, want %d", algo, got, i+1)
		}
	}
	if classIndex("none") != -1 || inNetworkAlgo(AlgoRing) != -1 || algoIndex("none") != -1 || algoIndex("") != 0 {
		t.Error("a name not listed is given a place")
	}
}

// TestExpertsDetailAsFmt: the experts effect's detail, written into one
// buffer, reads as the fmt.Sprintf it replaced, for small and large ep
// and domains. Mutation caught: the ep and domain swapped, a piece of
// the text dropped.
func TestExpertsDetailAsFmt(t *testing.T) {
	for _, c := range [][2]int{{8, 8}, {16, 8}, {64, 72}, {1024, 72}, {123456789, 576}} {
		want := fmt.Sprintf("ep %d spans more than one %d-GPU NVLink domain", c[0], c[1])
		if got := expertsDetail(c[0], c[1]); got != want {
			t.Errorf("%q, want %q", got, want)
		}
	}
}
