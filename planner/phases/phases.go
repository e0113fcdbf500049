package phases

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/resilience"
)

// Strategies of a phased build-out.
const (
	// StrategyFinal builds for the final size: the final plan's fabric,
	// populated phase by phase (NVIDIA's reference architectures size the
	// fabric for the planned build: ../shared/research/facility.md §5).
	StrategyFinal = "final_size"
	// StrategyGrow builds each phase's own fabric and re-cables to reach
	// the next (adding spine switches later rewires the fabric unless
	// leaves have spare uplinks: ipSpace 2023, facility.md §5).
	StrategyGrow = "grow"
)

// maxDefaultPhases bounds the phases made up when a scenario lists none.
const maxDefaultPhases = 10

// SwitchCount counts switches per tier.
type SwitchCount struct {
	Leaf  int `json:"leaf"`
	Spine int `json:"spine"`
	Core  int `json:"core"`
	Total int `json:"total"`
}

// PhaseJCT is the default (or the scenario's) workload's time on one
// phase's GPUs.
type PhaseJCT struct {
	StepS float64 `json:"step_s"`
	Days  float64 `json:"days"`
}

// PhaseStep is one phase of one strategy: what is in place once it is
// built, what it adds, what it costs and how it trains.
type PhaseStep struct {
	Phase   int    `json:"phase"` // from 1
	GPUs    int    `json:"gpus"`
	Date    string `json:"date,omitempty"`
	Servers int    `json:"servers"`
	Tiers   int    `json:"tiers"`

	Switches      SwitchCount   `json:"switches"`
	SwitchesAdded SwitchCount   `json:"switches_added"`
	Links         planner.Links `json:"links"`
	// LinksAdded are the links this phase cables that the one before did
	// not have (the new ends of moved cables included); LinksMoved the
	// links of the phase before that this phase re-cables or takes out.
	LinksAdded planner.Links `json:"links_added"`
	LinksMoved planner.Links `json:"links_moved"`
	// TransceiversBought and CablesBought are the parts this phase buys
	// (spares included).
	TransceiversBought int `json:"transceivers_bought"`
	CablesBought       int `json:"cables_bought"`
	// CostAddedUSD is what this phase buys; CostUSD the spend so far;
	// RetiredUSD the parts bought earlier that this phase takes out of
	// the fabric (surplus after a re-design).
	CostAddedUSD float64 `json:"cost_added_usd"`
	CostUSD      float64 `json:"cost_usd"`
	RetiredUSD   float64 `json:"retired_usd"`
	PowerW       float64 `json:"power_w"`
	// Oversub is the worst leaf's down:up links as built (down / up; 0
	// without uplinks), RatioHolds whether it is at most the asked one.
	Oversub    float64   `json:"oversubscription"`
	RatioHolds bool      `json:"ratio_holds"`
	JCT        *PhaseJCT `json:"jct,omitempty"`
	// Recabling is the change from the phase before (nil: nothing moves).
	Recabling *Recabling `json:"recabling,omitempty"`
}

// Recabling estimates the change window that moves links to reach a
// phase: how long it takes and how the running job fares meanwhile, by
// the resilience model's rule for the lost link (one link per crew down
// at a time).
type Recabling struct {
	Moved      planner.Links `json:"moved"`
	MinPerLink float64       `json:"min_per_link"`
	Crews      int           `json:"crews"`
	Hours      float64       `json:"hours"`
	// Behaviour is what the job does while a moved link is down (the
	// worst over the tiers moved); Slowdown its step-time factor when it
	// continues; UplinkLeft the capacity left above the worst-hit switch.
	Behaviour  resilience.Behaviour `json:"behaviour,omitempty"`
	Slowdown   float64              `json:"slowdown,omitempty"`
	UplinkLeft float64              `json:"uplink_left,omitempty"`
	Text       string               `json:"text"`
	// CoresRenamed is the cores of the phase before that take another
	// core's name in this one, so that a re-cut core tier keeps the
	// most links (coreRename): a label, not a cable.
	CoresRenamed int `json:"cores_renamed,omitempty"`
}

