package explore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"fabricplan/internal/textfmt"
	"fabricplan/internal/workers"
	"fabricplan/planner"
	"fabricplan/planner/perf"
	"fabricplan/planner/pricedraw"
)

// SearchOptions say what a design search looks for.
type SearchOptions struct {
	// TargetDays asks for the cheapest design whose JCT is at most this
	// many days (0: no target).
	TargetDays float64
	// WithinPct asks for the cheapest design within this many percent of
	// the fastest design's JCT (0: no such target). Ignored with TargetDays.
	WithinPct float64
	// BudgetUSD asks for the fastest design costing at most this much
	// (0: no budget).
	BudgetUSD float64
	// WithFailures ranks designs by the JCT counting expected failures
	// (Resilience.Goodput.JCTDays: interruptions, restarts, checkpoints
	// and survivable slowdowns) instead of the failure-free JCT, so a
	// design that survives more failures can win.
	WithFailures bool
	// Workers evaluating designs; 0 uses every CPU.
	Workers int
	// Progress, if set, is called from worker goroutines with designs done
	// and the total.
	Progress func(done, total int)
}

// Design is one evaluated fabric design.
type Design struct {
	Label    string
	Short    string // a short name for chart labels: "IB 200G ×8, qm9700, 1 tier"
	Scenario planner.Scenario
	Plan     *planner.Plan
	CostUSD  float64
	PowerW   float64
	Days     float64 // JCT for the workload's token budget (counting failures with SearchOptions.WithFailures)
	StepS    float64
	OnFront  bool // on the Pareto front of cost against JCT
	// ProbCheaper is the probability, over price draws within every
	// part's range, that this design costs less than the search's pick
	// (0.5 for the pick itself); CostVsPick names it: cheaper, dearer or
	// tie (CostVerdict).
	ProbCheaper float64
	CostVsPick  string
	// Priced says how the figures were priced: PricedFlat, PricedHall,
	// PricedCounted (laid out, its links counted: within 0.5% of what
	// Build of Scenario, which walks them, gives) or PricedBound (not
	// laid out: CostUSD is a lower bound).
	Priced string
	// TokensPerDollar is an inference scenario's output tokens per US$
	// of the whole cluster (the plan's serving estimate; 0 for training);
	// SLOMiss names the TPOT and TTFT targets it misses ("": none).
	TokensPerDollar float64
	SLOMiss         string
	// Reason says why the search tried the design's shape where it is
	// one of the published shapes beyond the styles (searchshapes.go):
	// chassis spines, a collapsed core, leaf pairs, zones joined by a
	// reduced core; "" for the others.
	Reason string

	// searched is the candidate as the search built it, memo the
	// workload's figures, to lay it out later; boundDays bounds its JCT
	// from below (the failure-free JCT when ranking with failures).
	searched    planner.Scenario
	memo        *perf.WorkloadMemo
	boundDays   float64
	boundUSD    float64 // its cost's lower bound in the hall
	boundLowUSD float64 // that bound on low prices
	tight       bool    // bounded with the design's racks placed
}

// SearchResult is every design the catalog can build for the scenario's
// GPU count and workload, with the Pareto front and the picks.
type SearchResult struct {
	Designs []*Design // sorted by cost, then JCT
	Front   []*Design // non-dominated designs, cheapest first
	// Cheapest is the cheapest design meeting the target (nil without a
	// target, or when none meets it).
	Cheapest *Design
	// FastestInBudget is the fastest design within the budget (nil without
	// a budget, or when none fits it).
	FastestInBudget *Design
	Fastest         *Design
	Target          float64 // the JCT target in days (0: none)
	Budget          float64 // the budget in US$ (0: none)
	Evaluated       int     // designs tried, buildable or not
	// LaidOut counts the designs laid out in the hall (0 when the
	// scenario prices flat); the others keep a lower bound.
	LaidOut int
	// Undecided counts the designs left at their bound although it
	// could still reach the front: the hall walk's budget ran out
	// (hallLayoutLinks). With none, the front is exact.
	Undecided int
	tiesLaid  int
	Elapsed   time.Duration
	// Message explains an unmet target or budget, naming the closest design.
	Message string
	// Ranked is an inference scenario's designs by output tokens per
	// US$ at its SLO: those meeting the TPOT and TTFT targets first, then
	// those missing one (Design.SLOMiss), each by tokens per dollar, most
	// first. Nil for a training scenario.
	Ranked []*Design
}

