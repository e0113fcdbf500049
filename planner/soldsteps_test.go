package planner

import (
	"math"
	"testing"
)

// soldAt is the length soldLengths.at finds for run, read back from the
// index of the choice it returns; false when it finds none.
func soldAt(t *testing.T, s *soldLengths, run float64) (float64, bool) {
	t.Helper()
	sc := s.at(run)
	if sc == nil {
		return 0, false
	}
	j := -1
	for i := range s.choices {
		if &s.choices[i] == sc {
			j = i
		}
	}
	switch {
	case j < 0:
		t.Fatalf("run %g: a choice outside the table", run)
	case s.byMetre:
		return float64(j), true
	case s.linear:
		return s.cb.LengthsM[j], true
	}
	return s.steps.lengths[j], true
}

// soldCables are cables as the catalog lists them and as it might:
// lengths shortest first (a DAC's half metres; a fibre's, cut by its
// reach), with a length twice, out of order, and none (sold by the
// metre).
var soldCables = []struct {
	name    string
	lengths []float64
	reach   float64
}{
	{"dac", []float64{0.5, 1, 1.5, 2, 2.5, 3}, 3},
	{"fibre-cut", []float64{1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500}, 100},
	{"twice", []float64{1, 1, 2, 2.5}, 30},
	{"unsorted", []float64{3, 1, 2}, 10},
	{"too-long", []float64{1, 2, 1e12}, 2e12},
	{"by-metre", nil, 30},
}

// The lengths table finds the length a run is sold in as soldWithin
// does. By hand: a 1.2 m run takes a DAC's 1.5 m; a run within a
// nanometre over 1.5 m still takes it (the hall's float slack), one 2 nm
// over takes 2 m; 3.01 m is beyond the DAC; a fibre cut at 100 m sells
// 70.5 m as 100 m and nothing for 100.5 m (150 m is out of reach); the
// unsorted list's first fit for 0.5 m is its first, 3 m; a 10^9 km
// length (too long for a table: read in order) still sells a 3 m run;
// sold by the metre, 2.3 m is 3 m, 0.2 m is 1 m and 30.5 m is past
// reach. Then every run on a 1 cm grid and at each length and a hair
// either side answers as soldWithin. Mutations caught: the step from
// the table's first length to the run's own left out (1.2 m sold as
// 1 m), the slack left out (1.5 m + 0.5 nm sold as 2 m), lengths past
// reach kept (100.5 m sold as 150 m), a table made for lengths too long
// for one (its metres not bounded).
func TestSoldLengthsAsSoldWithin(t *testing.T) {
	type want struct {
		cable  string
		run, l float64
		ok     bool
	}
	for _, w := range []want{
		{"dac", 1.2, 1.5, true}, {"dac", 1.5 + 5e-10, 1.5, true}, {"dac", 1.5 + 2e-9, 2, true}, {"dac", 0, 0.5, true},
		{"dac", 3, 3, true}, {"dac", 3.01, 0, false},
		{"fibre-cut", 70.5, 100, true}, {"fibre-cut", 100.5, 0, false}, {"fibre-cut", 4, 5, true},
		{"twice", 0.7, 1, true}, {"twice", 2.2, 2.5, true},
		{"unsorted", 0.5, 3, true}, {"unsorted", 3.5, 0, false}, {"too-long", 3, 1e12, true}, {"too-long", 1.5, 2, true},
		{"by-metre", 2.3, 3, true}, {"by-metre", 0.2, 1, true}, {"by-metre", 7, 7, true}, {"by-metre", 30.5, 0, false},
	} {
		for _, c := range soldCables {
			if c.name != w.cable {
				continue
			}
			s := newSoldLengths(&Cable{Key: c.name, LengthsM: c.lengths}, c.reach)
			if l, ok := soldAt(t, s, w.run); l != w.l || ok != w.ok {
				t.Errorf("%s, %g m: %g m (%v), want %g m (%v)", c.name, w.run, l, ok, w.l, w.ok)
			}
		}
	}
	for _, c := range soldCables {
		t.Run(c.name, func(t *testing.T) {
			cb := &Cable{Key: c.name, LengthsM: c.lengths}
			s := newSoldLengths(cb, c.reach)
			runs := []float64{-1, math.Inf(1)}
			for r := 0.0; r < 600; r += 0.01 {
				runs = append(runs, r)
			}
			for _, l := range c.lengths {
				for _, d := range []float64{0, 5e-10, 1e-9, 2e-9, 1e-7, -1e-9, -1e-7} {
					runs = append(runs, l+d)
				}
			}
			for _, r := range runs {
				wl, wok := cb.soldWithin(r, c.reach)
				if l, ok := soldAt(t, s, r); ok != wok || ok && l != wl {
					t.Fatalf("%.12g m: %g m (%v), soldWithin %g m (%v)", r, l, ok, wl, wok)
				}
			}
		})
	}
	if newSoldLengths(nil, 10).at(1) != nil {
		t.Error("a medium without a cable sold a length")
	}
}