// StrategyPlan is one strategy over every phase.
type StrategyPlan struct {
	Key      string      `json:"key"`
	Name     string      `json:"name"`
	Steps    []PhaseStep `json:"phases"`
	Findings []string    `json:"findings"`
	// CoreAlternative is, for growing as you go where a phase re-cuts
	// the core groups, the same growth with the core tier cabled as the
	// final size's (nil: no re-cut, or no such alternative).
	CoreAlternative *CoreAlternative `json:"core_alternative,omitempty"`
}

// Last is the strategy's final phase.
func (sp *StrategyPlan) Last() *PhaseStep { return &sp.Steps[len(sp.Steps)-1] }

// PhasedPlan is a phased build-out planned two ways.
type PhasedPlan struct {
	Final *planner.Plan `json:"-"` // the plan of the final size
	// Asked is the scenario's oversubscription (down:up at the leaf).
	Asked      string         `json:"oversubscription"`
	Strategies []StrategyPlan `json:"strategies"` // final size, then grow
	Notes      []string       `json:"notes"`
	// plans are the grow strategy's fabrics, one a phase.
	plans []*planner.Plan
	// finalQty is the final-size strategy's bill after each phase.
	finalQty []map[bomKey]lineQty
}

// Strategy returns the strategy of key (nil when absent).
func (pp *PhasedPlan) Strategy(key string) *StrategyPlan {
	for i := range pp.Strategies {
		if pp.Strategies[i].Key == key {
			return &pp.Strategies[i]
		}
	}
	return nil
}

// PlanPhases plans the scenario's build-out two ways, for the final size
// and growing as you go. The final size is cluster.gpus; the phases are
// the scenario's [[phase]] list (one more for cluster.gpus when the list
// stops short), or, without one, one scalable unit doubling to the final
// size. Every phase uses the final plan's switch and NIC and is priced as
// plan prices it: a scenario laid out in a data hall has each phase's
// links measured in that phase's own hall, so the final phase is the
// plan, at the plan's price.
func PlanPhases(s planner.Scenario, cat *planner.Catalog) (*PhasedPlan, error) {
	final, err := planner.Build(s, cat)
	if err != nil {
		return nil, err
	}
	pp := &PhasedPlan{Final: final, Asked: final.Scenario.Network.Oversubscription}
	phases, notes, err := resolvePhases(s, final)
	if err != nil {
		return nil, err
	}
	pp.Notes = notes
	pinned := s.Clone()
	pinned.Network.Switch, pinned.Network.NIC, pinned.Phases = final.Switch.Key, final.NIC.Key, nil
	pinned.Network.SpineSwitch, pinned.Network.CoreSwitch = final.SwitchOf(planner.TierSpine).Key, final.SwitchOf(planner.TierCore).Key // auto resolved once
	pp.plans = make([]*planner.Plan, len(phases))
	for i, ph := range phases {
		if i == len(phases)-1 {
			pp.plans[i] = final
			continue
		}
		sc := pinned.Clone()
		sc.Cluster.GPUs = ph.GPUs
		if pp.plans[i], err = planner.Build(sc, cat); err != nil {
			return nil, fmt.Errorf("phase %d (%s GPUs): %w", i+1, textfmt.Int(ph.GPUs), err)
		}
	}
	g := growth(s, cat)
	fs, err := planFinalSize(pp, phases, pinned, cat, g)
	if err != nil {
		return nil, err
	}
	grow, err := planGrow(pp, phases, g)
	if err != nil {
		return nil, err
	}
	pp.Strategies = append(pp.Strategies, fs, grow)
	gr := &pp.Strategies[1]
	gr.CoreAlternative = coreAlternative(pp, &pp.Strategies[0], gr)
	gr.Findings = append(gr.Findings, coreFindings(pp, gr)...)
	pp.Notes = append(pp.Notes, fmt.Sprintf("re-cabling: %s min a link for one crew (estimate: no published figure), %s; labour is not priced",
		trimFloat(g.RecableMin), textfmt.Plural(g.RecableCrews, "crew")))
	return pp, nil
}