// ErrNoDesigns is returned when the catalog can build nothing for the
// scenario.
var ErrNoDesigns = errors.New("no design in the catalog fits")

// candidates enumerates the scenarios a search evaluates: fabric, NIC
// speed, port split, planes, switch, oversubscription, tiers, the
// design styles and the published shapes (styleVariants; those a hall
// bound holds for where base is laid out in the hall). They are counted
// first, so that the list is allocated once: some 4,000 scenarios at
// 100,000 GPUs, a quarter of a search's allocations when it grew.
func candidates(base planner.Scenario, cat *planner.Catalog) []planner.Scenario {
	hall := base.LaysHall(cat)
	n := 0
	var one []planner.Scenario // one candidate's variants, to count them
	eachCandidate(base, cat, func(s planner.Scenario, chassis []*planner.Switch) {
		one = appendStyleVariants(one[:0], s, chassis, hall)
		n += len(one)
	})
	out := make([]planner.Scenario, 0, n)
	eachCandidate(base, cat, func(s planner.Scenario, chassis []*planner.Switch) {
		out = appendStyleVariants(out, s, chassis, hall)
	})
	return out
}

// eachCandidate calls emit with each fabric, NIC speed, port split,
// planes, switch, oversubscription and tiers a search tries, in order,
// and the chassis it tries as their spines (chassisSpines).
func eachCandidate(base planner.Scenario, cat *planner.Catalog, emit func(s planner.Scenario, chassis []*planner.Switch)) {
	gps := base.Cluster.GPUsPerServer
	for _, fabric := range []planner.Fabric{planner.InfiniBand, planner.Ethernet} {
		for _, speed := range cat.NICSpeeds(fabric) {
			var splits []int
			for _, nic := range cat.NICs {
				if nic.Gbps == speed {
					for _, sp := range nic.PortSplits(fabric) {
						if !slices.Contains(splits, sp) {
							splits = append(splits, sp)
						}
					}
				}
			}
			sort.Ints(splits)
			for _, split := range splits {
				port := speed / split
				nics := base.Network.NICsPerServer
				if nics == 0 {
					nics = gps
				}
				serverPorts := nics * split
				chassis := chassisSpines(cat, fabric, cmp.Or(base.Network.UplinkGbps, port))
				for planes := 1; planes <= min(serverPorts, planner.MaxPlanes); planes++ {
					if serverPorts%planes != 0 {
						continue
					}
					for _, sw := range cat.AutoSwitches(fabric, port) {
						for _, ratio := range planner.RatioChoices {
							for tiers := 0; tiers <= planner.MaxTiers; tiers++ {
								s := base
								n := &s.Network
								n.Fabric, n.NICGbps, n.NIC, n.PortsPerNIC, n.Planes = fabric, speed, planner.Auto, split, planes
								n.Switch, n.Oversubscription, n.Tiers = sw.Key, ratio, tiers
								emit(s, chassis)
							}
						}
					}
				}
			}
		}
	}
}

// Search sizes, costs, powers and times every design the catalog allows
// for base's GPU count and workload, on all cores, and keeps the Pareto
// front of cost against JCT. It stops early when ctx is cancelled.
func Search(ctx context.Context, base planner.Scenario, cat *planner.Catalog, opt SearchOptions) (*SearchResult, error) {
	start := time.Now()
	base = base.Clone() // the caller may edit its scenario while we search
	if err := base.Validate(cat); err != nil {
		return nil, err
	}
	cands := candidates(base, cat)
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	// A scenario laid out in the hall prices its designs there; each is
	// first bounded (see layOutDesigns).
	hall := base.LaysHall(cat)
	designs, err := evaluateAll(ctx, cands, cat, opt, workers, hall)
	if err != nil {
		return nil, err
	}
	res := &SearchResult{Evaluated: len(cands)}
	seen := map[string]bool{}
	for _, d := range designs {
		if d == nil || !finite(d.Days) || !finite(d.CostUSD) {
			continue
		}
		// Forcing more tiers than needed can give the very same fabric as
		// "fewest that fit"; keep one of each.
		key := fmt.Sprintf("%s|%d|%.2f|%.6g", d.Label, d.Plan.Tiers, d.CostUSD, d.Days)
		if seen[key] {
			continue
		}
		seen[key] = true
		res.Designs = append(res.Designs, d)
	}
	budget := hallLayoutLinks
	if hall && len(res.Designs) > 0 {
		if err := res.layOut(ctx, cat, opt, workers, &budget); err != nil {
			return nil, err
		}
	}
	if len(res.Designs) == 0 {
		if base.Workload != nil {
			p, err := planner.Build(base, cat)
			if err != nil {
				return nil, err
			}
			if j := p.JCT; j != nil && !j.FitsMemory() {
				return nil, fmt.Errorf("%w: %s", perf.ErrNoMemory, j.MemoryFinding())
			}
		}
		return nil, fmt.Errorf("%w: no buildable design for %s GPUs has a JCT estimate (does the workload fit the cluster?)", ErrNoDesigns, textfmt.Int(base.Cluster.GPUs))
	}
	sort.SliceStable(res.Designs, func(i, j int) bool {
		a, b := res.Designs[i], res.Designs[j]
		if a.CostUSD != b.CostUSD {
			return a.CostUSD < b.CostUSD
		}
		return a.Days < b.Days
	})
	res.Front = paretoFront(res.Designs) // not empty: every design has finite days, the cheapest is priced
	res.Fastest = res.Front[len(res.Front)-1]
	res.pick(opt)
	if hall {
		if err := res.layOutTies(ctx, cat, opt, workers, &budget); err != nil {
			return nil, err
		}
	}
	res.compareCosts()
	res.rankServing()
	res.Elapsed = time.Since(start)
	return res, nil
}

