package explore

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// MaxSweepPoints caps the sizes one sweep evaluates.
const MaxSweepPoints = 10_000

// SweepRow is one GPU count of a sweep: its plan, or why it has none.
type SweepRow struct {
	GPUs int
	Plan *planner.Plan
	Err  error
	// priced is how the row's links were priced (Priced), kept as the
	// plan was built: a row keeps its plan's figures, not its hall
	// (planner.Plan.FiguresOnly).
	priced string
}

// Sweep plans base at every GPU count in gpus. Sizes that fail keep their
// error in the row; the sweep itself never fails. A row's plan holds what
// sweeps show: the back end with its cost and power, the job time with
// its memory fix and the failure what-if; it leaves out the networks
// beside the back end (Plan.Networks is nil), the packed alternative,
// the cost's sanity bands and drivers (Plan.SanityBands, Cost.Drivers)
// and the job's breakdown by fabric effect and its findings.
// Its links are priced as SweepOptions.Pricing says: by default in the
// data hall, the scenario's own size as plan prices it, the others by
// counting their links (within 0.5% of plan's price).
func Sweep(base planner.Scenario, cat *planner.Catalog, gpus []int) []SweepRow {
	return SweepWith(base, cat, gpus, SweepOptions{Failures: true})
}

// SweepOptions says what a sweep's plans hold beyond the back end with
// its cost and power and the job time with its memory fix.
type SweepOptions struct {
	// Failures runs each size's failure what-if and goodput
	// (Plan.Resilience, with the checkpoint write time the storage
	// network allows), as the goodput chart reads them. Without it
	// Plan.Resilience is nil: the sweep's rows never read it.
	Failures bool
	// Pricing is how the sizes' links are priced: PricingAuto (empty)
	// lays every size out in the data hall, the scenario's own size
	// priced as plan prices it (every link walked), the others by
	// counting (planner.Scenario.CountedLinks: the server links exactly,
	// the upper tiers' by rack-pair class, within 0.5% of the walk);
	// PricingCounted counts every size, PricingHall walks every size
	// (slow: about 50 s of CPU for 1,000 sizes to 1M GPUs), PricingFlat
	// lays none out. A scenario that lays out no hall (layout = "flat",
	// lengths given) is priced as its plan is either way.
	Pricing string
	// Known is base's plan at its own size, if the caller has it (built
	// with at least these options): the row of that size takes it,
	// unless the sweep is priced flat.
	Known *planner.Plan
}

// How a sweep prices its sizes' links (SweepOptions.Pricing).
const (
	PricingAuto    = ""
	PricingHall    = "hall"
	PricingCounted = "counted"
	PricingFlat    = "flat"
)

// PricedCounted is how a row whose links were counted, not walked, says
// it was priced (in CSV and JSON beside PricedHall and PricedFlat).
const PricedCounted = "hall, counted (approx.)"

// ParsePricing reads a sweep's --pricing: auto, hall, counted or flat.
func ParsePricing(s string) (string, error) {
	switch strings.TrimSpace(s) {
	case "auto", "":
		return PricingAuto, nil
	case PricingHall:
		return PricingHall, nil
	case PricingCounted:
		return PricingCounted, nil
	case PricingFlat:
		return PricingFlat, nil
	}
	return "", fmt.Errorf("pricing %q: write auto, hall, counted or flat", s)
}

// SweepWith is Sweep computing only what o asks for beyond every row's
// figures.
func SweepWith(base planner.Scenario, cat *planner.Catalog, gpus []int, o SweepOptions) []SweepRow {
	rows := make([]SweepRow, len(gpus))
	n := o.build()
	n.JCT.Memo = new(perf.WorkloadMemo) // the workload's own figures, once for every size
	n.Check = planner.GPUCountCheck(base.FlatLinks(), cat)
	laid := o.Pricing != PricingFlat && base.LaysHall(cat)
	for i, g := range gpus {
		if k := o.Known; laid && k != nil && k.Scenario.Cluster.GPUs == g {
			rows[i] = SweepRow{GPUs: g, Plan: k}
			continue
		}
		s := base
		s.Cluster.GPUs = g
		switch {
		case !laid:
			s = s.FlatLinks()
		case o.Pricing == PricingCounted || o.Pricing == PricingAuto && g != base.Cluster.GPUs:
			s = s.CountedLinks()
		}
		p, err := planner.BuildWith(s, cat, n)
		rows[i] = SweepRow{GPUs: g, Err: err}
		if p != nil {
			rows[i].Plan, rows[i].priced = p.FiguresOnly(), linksPriced(p)
		}
	}
	return rows
}