// growth returns the scenario's growth options with defaults filled in.
func growth(s planner.Scenario, cat *planner.Catalog) planner.Growth {
	g := planner.Growth{RecableCrews: 1}
	if rel, ok := s.ReliabilityWith(cat); ok {
		g.RecableMin = rel.Recovery.RecableMin
	}
	if in := s.Growth; in != nil {
		g.PrebuyPorts = in.PrebuyPorts
		if in.RecableMin > 0 {
			g.RecableMin = in.RecableMin
		}
		if in.RecableCrews > 0 {
			g.RecableCrews = in.RecableCrews
		}
	}
	return g
}

// resolvePhases turns the scenario's phases into GPU counts: units are
// the final plan's scalable units (the units plan prints, a partial last
// unit the cluster's remainder); the final size ends the list.
func resolvePhases(s planner.Scenario, final *planner.Plan) ([]planner.Phase, []string, error) {
	perUnit, units := final.Unit.GPUs, final.UnitCount()
	var notes []string
	in := s.Phases
	if len(in) == 0 {
		in = defaultPhases(final.GPUs, perUnit)
		notes = append(notes, fmt.Sprintf("no [[phase]] list: phases double from one scalable unit (%s GPUs) to the final size", textfmt.Int(perUnit)))
	}
	out := make([]planner.Phase, 0, len(in)+1)
	for i, ph := range in {
		key := fmt.Sprintf("phase[%d]", i+1)
		field := key + ".gpus"
		if ph.Units > 0 {
			field = key + ".units"
			if ph.Units > units {
				return nil, nil, fielderr.New(field, fmt.Sprintf("give at most %d (the final plan's scalable units), or raise cluster.gpus", units),
					"%s (the final plan has %s of %s GPUs%s)", textfmt.Plural(ph.Units, "scalable unit"), textfmt.Plural(units, "unit"), textfmt.Int(perUnit), partialWords(final))
			}
			ph.GPUs = final.UnitsGPUs(ph.Units)
		}
		switch {
		case ph.GPUs > final.GPUs:
			return nil, nil, fielderr.New(field, fmt.Sprintf("give at most %s GPUs (cluster.gpus, the final size), or raise cluster.gpus", textfmt.Int(final.GPUs)),
				"%s GPUs", textfmt.Int(ph.GPUs))
		case len(out) > 0 && ph.GPUs <= out[len(out)-1].GPUs:
			return nil, nil, fielderr.New(field, fmt.Sprintf("give more than the phase before (%s GPUs)", textfmt.Int(out[len(out)-1].GPUs)),
				"%s GPUs", textfmt.Int(ph.GPUs))
		}
		out = append(out, ph)
	}
	if len(out) == 0 || out[len(out)-1].GPUs < final.GPUs {
		out = append(out, planner.Phase{GPUs: final.GPUs})
		if len(s.Phases) > 0 {
			notes = append(notes, fmt.Sprintf("cluster.gpus (%s) adds a last phase: the phases stop short of the final size", textfmt.Int(final.GPUs)))
		}
	}
	return out, notes, nil
}

// partialWords is ", the last partial" when the final plan's last
// scalable unit is partial.
func partialWords(final *planner.Plan) string {
	if final.UnitCount()*final.Unit.GPUs > final.GPUs {
		return ", the last partial"
	}
	return ""
}

// defaultPhases doubles from one scalable unit (NVIDIA's deployment
// unit) below the final size, keeping the last few.
func defaultPhases(final, perUnit int) []planner.Phase {
	var out []planner.Phase
	for g := perUnit; g < final && perUnit > 0; g *= 2 {
		out = append(out, planner.Phase{GPUs: g})
	}
	if len(out) > maxDefaultPhases-1 {
		out = out[len(out)-(maxDefaultPhases-1):]
	}
	return out
}

// bomKey identifies a bill-of-materials line across phases.
type bomKey struct{ cat, key, where string }