// evaluateAll evaluates the candidates on that many goroutines, priced
// at one length per tier and, with hall, bounded in the hall.
func evaluateAll(ctx context.Context, cands []planner.Scenario, cat *planner.Catalog, opt SearchOptions, goroutines int, hall bool) ([]*Design, error) {
	designs := make([]*Design, len(cands))
	var next, done atomic.Int64
	g := workers.NewGroup(0)
	memo := new(perf.WorkloadMemo) // the workload's own figures, once for every design
	for range goroutines {
		g.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(cands) || ctx.Err() != nil {
					return
				}
				designs[i] = evaluate(cands[i], cat, opt.WithFailures, memo, PricedFlat)
				if d := designs[i]; d != nil && hall {
					d.bound(cat)
				}
				if n := int(done.Add(1)); opt.Progress != nil {
					opt.Progress(n, len(cands))
				}
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search cancelled: %w", err)
	}
	return designs, nil
}

// evaluate plans one candidate; nil when the catalog cannot build it, it
// has no JCT estimate, or (withFailures) it cannot finish for failures.
// how says how to price it: PricedFlat, with each tier's links at one
// length (FlatLinks: the hall's per-link walk for every candidate would
// cost more than the whole search); PricedHall, as Build plans it;
// PricedCounted, laid out as Build lays it out with its links counted
// (CountedLinks: a fabric of more upper links than the planner walks is
// counted, within 0.5% of the walk, and says so; a smaller one is
// walked, as Build walks it). memo keeps what depends on the workload
// alone across the designs.
func evaluate(s planner.Scenario, cat *planner.Catalog, withFailures bool, memo *perf.WorkloadMemo, how string) *Design {
	in, priced := s, PricedHall
	switch {
	case how == PricedFlat || !s.LaysHall(cat):
		in, priced = s.FlatLinks(), PricedFlat
	case how == PricedCounted:
		in = s.CountedLinks()
	}
	p, err := planner.BuildWith(in, cat, planner.BuildOptions{Resilience: withFailures, JCT: perf.Parts{Memo: memo}})
	if err != nil || p.JCT == nil || !p.JCT.FitsMemory() {
		return nil
	}
	switch {
	case priced == PricedHall && p.Hall == nil:
		priced = PricedFlat // the default hall cannot be cabled: Build plans it flat
	case priced == PricedHall && p.LinksCounted():
		priced = PricedCounted
	}
	days := p.JCT.Planned.Days
	if withFailures {
		if p.Resilience == nil || math.IsInf(p.Resilience.Goodput.JCTDays, 1) {
			return nil
		}
		days = p.Resilience.Goodput.JCTDays
	}
	// The design loads as a scenario laid out like the one searched.
	label, short, reason := designLabels(p)
	return &Design{Label: label, Short: short, Scenario: p.Scenario.LaidOutAs(s), Plan: p.FiguresOnly(), CostUSD: p.Cost.Total, PowerW: p.Power.Total,
		Days: days, StepS: p.JCT.Planned.StepS, Priced: priced, Reason: reason, searched: s, memo: memo, boundDays: p.JCT.Planned.Days}
}