// Priced is how row r's links were priced: PricedHall (walked in the
// data hall), PricedCounted or PricedFlat; empty without a plan.
func (r SweepRow) Priced() string {
	switch {
	case r.Plan == nil:
		return ""
	case r.priced != "":
		return r.priced
	}
	return linksPriced(r.Plan)
}

// linksPriced is how p's links were priced: PricedCounted, PricedHall
// (walked in the data hall) or PricedFlat (one length per tier, or a
// default hall that cannot be cabled, as Build then plans it).
func linksPriced(p *planner.Plan) string {
	switch {
	case p.LinksCounted():
		return PricedCounted
	case p.Hall != nil:
		return PricedHall
	}
	return PricedFlat
}

// build is what a sweep's builds ask for: what its rows read (the
// memory fix they name) and, with Failures, the failure what-if the
// goodput chart reads.
func (o SweepOptions) build() planner.BuildOptions {
	return planner.BuildOptions{Resilience: o.Failures, JCT: perf.Parts{Fix: true}}
}

// PricedCountedRows counts the sweep's planned sizes whose links were
// priced in the hall by counting (an approximation of plan's price).
func PricedCountedRows(rows []SweepRow) int { return pricedRows(rows, PricedCounted) }

// PricedFlatRows counts the sweep's planned sizes whose links were
// priced at one length per tier, not laid out in the hall.
func PricedFlatRows(rows []SweepRow) int { return pricedRows(rows, PricedFlat) }

// pricedRows counts the rows priced as priced.
func pricedRows(rows []SweepRow, priced string) int {
	n := 0
	for _, r := range rows {
		if r.Priced() == priced {
			n++
		}
	}
	return n
}

// SkippedForMemory counts the sweep's sizes at which the workload does
// not fit in the GPUs' memory (their plan's JCT says so and names the
// cheapest fix).
func SkippedForMemory(rows []SweepRow) int {
	n := 0
	for _, r := range rows {
		if r.Plan != nil && r.Plan.JCT != nil && !r.Plan.JCT.FitsMemory() {
			n++
		}
	}
	return n
}

// ParseGPUList reads a sweep's GPU counts: "A:B" doubles from A up to B
// (B included when reached, and always the last point), "A:B:N" takes N
// points spaced evenly on a log scale, and "a,b,c" lists counts.
func ParseGPUList(spec string) ([]int, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, fmt.Errorf("empty GPU list; write e.g. 256:131072 or 512,1024,4096")
	}
	if strings.Contains(spec, ":") {
		parts := strings.Split(spec, ":")
		if len(parts) > 3 {
			return nil, fmt.Errorf("%q: write FROM:TO or FROM:TO:POINTS", spec)
		}
		from, err := gpuCount(parts[0])
		if err != nil {
			return nil, err
		}
		to, err := gpuCount(parts[1])
		if err != nil {
			return nil, err
		}
		if to < from {
			return nil, fmt.Errorf("%q: the range ends below its start", spec)
		}
		if len(parts) == 3 {
			n, err := strconv.Atoi(strings.TrimSpace(parts[2]))
			if err != nil || n < 1 || n > MaxSweepPoints {
				return nil, fmt.Errorf("%q: POINTS must be 1 to %d", spec, MaxSweepPoints)
			}
			return logSpaced(from, to, n), nil
		}
		var out []int
		for g := from; g < to; g *= 2 {
			out = append(out, g)
		}
		return append(out, to), nil
	}
	var out []int
	for _, f := range strings.Split(spec, ",") {
		g, err := gpuCount(f)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
		if len(out) > MaxSweepPoints {
			return nil, fmt.Errorf("more than %d sizes", MaxSweepPoints)
		}
	}
	return out, nil
}