// lineQty is one line's quantity in a phase, with its unit figures.
type lineQty struct {
	qty        int
	usd, watts float64
	category   string
}

// spend is what one phase buys and retires, line by line against the
// phase before.
type spend struct {
	added, retired       float64
	transceivers, cables int
}

// compare prices the change from prev to cur. It walks the lines in
// key order: a float sum in a map's order differs in its last digit
// from run to run.
func compare(prev, cur map[bomKey]lineQty) spend {
	var sp spend
	for _, k := range sortedBOMKeys(cur) {
		c := cur[k]
		d := c.qty - prev[k].qty
		if d <= 0 {
			continue
		}
		sp.added += float64(d) * c.usd
		switch c.category {
		case planner.CatTransceiver:
			sp.transceivers += d
		case planner.CatCable:
			sp.cables += d
		}
	}
	for _, k := range sortedBOMKeys(prev) {
		if d := prev[k].qty - cur[k].qty; d > 0 {
			sp.retired += float64(d) * prev[k].usd
		}
	}
	return sp
}

// sortedBOMKeys is q's keys by category, key and place.
func sortedBOMKeys(q map[bomKey]lineQty) []bomKey {
	keys := make([]bomKey, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b bomKey) int {
		return cmp.Or(strings.Compare(a.cat, b.cat), strings.Compare(a.key, b.key), strings.Compare(a.where, b.where))
	})
	return keys
}

// bomQty is a plan's bill of materials as quantities by line.
func bomQty(p *planner.Plan) map[bomKey]lineQty {
	out := make(map[bomKey]lineQty, len(p.BOM))
	for _, l := range p.BOM {
		k := bomKey{l.Category, l.Key, l.Where}
		q := out[k]
		q.qty += l.Qty
		q.usd, q.watts, q.category = l.UnitUSD, l.UnitWatts, l.Category
		out[k] = q
	}
	return out
}

// switchCount reads a plan's switches by tier.
func switchCount(p *planner.Plan) SwitchCount {
	c := SwitchCount{Leaf: p.Switches(planner.TierLeaf), Spine: p.Switches(planner.TierSpine), Core: p.Switches(planner.TierCore)}
	c.Total = c.Leaf + c.Spine + c.Core
	return c
}

// added is what grew from prev to c, per tier (never negative).
func (c SwitchCount) added(prev SwitchCount) SwitchCount {
	a := SwitchCount{Leaf: max(0, c.Leaf-prev.Leaf), Spine: max(0, c.Spine-prev.Spine), Core: max(0, c.Core-prev.Core)}
	a.Total = a.Leaf + a.Spine + a.Core
	return a
}

// askedRatio is the scenario's down:up as a number.
func askedRatio(p *planner.Plan) float64 {
	d, u, err := planner.LeafRatio(p.Scenario.Network.Oversubscription)
	if err != nil || u == 0 {
		return 1
	}
	return float64(d) / float64(u)
}

// ratioHolds says whether a built ratio is within the asked one (a
// single switch, with no uplinks, is non-blocking).
func ratioHolds(built, asked float64) bool { return built <= asked*(1+1e-9) }

// phaseJCT reads a plan's job time.
func phaseJCT(p *planner.Plan) *PhaseJCT {
	if p == nil || p.JCT == nil {
		return nil
	}
	return &PhaseJCT{StepS: p.JCT.Planned.StepS, Days: p.JCT.Planned.Days}
}

