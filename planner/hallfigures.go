package planner

import (
	"maps"
	"slices"

	"fabricplan/planner/hall"
)

// cableFigures gives the hall the cables the walk measured and the
// links beside the tiers' (SideLinks: the storage links on the
// server-leaf tier's longest run, the peer links on their measured runs,
// as the BOM buys them; a distributed switch's fabric links at their
// measured lengths, fabricLinkRuns): length and weight by medium and
// the length bins (see hall.AddCables), so the bins count every link
// the plan counts; and the longest link of each tier against its
// medium's reach.
func (p *Plan) cableFigures(t *linkTally, groups []cableGroup) {
	h := p.Hall
	cables := make([]hall.Cables, len(groups), len(groups)+1)
	for i, g := range groups {
		cables[i] = hall.Cables{Medium: string(g.medium), Copper: g.medium == DAC || g.medium == ACC, Metres: g.metres, Links: t.cables[g]}
	}
	side := func(sc sideCable, n int) {
		cables = append(cables, hall.Cables{Medium: string(sc.Medium), Copper: sc.Medium == DAC || sc.Medium == ACC, Metres: sc.Metres, Links: n})
	}
	if n := p.Links.Storage; n > 0 && len(p.LinkTiers) > 0 {
		side(p.serverLeafSide(p.media.cat), n)
	}
	if lp := p.LeafPairs; lp != nil && lp.PeerLinks > 0 && len(p.LinkTiers) > 0 && p.setPeerRuns(p.media.cat) == nil {
		for _, r := range lp.runs {
			side(r.cable, r.pairs*lp.PeerPortsEach)
		}
	}
	if runs, err := p.fabricLinkRuns(p.media.cat); err == nil { // a distributed switch's cabled fabric links
		for _, m := range slices.Sorted(maps.Keys(runs)) {
			cables = append(cables, hall.Cables{Medium: string(Optics), Metres: m, Links: runs[m]})
		}
	}
	h.AddCables(cables)
	f := &h.Figures
	f.Longest = f.Longest[:0]
	for i := range p.LinkTiers {
		c := t.longest[tierIndex(p.LinkTiers[i].Name)]
		if c.Tier == "" {
			continue
		}
		reach := p.reachOf(c)
		f.Longest = append(f.Longest, hall.TierLongest{Tier: c.Tier, Metres: c.Metres, RunM: c.RunM, Medium: string(c.Medium), ReachM: reach, From: c.ARack, To: c.BRack})
	}
}

// reachOf is how far the medium of link c reaches: the cable's reach,
// or for optics the shorter of the fibre's and its modules'.
func (p *Plan) reachOf(c CableRun) int {
	cat := p.media.cat
	if c.Medium != Optics && c.Medium != Multimode {
		return cat.Cables[string(c.Medium)].Reach(c.Gbps)
	}
	r := cat.Cables[c.Part].Reach(c.Gbps)
	for _, k := range []string{c.AModule, c.BModule} {
		if m := cat.Transceivers[k]; m != nil {
			r = min(r, m.ReachM)
		}
	}
	return r
}

// wireUS is the propagation delay, in microseconds, of the cables on a
// path up through every tier and down again: twice each tier's mean
// link length at the facility's ns per metre (5 ns/m, data/facility.toml).
// 0 without a hall layout.
func (p *Plan) wireUS() float64 {
	if p.Hall == nil {
		return 0
	}
	metres := 0.0
	for _, t := range p.LinkTiers {
		n, sum := 0, 0.0
		for _, r := range t.Runs {
			n += r.Links
			sum += float64(r.Links) * r.Metres
		}
		if n > 0 {
			metres += 2 * sum / float64(n)
		}
	}
	return metres * p.Hall.Constants.PropagationNsPerM / 1000
}
