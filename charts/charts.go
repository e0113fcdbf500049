package charts

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/market"
	"fabricplan/planner/phases"
	"fabricplan/planner/serve"
)

// Input is everything a chart may draw from. Builders use what they need
// and say what is missing.
type Input struct {
	Plan     *planner.Plan
	Variants []planner.Variant // plans side by side (first: this plan); empty: Plan alone
	Sweep    []explore.SweepRow
	// TierSteps are the exact sizes where the swept fabric changes tiers
	// (explore.TierSteps); the scale chart marks them.
	TierSteps []explore.TierStep
	Market    *market.Tables
	// MarketYear picks the year of the market's device split to compare
	// with the plan's NIC/switch spend; 0 takes DefaultMarketYear.
	MarketYear int
	// Search is a design search to draw (the search chart); SearchErr is
	// why there is none, when one was run and failed.
	Search    *explore.SearchResult
	SearchErr error
	// InWindow says the figure is drawn in the window: its footnotes
	// point the reader to the window's own table or button (the Designs
	// table, Export cable map…) instead of the CLI command that lists it.
	InWindow bool
	// Phases is a phased build-out planned two ways (the phases chart);
	// PhasesErr is why there is none, when the phases did not plan.
	Phases    *phases.PhasedPlan
	PhasesErr error
	// Styles is the cluster built in every design style (the styles
	// chart).
	Styles *explore.StyleComparison
	// Serving is an inference scenario planned across its fabric choices
	// (explore.ServingVariants, first: this plan; the tokens chart).
	Serving []planner.Variant
	// Focus is what the topology diagram draws expanded.
	Focus Focus
	// Tier is the link tier whose runs the floor plan draws over the
	// racks ("leaf-spine" or "leaf_spine"; empty: none).
	Tier string
	// Rack is the floor plan's selected rack by name ("R3-07"; empty:
	// none): drawn outlined, with lines to the racks its links reach.
	// RackEnds are those links when the caller has worked them out
	// (planner.Plan.RackEnds, a walk of every link); nil: the chart
	// works them out.
	Rack     string
	RackEnds []planner.RackEnd
	// Generated is the time the report says it was made; zero is now.
	// Tests set it, so the same plan always draws the same pages.
	Generated time.Time
}

// where names where the reader finds more: the window's control when
// the figure is drawn there, else the CLI command.
func (in Input) where(window, cli string) string {
	if in.InWindow {
		return window
	}
	return cli
}

// generated is the report's time stamp.
func (in Input) generated() time.Time {
	if in.Generated.IsZero() {
		return time.Now()
	}
	return in.Generated
}

// DefaultMarketYear is the market year compared when none is chosen.
const DefaultMarketYear = 2025

// Chart is one named chart builder.
type Chart struct {
	Name  string
	Title string
	Build func(Input) (*Figure, error)
}

// All lists every chart, in the order the report and the app show them.
func All() []Chart {
	return []Chart{
		{"ports", "Back-end ports by tier and per server", Ports},
		{"networks", "The whole cluster: ports per server and cost by network, with and without the back end", Networks},
		{"cost", "Fabric cost by component, total and per GPU", Cost},
		{"power", "Fabric power by component", Power},
		{"scale", "Switches and cost per GPU against cluster size", Scale},
		{"jct", "Training step time and JCT gain", JCT},
		{"market", "RDMA market (650 Group) with this plan", MarketChart},
		{"search", "Design search: cost against job time", SearchChart},
		{"styles", "Design styles side by side: cost, power, switches and job time", StylesChart},
		{"tokens", "Inference: output tokens/s per dollar across fabric choices", TokensChart},
		{"sensitivity", "Cost sensitivity: total cost as each price moves across its range", Tornado},
		{"resilience", "Failure what-if: slowdown per failure, goodput and interruptions", Resilience},
		{"topology", "Topology: planes, pods, scalable units and switch layers with link bundles", Topology},
		{"phases", "Phased build-out: spend against GPUs online, and links re-cabled, for both strategies", Phases},
		{"floorplan", "Data hall floor plan: racks by kind and power", FloorPlan},
		{"racks", "Rack elevations: a compute rack and a network rack", Racks},
		{"cablelengths", "Cable lengths by tier and medium", CableLengths},
	}
}

// ByName finds a chart.
func ByName(name string) (Chart, error) {
	for _, c := range All() {
		if c.Name == name {
			return c, nil
		}
	}
	var names []string
	for _, c := range All() {
		names = append(names, c.Name)
	}
	return Chart{}, fmt.Errorf("unknown chart %q: use one of %v", name, names)
}

// ErrMissingInput is wrapped by builders whose input lacks what they draw.
var ErrMissingInput = errors.New("chart input missing")

func (in Input) variants() []planner.Variant {
	if planned, _ := planner.Planned(in.Variants); len(planned) > 0 {
		return planned
	}
	if in.Plan != nil {
		return []planner.Variant{{Label: "This plan", Plan: in.Plan}}
	}
	return nil
}

// unplannedNote says which what-if variants are not drawn and why, for a
// chart's footnote ("" when all plan): a gap with a note, never a zero.
func (in Input) unplannedNote() string {
	_, failed := planner.Planned(in.Variants)
	if len(failed) == 0 {
		return ""
	}
	var parts []string
	for _, v := range failed {
		why := "no plan"
		if v.Err != nil {
			why = textfmt.Clip(firstClause(v.Err.Error()), 90)
		}
		parts = append(parts, v.Label+" ("+why+")")
	}
	return "\nNot drawn, they do not plan: " + strings.Join(parts, "; ") + "."
}