// designLabels names a design (label: fabric, NIC, split, planes,
// switch, ratio, and the style, spine ratio and published shape where
// they are not the default), gives its short name (shortDesignLabel)
// and why the search tried its shape (designShape), working out its
// shape and switches once for the three.
func designLabels(p *planner.Plan) (label, short, reason string) {
	shape, reason := designShape(p)
	switches, style := p.SwitchesText(), styleLabel(p.Scenario.Network)
	tail := style + shapeSuffix(shape)
	return baseLabel(p, switches) + tail, shortDesignLabel(p, switches) + tail, reason
}

// baseLabel is a design's label without the style and shape, switches
// the plan's SwitchesText.
func baseLabel(p *planner.Plan, switches string) string {
	n := p.Scenario.Network
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", n.Fabric.Short(), gbpsName(n.NICGbps))
	if n.PortsPerNIC > 1 {
		fmt.Fprintf(&b, " as %dx%s", n.PortsPerNIC, gbpsName(p.PortGbps))
	}
	if n.Planes > 1 {
		fmt.Fprintf(&b, ", %d planes", n.Planes)
	}
	fmt.Fprintf(&b, ", %s, %s, %d tier", switches, n.Oversubscription, p.Tiers)
	if p.Tiers > 1 {
		b.WriteString("s")
	}
	return b.String()
}

// shortDesignLabel names a design in a few words for a chart label:
// fabric and NIC speed, planes (×N), switch, tiers, and the leaf ratio
// when it is not 1:1 (designLabels adds the style and shape); switches
// is the plan's SwitchesText.
func shortDesignLabel(p *planner.Plan, switches string) string {
	n := p.Scenario.Network
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", n.Fabric.Short(), gbpsName(n.NICGbps))
	if n.Planes > 1 {
		fmt.Fprintf(&b, " ×%d", n.Planes)
	}
	fmt.Fprintf(&b, ", %s, %s", switches, textfmt.Plural(p.Tiers, "tier"))
	if n.Oversubscription != "1:1" {
		fmt.Fprintf(&b, ", %s", n.Oversubscription)
	}
	return b.String()
}

func gbpsName(g int) string {
	if g >= 1000 && g%100 == 0 {
		return fmt.Sprintf("%gT", float64(g)/1000)
	}
	return fmt.Sprintf("%dG", g)
}

// paretoFront returns the designs no other design beats on both cost and
// JCT, from designs sorted by cost then JCT; it marks them OnFront.
// Designs left at a lower bound are never on it (a laid-out design
// beats each).
func paretoFront(sorted []*Design) []*Design {
	var front []*Design
	best := math.Inf(1)
	for _, d := range sorted {
		if d.Priced != PricedBound && d.Days < best {
			best = d.Days
			d.OnFront = true
			front = append(front, d)
		}
	}
	return front
}

// Pick is the design the search recommends: the cheapest meeting the
// target, else the fastest in budget, else the cheapest of all (the
// front's first).
func (r *SearchResult) Pick() *Design {
	switch {
	case r.Cheapest != nil:
		return r.Cheapest
	case r.FastestInBudget != nil:
		return r.FastestInBudget
	case len(r.Front) > 0:
		return r.Front[0]
	}
	return nil
}

// compareCosts sets every design's probability of costing less than the
// pick, with shared seeded price draws (see CompareCost).
func (r *SearchResult) compareCosts() {
	pick := r.Pick()
	if pick == nil {
		return
	}
	draws := pricedraw.New(pricedraw.N)
	ref := draws.Costs(pick.Plan.PriceLines(), nil)
	var buf []float64
	for _, d := range r.Designs {
		if d.Priced == PricedBound {
			// Dearer in every draw when its cost on low prices is above
			// the pick's on high prices; else not compared (layOutTies
			// lays out what its budget allows).
			d.ProbCheaper, d.CostVsPick = 0, ""
			if d.boundLowUSD > pick.Plan.Cost.HighUSD {
				d.CostVsPick = pricedraw.VerdictDearer
			}
			continue
		}
		buf = draws.Costs(d.Plan.PriceLines(), buf)
		d.ProbCheaper = pricedraw.ProbCheaper(buf, ref)
		d.CostVsPick = pricedraw.Verdict(d.ProbCheaper)
	}
}

// Ties lists the designs whose cost is a tie with the pick's (the
// difference lies inside the prices' uncertainty), cheapest first,
// without the pick.
func (r *SearchResult) Ties() []*Design {
	var out []*Design
	for _, d := range r.Designs {
		if d != r.Pick() && d.CostVsPick == pricedraw.VerdictTie {
			out = append(out, d)
		}
	}
	return out
}