// gpuCount reads one size of a sweep list.
func gpuCount(s string) (int, error) {
	n, err := textfmt.ParseCount(s, planner.MaxGPUs)
	if err != nil {
		return 0, fmt.Errorf("GPU count: %w", err)
	}
	return n, nil
}

// logSpaced returns n distinct-or-equal counts from a to b on a log scale,
// rounded; duplicates from rounding are dropped.
func logSpaced(a, b, n int) []int {
	if n == 1 || a == b {
		return []int{a}
	}
	out := make([]int, 0, n)
	ratio := float64(b) / float64(a)
	for i := 0; i < n; i++ {
		g := int(float64(a)*math.Pow(ratio, float64(i)/float64(n-1)) + 0.5)
		if len(out) == 0 || g > out[len(out)-1] {
			out = append(out, g)
		}
	}
	out[len(out)-1] = b
	return out
}

// ScaleSizes are the GPU counts of a scale chart around a cluster of gpus:
// log-spaced from 64 to four times gpus (at least 131,072, at most the
// input limit), so tier changes on either side show, and gpus itself,
// so that the chart's curve passes through the plan.
func ScaleSizes(gpus int) []int {
	hi := min(max(4*gpus, 131072), planner.MaxGPUs)
	sizes := logSpaced(64, hi, 56)
	if i, found := slices.BinarySearch(sizes, gpus); !found && gpus > 64 && gpus < hi {
		sizes = slices.Insert(sizes, i, gpus)
	}
	return sizes
}

// TierStep is a cluster size at which the fabric changes: from GPUs on
// (up to the next step) it needs Tiers tiers, or, with Tiers 0, it no
// longer plans.
type TierStep struct {
	GPUs  int
	Tiers int
	// TooLarge says why a step with Tiers 0 no longer plans: the fabric
	// needs more than three tiers (else another input's limit).
	TooLarge bool
}

// withGPUs is s at gpus GPUs.
func withGPUs(s planner.Scenario, gpus int) planner.Scenario {
	s.Cluster.GPUs = gpus
	return s
}

// TierSteps finds the exact GPU counts at which base's fabric changes tier
// count within a sweep of it: between two sizes of the sweep that differ,
// the smallest size that differs from the smaller one is found by
// bisection. A chart marks these, not the sweep's first sample past them.
func TierSteps(base planner.Scenario, cat *planner.Catalog, rows []SweepRow) []TierStep {
	tiersErr := func(g int) (int, error) {
		// Built as the sweep's rows are (links at one length): the tier
		// count never depends on the hall, and laying one out for each
		// bisection step cost most of a scale chart at 100k GPUs.
		p, err := planner.BuildWith(withGPUs(base.FlatLinks(), g), cat, planner.BuildOptions{}) // only the tier count is read
		if err != nil {
			return 0, err
		}
		return p.Tiers, nil
	}
	tiers := func(g int) int {
		t, _ := tiersErr(g)
		return t
	}
	of := func(r SweepRow) int {
		if r.Err != nil || r.Plan == nil {
			return 0
		}
		return r.Plan.Tiers
	}
	var steps []TierStep
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		ta, tb := of(a), of(b)
		if ta == tb || ta == 0 {
			continue
		}
		lo, hi := a.GPUs, b.GPUs // tiers(lo) == ta, tiers(hi) != ta
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if tiers(mid) == ta {
				lo = mid
			} else {
				hi = mid
			}
		}
		t, err := tiersErr(hi)
		steps = append(steps, TierStep{GPUs: hi, Tiers: t, TooLarge: errors.Is(err, planner.ErrTooLarge)})
	}
	return steps
}