// planGrow plans growing as you go: each phase its own fabric, and the
// links that move to reach it from the one before.
func planGrow(pp *PhasedPlan, phases []planner.Phase, g planner.Growth) (StrategyPlan, error) {
	sp := StrategyPlan{Key: StrategyGrow, Name: "Grow as you go"}
	asked := askedRatio(pp.Final)
	var prevQty map[bomKey]lineQty
	var prevSet *linkSet
	var prevSw SwitchCount
	cum := 0.0
	for i, p := range pp.plans {
		q := bomQty(p)
		cost := compare(prevQty, q)
		cum += cost.added
		// Each phase's links by their ends, one phase after the other:
		// only the phase before is needed, and the phases' sets at once
		// held twice the final plan's links (48 MB at 1,000,000 GPUs).
		set := newLinkSet(p)
		st := PhaseStep{Phase: i + 1, GPUs: p.GPUs, Date: phases[i].Date, Servers: p.Servers, Tiers: p.Tiers,
			Switches: switchCount(p), Links: p.Links, LinksAdded: p.Links,
			TransceiversBought: cost.transceivers, CablesBought: cost.cables,
			CostAddedUSD: cost.added, CostUSD: cum, RetiredUSD: cost.retired, PowerW: p.Power.Total,
			Oversub: set.oversub, JCT: phaseJCT(p)}
		st.SwitchesAdded = st.Switches.added(prevSw)
		st.RatioHolds = ratioHolds(st.Oversub, asked)
		if prevSet != nil {
			rename := coreRename(prevSet, set)
			d := diffLinks(prevSet, set, rename)
			st.LinksAdded, st.LinksMoved = d.Added, d.Moved
			if d.Moved.Total > 0 {
				st.Recabling = recabling(pp.plans[i-1], d.Moved, g)
				st.Recabling.CoresRenamed = renamedCores(rename)
			}
			if prev := pp.plans[i-1]; prev.Tiers != p.Tiers {
				sp.Findings = append(sp.Findings, fmt.Sprintf("phase %d goes from %d to %d tiers: the fabric is re-designed, %s of the %s links before it move",
					i+1, prev.Tiers, p.Tiers, textfmt.Int(d.Moved.Total), textfmt.Int(prev.Links.Total)))
			}
		}
		sp.Steps = append(sp.Steps, st)
		prevQty, prevSet, prevSw = q, set, st.Switches
	}
	sp.Findings = append(sp.Findings, driftFindings(sp, pp.Asked, asked)...)
	if moved := totalMoved(sp); moved > 0 {
		sp.Findings = append(sp.Findings, fmt.Sprintf("%s links move over the build-out; %s of parts bought earlier are retired",
			textfmt.Int(moved), textfmt.USD(totalRetired(sp))))
	}
	return sp, nil
}

func totalMoved(sp StrategyPlan) int {
	n := 0
	for _, st := range sp.Steps {
		n += st.LinksMoved.Total
	}
	return n
}

func totalRetired(sp StrategyPlan) float64 {
	v := 0.0
	for _, st := range sp.Steps {
		v += st.RetiredUSD
	}
	return v
}

// driftFindings says where a strategy's built oversubscription passes the
// asked one, and by how much.
func driftFindings(sp StrategyPlan, askedText string, asked float64) []string {
	var out []string
	for _, st := range sp.Steps {
		if !st.RatioHolds {
			out = append(out, fmt.Sprintf("phase %d: leaves are built at %s, more oversubscribed than the %s asked (%.0f%% more down per up link)",
				st.Phase, textfmt.Oversub(st.Oversub), askedText, (st.Oversub/asked-1)*100))
		}
	}
	if len(out) == 0 {
		out = append(out, fmt.Sprintf("no drift: every phase's leaves are at most %s, as asked", askedText))
	}
	return out
}

