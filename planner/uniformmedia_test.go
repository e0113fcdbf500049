package planner

import (
	"fmt"
	"slices"
	"testing"

	"fabricplan/planner/hall"
)

// Where a tier's medium does not depend on its runs, the bill counts
// the upper links as it walks them; every figure must be the survey's
// and replay's: cables by group, links and lengths per tier (to the
// bit), every cage's use, each tier's longest link, and the media the
// plan's sets give every cage (the cable map and later walks read
// them). Over the replay's and the count's designs (every shipped
// scenario, system, fabric, ratio, planes, tiers, odd sizes) and
// 800G fabrics of odd sizes, whose optics are single-mode at every
// length: the path must be taken on some, and declined on others.
// Mutations caught: every cage given the medium (the unreached ones
// too), the first soldEnd within the bounds not asked, a tier whose
// soldEnds take two media taken as uniform. (The bounds themselves:
// TestRunBoundsHoldEveryRun.)
func TestUniformUpperMatchesSurvey(t *testing.T) {
	cat := testCatalog(t)
	hallMemoOff.Store(true)
	defer hallMemoOff.Store(false)
	cases := countedCases(t)
	for name, s := range replayCases(t) {
		cases["replay-"+name] = s
	}
	for _, n := range []int{2_001, 24_577, 100_008} {
		for _, planes := range []int{1, 2} {
			s := NewScenario()
			s.Cluster.GPUs, s.Network.NICGbps, s.Network.Planes = n, 800, planes
			cases[fmt.Sprintf("800g-%d-%dplanes", n, planes)] = s
		}
	}
	taken, declined := 0, 0
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil || p.Hall == nil || p.media == nil || p.media.sets == nil || p.linksCounted {
				t.Logf("no walked hall (%v): nothing to count", err)
				return
			}
			_, grid, err := p.startLinkBOM(cat)
			if err != nil {
				t.Fatal(err)
			}
			want := newLinkTally(grid)
			if err := p.surveyAndCount(grid, want); err != nil {
				t.Fatal(err)
			}
			wantMedia := slices.Clone(p.media.sets.medium)
			got := newLinkTally(grid)
			ok, err := p.countUniformUpper(grid, got)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				declined++
				return
			}
			taken++
			compareTallies(t, got, want)
			if !p.media.sets.counted {
				t.Error("the counted sets say the server links were joined")
			}
			gotMedia := p.media.sets.medium
			if len(gotMedia) != len(wantMedia) {
				t.Fatalf("%d cages, the survey's %d", len(gotMedia), len(wantMedia))
			}
			for i := range wantMedia {
				if gotMedia[i] != wantMedia[i] {
					t.Fatalf("cage %d: medium %d, the survey's %d", i, gotMedia[i], wantMedia[i])
				}
			}
		})
	}
	t.Logf("counted as walked: %d designs; surveyed: %d", taken, declined)
	if taken < 3 || declined < 3 {
		t.Errorf("counted as walked %d designs, surveyed %d: want some of each", taken, declined)
	}
}

// Every run of a tier's links lies within the tier's bounds (the
// counted-as-walked path asks the media of the soldEnds between them
// only), over the counted designs, with links inside one rack among
// them. Mutations caught: the bounds taken from the upper switches
// only, the rack's slack left out of the lower bound (a run inside a
// rack below it), the drops left out of the upper bound.
func TestRunBoundsHoldEveryRun(t *testing.T) {
	cat := testCatalog(t)
	cases := countedCases(t)
	for name, s := range replayCases(t) {
		cases["replay-"+name] = s
	}
	for _, place := range []string{hall.PlaceMiddle, hall.PlaceEnd} {
		for _, n := range []int{64, 129, 300} {
			s := ibScenario(n)
			s.Facility = &hall.Facility{LeafPlacement: place}
			cases[fmt.Sprintf("%s-%d", place, n)] = s
		}
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := Build(s, cat)
			if err != nil || p.Hall == nil || p.media == nil || p.media.sets == nil {
				t.Logf("no laid-out plan (%v): nothing to walk", err)
				return
			}
			u := p.newUpperWalk(p.media.sets, nil)
			var lo, hi [linkTierCount]float64
			for tier := tierLeafSpine; tier < linkTierCount; tier++ {
				if len(u.ends[tier-1]) > 0 && len(u.ends[tier]) > 0 {
					lo[tier], hi[tier] = u.runBounds(tier)
				}
			}
			u.visit = func(t8 int8, run float64, _, _, ra, rb int32) error {
				if run < lo[t8] || run > hi[t8] {
					return fmt.Errorf("a %s run of %v m outside its bounds %v-%v", linkTierNames[t8], run, lo[t8], hi[t8])
				}
				return nil
			}
			if err := u.walk(p); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// A tier whose switches share a rack has runs inside it, which the
// bounds hold too: by hand, a leaf at 1 m in rack 1 (drop 2 m) and
// spines at 1.2 m in rack 1 (drop 1.8 m) and at 1 m in rack 2, 5 m
// along (drop 2 m), rack slack 0.5 m, hall slack 3 m: runs of
// |1 - 1.2| + 0.5 = 0.7 m and 2 + 2 + 5 + 0 + 3 = 12 m. Apart, in racks
// 1 and 2 only, the shortest is 2 + 1.8 + 3 = 6.8 m. The lower bound
// inside a rack is the rack slack alone (two heights may be equal):
// 0.5 m shared, 6.8 m apart. Mutations caught:
// the rack's slack left out of the lower bound, the shared rack not
// seen, the horizontal legs left out of the upper bound.
func TestRunBoundsInsideARack(t *testing.T) {
	u := &upperWalk{rackSlack: 0.5, slack: 3}
	u.ends[0] = []runEnd{{x: 0, y: 0, h: 1, drop: 2, rack: 1}}
	u.ends[1] = []runEnd{{x: 0, y: 0, h: 1.2, drop: 1.8, rack: 1}, {x: 5, y: 0, h: 1, drop: 2, rack: 2}}
	for _, c := range []struct {
		name                     string
		spines                   []runEnd
		bound, shortest, longest float64
	}{
		{"one rack shared", u.ends[1], 0.5, 0.7, 12},
		{"apart", []runEnd{{x: 0, y: 0, h: 1.2, drop: 1.8, rack: 3}, {x: 5, y: 0, h: 1, drop: 2, rack: 2}}, 6.8, 6.8, 12},
	} {
		u.ends[1] = c.spines
		lo, hi := u.runBounds(tierLeafSpine)
		if lo > c.shortest || hi < c.longest {
			t.Errorf("%s: bounds %v-%v m, want %v-%v m within", c.name, lo, hi, c.shortest, c.longest)
		}
		if lo < c.bound-1e-3 {
			t.Errorf("%s: lower bound %v m, want about %v m", c.name, lo, c.bound)
		}
	}
}
