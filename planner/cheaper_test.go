package planner

import (
	"slices"
	"strings"
	"testing"
)

// The case: 2,056 DGX-class GPUs (257 servers of 8 x 400G) on
// QM9700 at 1:1 need three tiers in one plane (257 x 8 = 2,056 ports
// exceed the 2,048 two tiers of 64-port switches reach: 64 leaves x 32
// down), but two planes of 4 ports per server (1,028 each) stay at two
// tiers. FindCheaper names that design, with the saving as the two
// plans' difference, and the note says so. At 2,048 GPUs the plan is
// already two tiers and nothing saves 10%. Mutations caught: the check
// comparing designs of another ratio or NIC (a 2:1 design is cheaper
// still), a saving under 10% offered, the saving taken from the wrong
// plan, the check not run by plan.
func TestFindCheaper(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs, s.Network.Switch = 2056, "qm9700"
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 3 || p.Planes != 1 {
		t.Fatalf("2,056 GPUs: %d tiers, %d planes; want 3, 1", p.Tiers, p.Planes)
	}
	p.FindCheaper(cat)
	two := s
	two.Network.Planes = 2
	q, err := Build(two, cat)
	if err != nil {
		t.Fatal(err)
	}
	if q.Tiers != 2 {
		t.Fatalf("2 planes: %d tiers, want 2", q.Tiers)
	}
	if len(p.Cheaper) != 1 {
		t.Fatalf("cheaper designs %+v, want one", p.Cheaper)
	}
	c := p.Cheaper[0]
	if !strings.Contains(c.Design, "2 planes at 2 tiers") || !near(c.CostUSD, q.Cost.Total) || !near(c.SavingUSD, p.Cost.Total-q.Cost.Total) {
		t.Errorf("cheaper %+v; want 2 planes at 2 tiers for %.0f, saving %.0f", c, q.Cost.Total, p.Cost.Total-q.Cost.Total)
	}
	if c.SavingUSD < 0.1*p.Cost.Total {
		t.Errorf("saving %.0f under 10%% of %.0f", c.SavingUSD, p.Cost.Total)
	}
	if !strings.Contains(strings.Join(p.Notes, " "), "cheaper with the same ports and 1:1: 2 planes at 2 tiers") {
		t.Errorf("notes %q", p.Notes)
	}
	// Applying the design to the scenario gives that plan.
	applied := s
	c.Apply(&applied)
	r, err := Build(applied, cat)
	if err != nil || r.Planes != 2 || r.Tiers != 2 || !near(r.Cost.Total, q.Cost.Total) {
		t.Errorf("applied: %+v (%v)", applied.Network, err)
	}
	s.Cluster.GPUs = 2048
	p, _ = Build(s, cat)
	p.FindCheaper(cat)
	if p.Tiers != 2 || len(p.Cheaper) != 0 {
		t.Errorf("2,048 GPUs: %d tiers, cheaper %+v; want 2 tiers and nothing", p.Tiers, p.Cheaper)
	}
}

// The HDR case: 3,200 GPUs of 200G on the 40-port QM8700 need
// three tiers in one plane (two tiers reach 40^2/2 = 800 ports; three
// tiers at least 160 leaves of 20 down, 160 spines and 3,200 / 40 = 80
// cores, 400 switches), while planes of at most 800 ports each (4 or 8:
// one per rail) stay at two tiers: 160 leaves and 80 spines, 240
// switches, about half. The cheapest design overall moves to the
// QM9700; FindCheaper then also names the plane count on the QM8700
// itself, with its switch count. Where the cheapest design keeps the
// switch (2,056 GPUs on QM9700, TestFindCheaper) no second note is
// added. Mutations caught: the second search not kept to the plan's
// switch (it names the QM9700 again), the second note left out.
func TestFindCheaperPlanesOnItsSwitch(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario() // in the hall, as plan prices it (at flat lengths 4 planes on the QM8700 is the cheapest overall)
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = 3200, 200, "qm8700"
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 3 || p.TotalSwitches() < 400 {
		t.Fatalf("one plane: %d tiers, %d switches; want 3 and at least 400", p.Tiers, p.TotalSwitches())
	}
	p.FindCheaper(cat)
	// Then the chassis spines above its leaves (TestFindCheaperOnChassis)
	// and the pods of whole leaves that fill its spines (TestLeafPodsOffered).
	p.Cheaper = slices.DeleteFunc(p.Cheaper, func(c Cheaper) bool {
		return strings.Contains(c.Design, "spine_switch") || strings.HasPrefix(c.Design, "pod_gpus")
	})
	if len(p.Cheaper) != 2 {
		t.Fatalf("cheaper designs %+v, want two", p.Cheaper)
	}
	if d := p.Cheaper[0].Design; !strings.Contains(d, "qm9700") {
		t.Errorf("first design %q, want the QM9700", d)
	}
	own := p.Cheaper[1]
	if strings.Contains(own.Design, "qm9700") || !strings.Contains(own.Design, "planes at 2 tiers") {
		t.Errorf("second design %q, want more planes at 2 tiers on qm8700", own.Design)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "cheaper on qm8700 itself: "+own.Design) ||
		!strings.Contains(strings.Join(p.Notes, "\n"), "(240 switches against ") {
		t.Errorf("notes %q", p.Notes)
	}
	applied := s
	own.Apply(&applied)
	r, err := Build(applied, cat)
	if err != nil || r.Switch.Key != "qm8700" || r.Tiers != 2 || r.TotalSwitches() != 240 {
		t.Errorf("applied: %+v (%v)", applied.Network, err)
	}
}