// recabling estimates the window that moves links on the fabric of
// prev (still running): crews move one link each at a time; a moved link
// is down while it moves, as the resilience model's lost link.
func recabling(prev *planner.Plan, moved planner.Links, g planner.Growth) *Recabling {
	r := &Recabling{Moved: moved, MinPerLink: g.RecableMin, Crews: g.RecableCrews}
	r.Hours = math.Ceil(float64(moved.Total)/float64(g.RecableCrews)) * g.RecableMin / 60
	var worst *resilience.FailureCase
	if res := prev.Resilience; res != nil {
		for _, comp := range []struct {
			name  string
			links int
		}{{resilience.FailServerLink, moved.ServerLeaf}, {resilience.FailLeafSpine, moved.LeafSpine}, {resilience.FailSpineCore, moved.SpineCore}} {
			if comp.links == 0 {
				continue
			}
			for i := range res.Cases {
				c := &res.Cases[i]
				if c.Component == comp.name && (worst == nil || worse(c, worst)) {
					worst = c
				}
			}
		}
	}
	window := fmt.Sprintf("move %s: %s for %s at %s min a link (estimate)", textfmt.Plural(moved.Total, "link"),
		textfmt.Hours(r.Hours), textfmt.Plural(g.RecableCrews, "crew"), trimFloat(g.RecableMin))
	if worst == nil {
		r.Text = window
		return r
	}
	r.Behaviour, r.UplinkLeft = worst.Behaviour, worst.UplinkLeft
	if !math.IsInf(worst.Slowdown, 0) {
		r.Slowdown = worst.Slowdown // none (omitted) where no replica is left to train
	}
	if worst.Behaviour == resilience.Continues {
		r.Text = fmt.Sprintf("%s; the job keeps training while a link is out, as with a lost %s (%.0f%% of the worst-hit switch's uplinks left, step time %s)",
			window, worst.Name, 100*worst.UplinkLeft, worst.SlowdownText())
	} else {
		r.Text = fmt.Sprintf("%s; a lost %s %s the job: stop training for the window (%s of downtime)",
			window, worst.Name, worst.Behaviour, textfmt.Hours(r.Hours))
	}
	return r
}

// worse orders failure cases: stopping over restarting over continuing,
// then the larger slowdown.
func worse(a, b *resilience.FailureCase) bool {
	rank := map[resilience.Behaviour]int{resilience.Continues: 0, resilience.Restarts: 1, resilience.Stops: 2}
	if rank[a.Behaviour] != rank[b.Behaviour] {
		return rank[a.Behaviour] > rank[b.Behaviour]
	}
	return a.Slowdown > b.Slowdown
}

// phaseOf is the first phase (from 0) whose servers (online after each
// phase, ascending) reach past server index s.
func phaseOf(servers []int, s int) int { return sort.SearchInts(servers, s+1) }

// MoneyScale is the one scale every amount of the phased plan is written
// in (spend added, spend to date, the strategies' differences), chosen
// from the largest of them.
func (pp *PhasedPlan) MoneyScale() textfmt.MoneyScale {
	var usd []float64
	for _, sp := range pp.Strategies {
		for _, st := range sp.Steps {
			usd = append(usd, st.CostUSD, st.CostAddedUSD)
		}
	}
	return textfmt.MoneyScaleFor(usd...)
}

// ComparePhases says in a sentence how the two strategies differ: the
// first phase's spend, the total, and what growing re-cables.
func ComparePhases(pp *PhasedPlan) string {
	fs, gr := pp.Strategy(StrategyFinal), pp.Strategy(StrategyGrow)
	if fs == nil || gr == nil {
		return ""
	}
	first := gr.Steps[0].CostAddedUSD - fs.Steps[0].CostAddedUSD
	total := gr.Last().CostUSD - fs.Last().CostUSD
	usd := pp.MoneyScale()
	word := func(d float64, more, less string) string {
		if math.Abs(d) < 0.5 { // under a dollar: float sums of the same parts
			return "the same"
		}
		if d >= 0 {
			return usd.Format(d) + " " + more
		}
		return usd.Format(-d) + " " + less
	}
	hours := 0.0
	for _, st := range gr.Steps {
		if st.Recabling != nil {
			hours += st.Recabling.Hours
		}
	}
	s := fmt.Sprintf("growing as you go spends %s in phase 1 and %s in all (%s against %s built for the final size)",
		word(first, "more", "less"), word(total, "more", "less"), usd.Format(gr.Last().CostUSD), usd.Format(fs.Last().CostUSD))
	if moved := totalMoved(*gr); moved > 0 {
		s += fmt.Sprintf("; it moves %s links (%s of re-cabling, estimate), building for the final size none", textfmt.Int(moved), textfmt.Hours(hours))
	} else {
		s += "; neither moves a link"
	}
	return s
}

// trimFloat writes a figure in at most four significant digits.
func trimFloat(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.4g", v), ".0") }