// firstClause is an error message up to its first colon-separated detail
// after the reason: "fabric needs more than three tiers: 131,072 ..." is
// cut to "fabric needs more than three tiers".
func firstClause(msg string) string {
	if i := strings.Index(msg, ": "); i > 0 {
		return msg[:i]
	}
	return msg
}

func needPlan(in Input, chart string) error {
	if in.Plan == nil {
		return fmt.Errorf("%w: the %s chart needs a plan", ErrMissingInput, chart)
	}
	return nil
}

// planTitle is the plan's name made safe to draw (no control characters,
// at most 120 characters), or its GPU count when it has none.
func planTitle(p *planner.Plan) string {
	name := textfmt.DisplayName(p.Scenario.Name)
	if name == "" {
		name = fmt.Sprintf("%s GPUs", textfmt.Int(p.GPUs))
	}
	return name
}

// Parts names the inputs a chart draws beyond the plan, each costly to
// compute (a sweep plans a dozen sizes, a search over a thousand designs).
type Parts uint8

// The parts of an Input.
const (
	PartVariants  Parts = 1 << iota // the plan's alternatives (cost, power and JCT charts)
	PartSweep                       // the scale sweep (scale and resilience charts)
	PartTierSteps                   // the sizes where the sweep changes tiers (scale chart; implies PartSweep)
	PartPhases                      // the phased build-out (phases chart)
	PartSearch                      // a design search within 5% of the fastest (search chart)
	PartStyles                      // the cluster in every design style (styles chart)
	PartServing                     // an inference scenario across its fabric choices (tokens chart)
)

// chartParts are the parts each chart draws; charts not named draw the
// plan alone.
var chartParts = map[string]Parts{
	"cost": PartVariants, "power": PartVariants, "jct": PartVariants,
	"scale": PartSweep | PartTierSteps, "resilience": PartSweep, "phases": PartPhases, "search": PartSearch,
	"styles": PartStyles, "tokens": PartServing,
}

// PartsOf is what the chart named name draws beyond the plan.
func PartsOf(name string) Parts { return chartParts[name] }

// AddParts computes the parts of in asked for, from scenario s (the
// plan's inputs). Every chart input is built here: the window's tabs,
// the exports and the report. A part that cannot be made is left out,
// with its reason kept where the chart reports it (SearchErr,
// PhasesErr); alternatives that do not plan leave the plan alone.
func (in *Input) AddParts(s planner.Scenario, cat *planner.Catalog, parts Parts) {
	if parts&PartVariants != 0 && in.Variants == nil {
		if vs, err := planner.Alternatives(s, cat); err == nil {
			in.Variants = vs
		}
	}
	if parts&(PartSweep|PartTierSteps) != 0 {
		in.Sweep = explore.SweepWith(s, cat, explore.ScaleSizes(s.Cluster.GPUs),
			explore.SweepOptions{Failures: true, Known: in.Plan})
	}
	if parts&PartTierSteps != 0 {
		in.TierSteps = explore.TierSteps(s, cat, in.Sweep)
	}
	if parts&PartPhases != 0 {
		in.Phases, in.PhasesErr = phases.PlanPhases(s, cat)
	}
	if parts&PartStyles != 0 && in.Styles == nil {
		in.Styles = explore.CompareStyles(s, cat)
	}
	if parts&PartServing != 0 && in.Serving == nil && s.Workload != nil && s.Workload.Kind == serve.KindInference {
		in.Serving, _ = explore.ServingVariants(s, cat) // nil when s does not plan: the chart draws the plan alone
	}
	if parts&PartSearch != 0 {
		in.Search, in.SearchErr = explore.Search(context.Background(), s, cat, explore.SearchOptions{WithinPct: 5})
	}
}

// NewInput plans s with its alternatives and adds the scale sweep, the
// phases and, withSearch, a design search: the input of every chart and
// of the report. It fails only when s does not plan.
func NewInput(s planner.Scenario, cat *planner.Catalog, m *market.Tables, year int, withSearch bool) (Input, error) {
	parts := PartVariants | PartSweep | PartTierSteps | PartPhases | PartStyles | PartServing
	if withSearch {
		parts |= PartSearch
	}
	return NewInputWith(s, cat, m, year, parts)
}

// NewInputWith plans s and adds only the parts asked for (a chart's:
// PartsOf), as the window builds a chart's input: a cost chart plans the
// alternatives and no sweep, a topology nothing beyond the plan. It
// fails only when s does not plan.
func NewInputWith(s planner.Scenario, cat *planner.Catalog, m *market.Tables, year int, parts Parts) (Input, error) {
	in := Input{Market: m, MarketYear: year}
	if parts&PartVariants != 0 {
		vs, err := planner.Alternatives(s, cat)
		if err != nil {
			return Input{}, err
		}
		in.Plan, in.Variants = vs[0].Plan, vs
	} else {
		p, err := planner.Build(s, cat)
		if err != nil {
			return Input{}, err
		}
		in.Plan = p
	}
	if parts&PartStyles != 0 {
		in.Styles = explore.CompareStylesWith(s, cat, in.Plan) // s's own style is in.Plan
	}
	in.AddParts(s, cat, parts)
	return in, nil
}