// TestFindCheaperPlanesAtTwoTiers: where the plan's three tiers are the
// reference layout's, the planes are tried at two tiers too. 4,032
// GB200 GPUs (56 racks of 18 trays, 4 NICs a tray) on the QM9700 get the
// reference's three tiers in one plane (4,032 ports a plane are past the
// 2,048 two tiers of 64-port switches reach); in 4 planes, one a rail,
// each plane's 1,008 trays fit two tiers, but tiers = 0 asks the
// reference again, which builds three. By hand, a plane at two tiers: a
// rack-aligned leaf takes one rack's 18 trays of its rail (18 down, 18
// up), 56 leaves; a leaf's 18 uplinks divide evenly over 18 spines
// (1,008 / 64 needs 16, which 18 does not divide), so 74 a plane and 296
// in all, 224 leaves and 72 spines. Mutation caught: the planes tried
// at tiers = 0 only (no such design offered); checked.
func TestFindCheaperPlanesAtTwoTiers(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.System, s.Cluster.GPUs, s.Network.Switch = "gb200-nvl72", 4032, "qm9700"
	s = flatLengths(s.WithSystem(cat))
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 3 || p.Planes != 1 {
		t.Fatalf("%d tiers, %d planes; want the reference's 3 in 1 plane", p.Tiers, p.Planes)
	}
	p.FindCheaper(cat)
	var offer *Cheaper
	for i, c := range p.Cheaper {
		if strings.HasPrefix(c.Design, "4 planes at 2 tiers (tiers = 2") {
			offer = &p.Cheaper[i]
		}
	}
	if offer == nil || offer.Caveat == "" {
		t.Fatalf("cheaper designs %+v; want 4 planes at 2 tiers with the reference's caveat", p.Cheaper)
	}
	applied := s
	offer.Apply(&applied)
	q, err := Build(applied, cat)
	if err != nil {
		t.Fatal(err)
	}
	if q.Planes != 4 || q.Tiers != 2 || q.Switches(TierLeaf) != 224 || q.Switches(TierSpine) != 72 || !near(q.Cost.Total, offer.CostUSD) {
		t.Errorf("applied: %d planes, %d tiers, %d leaves, %d spines, $%.0f; want 4, 2, 224, 72, $%.0f",
			q.Planes, q.Tiers, q.Switches(TierLeaf), q.Switches(TierSpine), q.Cost.Total, offer.CostUSD)
	}
}

// TestFindCheaperOnChassis: the hint offers the chassis shapes the
// design search tries (AppendChassisShapes) above the plan's own leaves
// where one saves 10%, as it offers plane counts on the plan's switch,
// priced by the same rules (the plan's hall). 3,200 GPUs (400 servers of
// 8 x 200G, HDR) on the 40-port QM8700 at 1:1 take three tiers; on
// CS8500 directors (20 cards of 40 x HDR 200G, 800 ports) the same 160
// leaves (3,200 / 20 down) send their 3,200 uplinks to ceil(3,200 /
// 800) = 4 chassis at two tiers: 164 switches. That design, applied and
// built, costs what the hint says. A plan of one tier (32 GPUs: one
// leaf, no spines) is offered none.
//
// Mutations caught: the chassis shapes left out of the hint
// (offerChassis not called: no such entry), the apply dropping the
// spine switch (the applied plan is QM8700 spines again); each checked.
func TestFindCheaperOnChassis(t *testing.T) {
	cat := testCatalog(t)
	s := leafShapeScenario(3200, InfiniBand, 200, "qm8700", "1:1")
	p, err := Build(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if p.Tiers != 3 {
		t.Fatalf("3,200 GPUs on QM8700: %d tiers, want 3", p.Tiers)
	}
	p.FindCheaper(cat)
	var found *Cheaper
	for i, c := range p.Cheaper {
		if strings.Contains(c.Design, `spine_switch = "cs8500"`) {
			found = &p.Cheaper[i]
		}
	}
	if found == nil || !strings.Contains(strings.Join(p.Notes, "\n"), "cheaper on chassis above the plan's qm8700 leaves: cs8500 chassis spines, 4 a plane") {
		t.Fatalf("no CS8500 design offered: %+v\n%s", p.Cheaper, strings.Join(p.Notes, "\n"))
	}
	applied := s
	found.Apply(&applied)
	q, err := Build(applied, cat)
	if err != nil {
		t.Fatal(err)
	}
	if q.Tiers != 2 || q.Switches(TierLeaf) != 160 || q.Switches(TierSpine) != 4 || q.SwitchOf(TierSpine).Key != "cs8500" {
		t.Errorf("applied: %d tiers, %d leaves, %d %s spines; want 2, 160, 4 cs8500", q.Tiers, q.Switches(TierLeaf), q.Switches(TierSpine), q.SwitchOf(TierSpine).Key)
	}
	if q.Cost.Total != found.CostUSD || found.SavingUSD < cheaperShare*p.Cost.Total {
		t.Errorf("applied costs %.0f, the hint said %.0f saving %.0f of %.0f", q.Cost.Total, found.CostUSD, found.SavingUSD, p.Cost.Total)
	}
	one, err := Build(leafShapeScenario(32, InfiniBand, 200, "qm8700", "1:1"), cat)
	if err != nil {
		t.Fatal(err)
	}
	if opts := one.chassisOptions(cat); one.Tiers != 1 || len(opts) != 0 {
		t.Errorf("32 GPUs: %d tiers, %d chassis options; want 1 tier, none", one.Tiers, len(opts))
	}
}