// pick marks the cheapest design meeting the target and the fastest
// within the budget, and explains when there is none.
func (r *SearchResult) pick(opt SearchOptions) {
	var msgs []string
	switch {
	case opt.TargetDays > 0:
		r.Target = opt.TargetDays
	case opt.WithinPct > 0:
		r.Target = r.Fastest.Days * (1 + opt.WithinPct/100)
	}
	if opt.BudgetUSD > 0 {
		r.Budget = opt.BudgetUSD
	}
	// The message is written in the units the result's views use.
	unit, usd := r.TimeUnit(), r.MoneyScale()
	if r.Target > 0 {
		for _, d := range r.Front { // cheapest first: the first that meets it
			if d.Days <= r.Target {
				r.Cheapest = d
				break
			}
		}
		if r.Cheapest == nil {
			msgs = append(msgs, fmt.Sprintf("no design finishes within %s; the fastest, %s, takes %s for %s",
				unit.Format(r.Target), r.Fastest.Label, unit.Format(r.Fastest.Days), usd.Format(r.Fastest.CostUSD)))
		}
	}
	if opt.BudgetUSD > 0 {
		for _, d := range r.Front {
			if d.CostUSD <= opt.BudgetUSD {
				r.FastestInBudget = d // the front gets faster as it gets dearer
			}
		}
		if r.FastestInBudget == nil {
			cheapest := r.Front[0]
			msgs = append(msgs, fmt.Sprintf("no design costs %s or less; the cheapest, %s, costs %s",
				textfmt.USD(opt.BudgetUSD), cheapest.Label, usd.Format(cheapest.CostUSD))) // the budget as asked, however small
		}
	}
	r.Message = strings.Join(msgs, "; ")
}

// TimeUnit is the unit a search's times are written in, everywhere they
// are shown: chosen from its target and the times on its Pareto front.
func (r *SearchResult) TimeUnit() textfmt.DurationUnit {
	days := []float64{r.Target}
	for _, d := range r.Front {
		days = append(days, d.Days)
	}
	return textfmt.DurationUnitFor(days...)
}

// MoneyScale is the scale a search's costs are written in, everywhere
// they are shown (status line, table, chart): chosen from every design's
// cost and the budget.
func (r *SearchResult) MoneyScale() textfmt.MoneyScale {
	usd := []float64{r.Budget}
	for _, d := range r.Designs {
		usd = append(usd, d.CostUSD)
	}
	return textfmt.MoneyScaleFor(usd...)
}

// styleVariants is a search candidate as given (rail-optimized, the
// planner's default) and, for a non-blocking single-plane leaf, in the
// other styles and shapes worth comparing: with the fewest tiers,
// top-of-rack, rail-only and the published shapes on chassis, the
// spines of the fabric's port speed (appendShapeVariants; fewer where the
// search is priced in the hall); with three tiers,
// zones joined by spines oversubscribed zoneCoreRatio. Dual-plane is
// the rail-optimized candidate with two ports per NIC over two planes,
// which the search already tries. The variants are kept few so that a
// 100k-GPU search stays under a second.
func styleVariants(s planner.Scenario, chassis []*planner.Switch, hall bool) []planner.Scenario {
	return appendStyleVariants(nil, s, chassis, hall)
}

// appendStyleVariants is out with s's styleVariants appended.
func appendStyleVariants(out []planner.Scenario, s planner.Scenario, chassis []*planner.Switch, hall bool) []planner.Scenario {
	out = append(out, s)
	n := s.Network
	if n.Oversubscription != "1:1" || n.Planes != 1 {
		return out
	}
	switch n.Tiers {
	case 0:
		for _, style := range []string{planner.TopoToR, planner.TopoRailOnly} {
			v := s
			v.Network.Topology = style
			out = append(out, v)
		}
		out = appendShapeVariants(out, s, chassis, hall)
	case 3:
		v := s
		v.Network.SpineOversubscription = zoneCoreRatio
		out = append(out, v)
	}
	return out
}

// styleLabel names what a design changes from the default style: "" for
// rail-optimized with non-blocking spines.
func styleLabel(n planner.Network) string {
	out := ""
	if st := n.Style(); st != planner.TopoRailOptimized {
		out += ", " + st
	}
	if r := n.SpineRatio(); r != "1:1" {
		out += ", spines " + r
	}
	return out
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
