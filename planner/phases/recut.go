package phases

import (
	"fmt"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// CoreAlternative is growing as you go with the core tier cabled as the
// final size's from the first phase at the final's tiers on: the same
// leaves, spines and links each phase, the final plan's core groups from
// the start, so no later phase re-cuts them and no spine-core link
// moves. Its figures are priced as the two strategies are: phases
// before FromPhase are the grow strategy's, phases from it on the
// final-size strategy's.
type CoreAlternative struct {
	// FromPhase is the phase (from 1) that cables the final size's core
	// groups; Cores its cores then, GrowCores the grow strategy's.
	FromPhase int `json:"from_phase"`
	Cores     int `json:"cores"`
	GrowCores int `json:"grow_cores"`
	// SpendUSD is what FromPhase buys, CostUSD the spend over the
	// build-out.
	SpendUSD float64 `json:"spend_usd"`
	CostUSD  float64 `json:"cost_usd"`
	// LinksMoved and RecableHours are over the build-out: the grow
	// strategy's up to FromPhase, none after it.
	LinksMoved   int     `json:"links_moved"`
	RecableHours float64 `json:"recable_hours"`
	Text         string  `json:"text"`
}

// recutPhases are the grow phases (indices) that re-cut the core groups:
// three tiers before and after, and spine-core links of the phase before
// moved.
func recutPhases(pp *PhasedPlan, grow *StrategyPlan) []int {
	var out []int
	for k := 1; k < len(grow.Steps); k++ {
		if grow.Steps[k].LinksMoved.SpineCore > 0 && pp.plans[k-1].Tiers == 3 && pp.plans[k].Tiers == 3 {
			out = append(out, k)
		}
	}
	return out
}

// coreAlternative prices growing with the final size's core groups (nil
// where no phase re-cuts them, or where the grow strategy's phases are
// not the final fabric's leaves, spines and links with other cores:
// then only building for the final size moves none).
func coreAlternative(pp *PhasedPlan, fs, grow *StrategyPlan) *CoreAlternative {
	recuts := recutPhases(pp, grow)
	if len(recuts) == 0 || len(pp.finalQty) != len(grow.Steps) || pp.Final.Tiers != 3 {
		return nil
	}
	j := 0
	for pp.plans[j].Tiers != pp.Final.Tiers {
		j++
	}
	if !followsFinal(fs, grow, j) {
		return nil
	}
	alt := &CoreAlternative{FromPhase: j + 1, Cores: fs.Steps[j].Switches.Core, GrowCores: grow.Steps[j].Switches.Core}
	var before map[bomKey]lineQty
	cost := 0.0
	if j > 0 {
		before, cost = bomQty(pp.plans[j-1]), grow.Steps[j-1].CostUSD
	}
	alt.SpendUSD = compare(before, pp.finalQty[j]).added
	cost += alt.SpendUSD
	for k := j + 1; k < len(fs.Steps); k++ {
		cost += fs.Steps[k].CostAddedUSD
	}
	alt.CostUSD = cost
	alt.LinksMoved, alt.RecableHours = movedThrough(grow, j)
	usd := pp.MoneyScale()
	_, hours := movedThrough(grow, len(grow.Steps)-1)
	alt.Text = fmt.Sprintf("to move no spine-core link, cable the core tier as the final size's from phase %d: %s then (growing buys %d), the final size's core groups; phase %d spends %s (%s growing), %s in all (%s growing); %s move over the build-out, not %s (%s of re-cabling, estimate, not %s)",
		alt.FromPhase, textfmt.Plural(alt.Cores, "core"), alt.GrowCores, alt.FromPhase, usd.Format(alt.SpendUSD), usd.Format(grow.Steps[j].CostAddedUSD),
		usd.Format(alt.CostUSD), usd.Format(grow.Last().CostUSD), textfmt.Plural(alt.LinksMoved, "link"), textfmt.Int(totalMoved(*grow)),
		textfmt.Hours(alt.RecableHours), textfmt.Hours(hours))
	return alt
}

// followsFinal says whether the grow strategy's phases from j on have
// the final-size strategy's leaves, spines and links and move only
// spine-core links after j: then cabling the final size's cores from j
// is the same growth with no core re-cut.
func followsFinal(fs, grow *StrategyPlan, j int) bool {
	for k := j; k < len(grow.Steps); k++ {
		a, b := grow.Steps[k], fs.Steps[k]
		if a.Switches.Leaf != b.Switches.Leaf || a.Switches.Spine != b.Switches.Spine || !sameLinks(a.Links, b.Links) {
			return false
		}
		if k > j && a.LinksMoved.Total != a.LinksMoved.SpineCore {
			return false // a later phase moves leaf or server links too: not a core re-cut alone
		}
	}
	return true
}

// movedThrough is the links the grow strategy moves up to phase index
// j, and their re-cabling hours.
func movedThrough(grow *StrategyPlan, j int) (links int, hours float64) {
	for k := 0; k <= j; k++ {
		links += grow.Steps[k].LinksMoved.Total
		if r := grow.Steps[k].Recabling; r != nil {
			hours += r.Hours
		}
	}
	return links, hours
}

// sameLinks says whether two phases cable the same links per tier.
func sameLinks(a, b planner.Links) bool {
	return a.ServerLeaf == b.ServerLeaf && a.LeafSpine == b.LeafSpine && a.SpineCore == b.SpineCore && a.Storage == b.Storage && a.Peer == b.Peer
}

// coreFindings says why a grow phase moves spine-core links (its core
// groups are re-cut for more cores) and what moves none: the grow
// strategy's CoreAlternative where there is one, else building for the
// final size.
func coreFindings(pp *PhasedPlan, grow *StrategyPlan) []string {
	var out []string
	for _, k := range recutPhases(pp, grow) {
		prev, st := grow.Steps[k-1], grow.Steps[k]
		renamed := ""
		if r := st.Recabling; r != nil && r.CoresRenamed > 0 {
			renamed = fmt.Sprintf("; %d of them take the name of the new core they share most links with (a label, not a cable; --moves lists them), so %s stay",
				r.CoresRenamed, textfmt.Plural(prev.Links.SpineCore-st.LinksMoved.SpineCore, "link"))
		}
		out = append(out, fmt.Sprintf("phase %d re-cuts the core groups: phase %d's %s become %d and the spines' core links are dealt anew over their groups' cores%s; %s of phase %d's %s spine-core links move",
			st.Phase, prev.Phase, textfmt.Plural(prev.Switches.Core, "core"), st.Switches.Core, renamed, textfmt.Int(st.LinksMoved.SpineCore), prev.Phase, textfmt.Int(prev.Links.SpineCore)))
	}
	if len(out) == 0 {
		return nil
	}
	if grow.CoreAlternative != nil {
		return append(out, grow.CoreAlternative.Text)
	}
	return append(out, "building for the final size (above) moves no link: its core groups are the final size's from the start")
}