// A tier's soldEnds table gives a run the soldEnd that soldEnd finds
// over every medium (the shortest length any sells it in, +Inf when
// none reaches), on plans of both fabrics and port speeds, and with a
// medium sold by the metre in place of its lengths; the sets' media
// through the table are the media through the run's bits, and a run no
// medium reaches fails with the same error. Mutations caught: lengths
// past a medium's reach kept in the union, whole metres from 0 for a
// medium sold by the metre.
func TestSoldEndsAsSoldEnd(t *testing.T) {
	cat := testCatalog(t)
	eth := NewScenario()
	eth.Cluster.GPUs, eth.Network.Fabric, eth.Network.Switch = 4099, Ethernet, "tomahawk6-100g"
	for name, s := range map[string]Scenario{"ib-ndr-1k": scenarioFile(t, "ib-ndr-1k"), "gb300-nvl72-4k": scenarioFile(t, "gb300-nvl72-4k"), "eth-4099": eth} {
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if p.media == nil {
			t.Fatalf("%s: no media chosen", name)
		}
		byMetre := *p.media
		dac := *byMetre.cables[0]
		dac.LengthsM = nil
		byMetre.cables[0] = &dac
		for variant, m := range map[string]*mediaChooser{"": p.media, "/dac-by-metre": &byMetre} {
			t.Run(name+variant, func(t *testing.T) {
				memo, bits := newMediumMemo(m), newMediumMemo(m)
				bits.endsMade = [linkTierCount]bool{true, true, true} // no tables: every run by its bits
				for tier := range linkTierCount {
					e := m.soldEndsOf(tier)
					if e == nil {
						t.Fatalf("tier %d: no table", tier)
					}
					runs := []float64{0, 1e6}
					for r := 0.25; r < 520; r += 0.05 {
						runs = append(runs, r)
					}
					for _, l := range e.steps.lengths {
						runs = append(runs, l, l+5e-10, l+2e-9, l-1e-9)
					}
					for _, r := range runs {
						want := m.soldEnd(tier, r)
						k := e.steps.first(r)
						if got := math.Inf(1); k >= 0 && e.steps.lengths[k] != want || k < 0 && !math.IsInf(want, 1) {
							if k >= 0 {
								got = e.steps.lengths[k]
							}
							t.Fatalf("tier %d, %.12g m: soldEnd %g m from the table, %g m from soldEnd", tier, r, got, want)
						}
						r32 := float32(r)
						med, err := memo.of(tier, r32)
						wmed, werr := bits.of(tier, r32)
						if med != wmed || (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
							t.Fatalf("tier %d, %g m: medium %d (%v), by bits %d (%v)", tier, r32, med, err, wmed, werr)
						}
					}
				}
			})
		}
	}
}
