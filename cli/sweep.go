package cli

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"text/tabwriter"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/pricedraw"
)

// sweepRow is one row of sweep, compare and jct output.
type sweepRow struct {
	Label         string  `json:"label"`
	GPUs          int     `json:"gpus"`
	Fabric        string  `json:"fabric,omitempty"`
	NICGbps       int     `json:"nic_gbps,omitempty"`
	Switch        string  `json:"switch,omitempty"`
	Servers       int     `json:"servers"`
	Tiers         int     `json:"tiers"`
	Leaf          int     `json:"leaf"`
	Spine         int     `json:"spine"`
	Core          int     `json:"core"`
	Switches      int     `json:"switches"`
	NICPorts      int     `json:"nic_ports"`
	Links         int     `json:"links"`
	Transceivers  int     `json:"transceivers"`
	CostUSD       float64 `json:"cost_usd"`
	CostPerGPU    float64 `json:"cost_per_gpu"`
	PowerW        float64 `json:"power_w"`
	StepS         float64 `json:"step_s,omitempty"`
	BaselineStepS float64 `json:"baseline_step_s,omitempty"`
	Gain          float64 `json:"gain,omitempty"`
	BusBWGBs      float64 `json:"busbw_gbs,omitempty"`
	JCTDays       float64 `json:"jct_days,omitempty"`
	GainVsFirst   float64 `json:"gain_vs_first,omitempty"`
	// ProbCheaperThanFirst is compare's probability, over shared price
	// draws, that this scenario's fabric costs less than the first's;
	// CostVsFirst names it: cheaper, dearer or tie.
	ProbCheaperThanFirst *float64 `json:"prob_cheaper_than_first,omitempty"`
	CostVsFirst          string   `json:"cost_vs_first,omitempty"`
	Error                string   `json:"error,omitempty"`
	// Memory is, for a job that does not fit in its GPUs' memory there,
	// the finding with the cheapest fix, or for a job whose parallelism
	// or batch does not fit these GPUs, why; the fabric is planned, the
	// job's times are left out (skipped).
	Memory string `json:"memory,omitempty"`
	// Priced is how the links were priced: "hall" (each link at its
	// data-hall run), "hall, counted (approx.)" (in the data hall, the
	// links counted by class: within 0.5% of plan's walk, as a sweep
	// prices every size but the scenario's own) or "flat" (each tier's
	// links at one length).
	Priced string `json:"priced,omitempty"`
}

func rowOf(label string, sr explore.SweepRow) sweepRow {
	p, err := sr.Plan, sr.Err
	r := sweepRow{Label: label, GPUs: sr.GPUs}
	if err != nil {
		r.Error = planner.RowError(err) // the short form: every fix that fits by sizing, unpriced
		return r
	}
	r.Fabric = string(p.Scenario.Network.Fabric)
	r.NICGbps = p.Scenario.Network.NICGbps
	r.Priced = sr.Priced()
	r.Switch = p.SwitchesText()
	r.Servers, r.Tiers = p.Servers, p.Tiers
	r.Leaf, r.Spine, r.Core = p.Switches(planner.TierLeaf), p.Switches(planner.TierSpine), p.Switches(planner.TierCore)
	r.Switches, r.NICPorts, r.Links = p.TotalSwitches(), p.NICPorts, p.Links.Total
	r.Transceivers = p.ServerTransceivers + p.SwitchTransceivers
	r.CostUSD, r.CostPerGPU, r.PowerW = p.Cost.Total, p.Cost.PerGPU, p.Power.Total
	if p.NoJCT != nil {
		r.Memory = p.NoJCT.Error() // the job cannot run on these GPUs; the fabric stands
	} else if j := p.JCT; j != nil && !j.FitsMemory() {
		// The fabric stands; the job's times are skipped, with why and
		// the cheapest change that fits.
		r.Memory = j.MemoryFinding()
	} else if j != nil {
		r.StepS, r.BaselineStepS, r.Gain = j.Planned.StepS, j.Baseline.StepS, j.Gain
		r.BusBWGBs, r.JCTDays = j.Planned.BusBWGBs, j.Planned.Days
	}
	return r
}

// rowFormat picks text, CSV or JSON output.
type rowFormat struct{ csv, json *bool }

func (f rowFormat) check() error {
	if *f.csv && *f.json {
		return usagef("choose --csv or --json, not both")
	}
	return nil
}

func (f rowFormat) write(w io.Writer, rows []sweepRow) error {
	switch {
	case *f.json:
		return writeJSON(w, rows)
	case *f.csv:
		return writeRowsCSV(w, rows)
	}
	return writeRowsText(w, rows)
}

var csvHeader = []string{"label", "gpus", "fabric", "nic_gbps", "switch", "servers", "tiers", "leaf", "spine", "core", "switches",
	"nic_ports", "links", "transceivers", "cost_usd", "cost_per_gpu_usd", "power_w", "step_s", "baseline_step_s", "gain",
	"busbw_gbs", "jct_days", "error", "memory", "priced"}

// writeRowsCSV writes plain numbers (no separators or units) so a
// spreadsheet reads them as numbers.
func writeRowsCSV(w io.Writer, rows []sweepRow) error {
	cw := csv.NewWriter(w)
	vsFirst := len(rows) > 0 && rows[0].CostVsFirst != ""
	header := csvHeader
	if vsFirst { // compare: how sure each cost difference is
		header = append(header[:len(header)-3:len(header)-3], "prob_cheaper_than_first", "cost_vs_first", "error", "memory", "priced")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	i := strconv.Itoa
	for _, r := range rows {
		rec := []string{textfmt.CSVText(r.Label), i(r.GPUs), r.Fabric, i(r.NICGbps), r.Switch, i(r.Servers), i(r.Tiers), i(r.Leaf), i(r.Spine), i(r.Core),
			i(r.Switches), i(r.NICPorts), i(r.Links), i(r.Transceivers), f(r.CostUSD, 0), f(r.CostPerGPU, 2), f(r.PowerW, 0),
			f(r.StepS, 4), f(r.BaselineStepS, 4), f(r.Gain, 4), f(r.BusBWGBs, 2), f(r.JCTDays, 2), textfmt.CSVText(r.Error),
			textfmt.CSVText(r.Memory)}
		if vsFirst {
			p := ""
			if r.ProbCheaperThanFirst != nil {
				p = f(*r.ProbCheaperThanFirst, 4)
			}
			rec = append(rec[:len(rec)-2:len(rec)-2], p, r.CostVsFirst, textfmt.CSVText(r.Error), textfmt.CSVText(r.Memory))
		}
		if r.Error != "" {
			for k := 2; k < len(rec)-2; k++ {
				rec[k] = ""
			}
		}
		if err := cw.Write(append(rec, r.Priced)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeRowsText(w io.Writer, rows []sweepRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tGPUS\tSWITCH\tTIERS\tLEAF\tSPINE\tCORE\tLINKS\tOPTICS\tCOST\t$/GPU\tPOWER\tSTEP\tGAIN\t")
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t\t\t\t\t\t\t\t\t\t\t\t\t\n", textfmt.DisplayName(r.Label), textfmt.Int(r.GPUs))
			continue
		}
		step, gain := "-", "-"
		if r.StepS > 0 {
			step, gain = textfmt.Seconds(r.StepS), textfmt.Gain(r.Gain)
		}
		// A size priced by counting its links (within 0.5% of the walk)
		// marks the figures the count sets, as the note below says.
		approx := ""
		if r.Priced == explore.PricedCounted {
			approx = "≈"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", textfmt.DisplayName(r.Label), textfmt.Int(r.GPUs), r.Switch, r.Tiers,
			textfmt.Int(r.Leaf), textfmt.Int(r.Spine), textfmt.Int(r.Core), textfmt.Int(r.Links),
			approx+textfmt.Int(r.Transceivers), approx+textfmt.USD(r.CostUSD), approx+textfmt.USDExact(r.CostPerGPU),
			textfmt.Watts(r.PowerW), step, gain)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(w, "%s GPUs: %s\n", textfmt.Int(r.GPUs), r.Error)
		}
		if r.Memory != "" {
			fmt.Fprintf(w, "%s GPUs: fabric planned, job skipped: %s\n", textfmt.Int(r.GPUs), r.Memory)
		}
	}
	return nil
}

func addRowFormat(fs interface {
	Bool(string, bool, string) *bool
}) rowFormat {
	return rowFormat{csv: fs.Bool("csv", false, "print CSV for a spreadsheet"), json: fs.Bool("json", false, "print JSON")}
}

func runSweep(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "sweep", "[SCENARIO.toml] --gpus FROM:TO|a,b,c [plan flags] [--csv|--json]")
	pf := addPlanFlags(fs, "gpus")
	gpus := fs.String("gpus", "256:131072", "GPU counts: FROM:TO doubles, FROM:TO:N takes N log-spaced points, or a comma list")
	pricingFlag := fs.String("pricing", "auto", "auto: every size in the data hall, the scenario's own walked as plan does, the others counted (within 0.5%); hall: walk every size (slow); counted: count every size; flat: each tier's links at one length")
	format := addRowFormat(fs)
	var sizes []int
	var pricing string
	in, _, err := planArgs(env, fs, pf, args, func() error {
		if err := format.check(); err != nil {
			return err
		}
		var err error
		if sizes, err = explore.ParseGPUList(*gpus); err != nil {
			return usagef("--gpus: %v", err)
		}
		if pricing, err = explore.ParsePricing(*pricingFlag); err != nil {
			return usagef("--pricing: %v", err)
		}
		return nil
	})
	// The scenario is checked once with its own GPU count, so input errors
	// are reported as such rather than once per row; a count that does not
	// plan is only one row.
	// Whether the job fits in memory depends on the GPU count too.
	if err != nil && (in == nil || len(fielderr.FieldErrors(err)) > 0 && !onlyGPUErrors(err)) {
		return err
	}
	if len(sizes) > 0 {
		if err := budgetMemory("sweep", slices.Max(sizes)); err != nil {
			return err
		}
	}
	var rows []sweepRow
	swept := explore.SweepWith(in.scenario, env.cat, sizes, explore.SweepOptions{Pricing: pricing}) // the rows read no failure what-if
	for _, r := range swept {
		rows = append(rows, rowOf("", r))
	}
	if err := format.write(env.stdout, rows); err != nil {
		return err
	}
	sweepNotes(env, swept, in.scenario.LaysHall(env.cat))
	return nil
}

// sweepNotes closes a sweep with what its rows leave out or estimate:
// sizes whose job does not fit, sizes priced by counting their links,
// and (when the scenario lays a hall out) sizes priced flat.
func sweepNotes(env *cliEnv, swept []explore.SweepRow, laysHall bool) {
	if n := explore.SkippedForMemory(swept); n > 0 {
		fmt.Fprintf(env.stderr, "%d of %s skipped: the workload does not fit in the GPUs' memory there (each row says why and what fits)\n",
			n, textfmt.Plural(len(swept), "size"))
	}
	if n := explore.PricedCountedRows(swept); n > 0 {
		fmt.Fprintf(env.stderr, "estimate: %s of %d (marked ≈) priced in the data hall by counting links by rack pair rather than walking each (priced = %q in CSV and JSON; within 0.5%% of plan's cost in tests); --pricing hall walks every link as plan does (slower)\n",
			textfmt.Plural(n, "size"), len(swept), explore.PricedCounted)
	}
	if n := explore.PricedFlatRows(swept); n > 0 && laysHall {
		fmt.Fprintf(env.stderr, "estimate: %s of %d priced with each tier's links at one length (20/50/150 m; priced = flat in CSV and JSON), where fabricplan plan measures every link in the data hall, so their cost differs from their plan's; --pricing hall measures them as plan does (slower)\n",
			textfmt.Plural(n, "size"), len(swept))
	}
}

func onlyGPUErrors(err error) bool {
	for _, fe := range fielderr.FieldErrors(err) {
		if fe.Field != "cluster.gpus" && fe.Field != "--gpus" {
			return false
		}
	}
	return true
}

func runCompare(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "compare", "A.toml B.toml [...] [--csv|--json]")
	format := addRowFormat(fs)
	pos, err := parseWithScenario(fs, args)
	if err != nil {
		return err
	}
	if err := format.check(); err != nil {
		return err
	}
	if len(pos) < 2 {
		return usagef("compare needs two or more scenario files")
	}
	var rows []sweepRow
	var first *planner.Plan
	var vs costVsFirst
	var errs []error // every bad file, each with all its problems
	for _, path := range pos {
		in, err := loadScenario(path, nil, nil)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p, err := in.build(env.cat)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		label := p.Scenario.Name
		if label == "" {
			label = path
		}
		r := rowOf(label, explore.SweepRow{GPUs: p.GPUs, Plan: p})
		if first == nil {
			first = p
		}
		vs.mark(&r, p)
		if p.JCT != nil && first.JCT != nil {
			// The first scenario is the baseline: gain > 1 means this
			// design finishes the first scenario's job sooner.
			r.GainVsFirst = first.JCT.Planned.Days / p.JCT.Planned.Days
		}
		rows = append(rows, r)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if *format.json || *format.csv {
		return format.write(env.stdout, rows)
	}
	return writeCompareText(env.stdout, rows)
}

// costVsFirst compares each plan's cost with the first one it marks,
// over price draws shared by every comparison (compare, jct --sweep
// fabric or nic).
type costVsFirst struct {
	draws      *pricedraw.Draws
	firstCosts []float64
}

// mark sets r's probability that p costs less than the first plan
// marked, and its verdict ("first" for the first itself).
func (c *costVsFirst) mark(r *sweepRow, p *planner.Plan) {
	first := c.draws == nil
	if first {
		c.draws = pricedraw.New(pricedraw.N)
		c.firstCosts = c.draws.Costs(p.PriceLines(), nil)
	}
	prob := pricedraw.ProbCheaper(c.draws.Costs(p.PriceLines(), nil), c.firstCosts)
	r.ProbCheaperThanFirst, r.CostVsFirst = &prob, pricedraw.Verdict(prob)
	if first {
		r.CostVsFirst = "first"
	}
}

// writeCompareText lays rows out side by side; a column that does not
// plan shows "–" (never $0 or 0 W) and its reason is printed below.
func writeCompareText(w io.Writer, rows []sweepRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	line := func(name string, f func(r sweepRow) string) {
		fmt.Fprint(tw, name+"\t")
		for _, r := range rows {
			if r.Error != "" && name != "" && name != "GPUs" {
				fmt.Fprint(tw, "–\t")
				continue
			}
			fmt.Fprint(tw, f(r)+"\t")
		}
		fmt.Fprintln(tw)
	}
	line("", func(r sweepRow) string { return textfmt.DisplayName(r.Label) })
	line("GPUs", func(r sweepRow) string { return textfmt.Int(r.GPUs) })
	line("Fabric", func(r sweepRow) string { return fmt.Sprintf("%s %dG", r.Fabric, r.NICGbps) })
	line("Switch", func(r sweepRow) string { return r.Switch })
	line("Tiers", func(r sweepRow) string { return strconv.Itoa(r.Tiers) })
	line("NIC ports", func(r sweepRow) string { return textfmt.Int(r.NICPorts) })
	line("Switches", func(r sweepRow) string { return textfmt.Int(r.Switches) })
	line("Links", func(r sweepRow) string { return textfmt.Int(r.Links) })
	line("Transceivers", func(r sweepRow) string { return textfmt.Int(r.Transceivers) })
	line("Cost", func(r sweepRow) string { return textfmt.USD(r.CostUSD) })
	line("Cost per GPU", func(r sweepRow) string { return textfmt.USDExact(r.CostPerGPU) })
	// A sweep of sizes compares no prices (a bigger cluster costs more
	// by construction): the row and its note show only where some
	// column was marked against the first.
	marked := slices.ContainsFunc(rows, func(r sweepRow) bool { return r.CostVsFirst != "" })
	if marked {
		line("Cost vs first", costVsFirstText)
	}
	line("Power", func(r sweepRow) string { return textfmt.Watts(r.PowerW) })
	line("Step time", func(r sweepRow) string { return stepText(r.StepS) })
	days := make([]float64, 0, len(rows))
	for _, r := range rows {
		if r.JCTDays > 0 { // rows without an estimate do not pick the unit
			days = append(days, r.JCTDays)
		}
	}
	unit := textfmt.DurationUnitFor(days...) // one unit for the row (README: job times shown together)
	line("Job time", func(r sweepRow) string {
		if r.JCTDays <= 0 {
			return "–"
		}
		return unit.Format(r.JCTDays)
	})
	line("Gain vs TCP/IP", func(r sweepRow) string { return textfmt.Gain(r.Gain) })
	line("Gain vs first", func(r sweepRow) string {
		if r.GainVsFirst <= 0 {
			return "–"
		}
		return fmt.Sprintf("%.3fx", r.GainVsFirst) // small differences between fabrics matter here
	})
	if err := tw.Flush(); err != nil {
		return err
	}
	if marked {
		fmt.Fprintf(w, "Cost vs first: P is the share of %s price draws, each part's price within its sourced range\n"+
			"(shared by parts both use), in which the fabric costs less than the first; cheaper at P >= %.1f,\n"+
			"dearer at P <= %.1f, otherwise a tie: the difference is inside the prices' uncertainty.\n",
			textfmt.Int(pricedraw.N), pricedraw.SureCheaper, 1-pricedraw.SureCheaper)
	}
	for _, r := range rows {
		if r.Error != "" {
			fmt.Fprintf(w, "%s: not planned: %s\n", textfmt.DisplayName(r.Label), r.Error)
		}
		if r.Memory != "" {
			fmt.Fprintf(w, "%s: job skipped: %s\n", textfmt.DisplayName(r.Label), r.Memory)
		}
	}
	return nil
}

// stepText is a step time, or "–" when there is no estimate.
func stepText(s float64) string {
	if s <= 0 {
		return "–"
	}
	return textfmt.Seconds(s)
}

func runJCT(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "jct", "[SCENARIO.toml] --sweep gpus|nic|fabric [plan flags] [--csv|--json]")
	pf := addPlanFlags(fs)
	sweep := fs.String("sweep", "fabric", "what to vary: gpus, nic or fabric")
	sizes := fs.String("sizes", "256:131072", "GPU counts for --sweep gpus")
	format := addRowFormat(fs)
	_, base, err := planArgs(env, fs, pf, args, format.check)
	if err != nil {
		return err
	}
	variants, err := jctVariants(*sweep, *sizes, base.Scenario, env.cat)
	if err != nil {
		return err
	}
	var rows []sweepRow
	var first *planner.Plan
	var vs costVsFirst
	for _, v := range variants {
		p, err := planner.Build(v.scenario, env.cat)
		r := rowOf(v.label, explore.SweepRow{GPUs: v.scenario.Cluster.GPUs, Plan: p, Err: err})
		if err == nil && p.JCT != nil {
			if first == nil {
				first = p
			}
			r.GainVsFirst = first.JCT.Planned.Days / p.JCT.Planned.Days
			// Designs of one cluster compare their cost with the
			// first's; a sweep of sizes does not (a larger cluster
			// costs more, which says nothing).
			if *sweep != "gpus" {
				vs.mark(&r, p)
			}
		}
		rows = append(rows, r)
	}
	if *format.json || *format.csv {
		return format.write(env.stdout, rows)
	}
	return writeCompareText(env.stdout, rows)
}

type variant struct {
	label    string
	scenario planner.Scenario
}

// jctVariants lists the what-if scenarios of a jct sweep.
func jctVariants(kind, sizes string, base planner.Scenario, cat *planner.Catalog) ([]variant, error) {
	var out []variant
	with := func(label string, f func(s *planner.Scenario)) {
		s := planner.AutoHardware(base)
		f(&s)
		out = append(out, variant{label, s})
	}
	switch kind {
	case "gpus":
		list, err := explore.ParseGPUList(sizes)
		if err != nil {
			return nil, usagef("--sizes: %v", err)
		}
		for _, g := range list {
			s := base
			s.Cluster.GPUs = g
			out = append(out, variant{textfmt.Int(g) + " GPUs", s})
		}
	case "nic":
		for _, g := range cat.NICSpeeds(base.Network.Fabric) {
			with(fmt.Sprintf("%dG", g), func(s *planner.Scenario) { s.Network.NICGbps = g })
		}
	case "fabric":
		with("InfiniBand", func(s *planner.Scenario) { s.Network.Fabric = planner.InfiniBand })
		with("RoCE adaptive", func(s *planner.Scenario) {
			s.Network.Fabric, s.Network.LoadBalancing, s.Network.Routing = planner.Ethernet, planner.LBAdaptive, planner.RouteAdaptive
		})
		with("RoCE ECMP", func(s *planner.Scenario) {
			s.Network.Fabric, s.Network.LoadBalancing, s.Network.Routing = planner.Ethernet, planner.LBECMP, planner.RouteStatic
		})
		with("RoCE ECMP 2:1", func(s *planner.Scenario) {
			s.Network.Fabric, s.Network.LoadBalancing, s.Network.Oversubscription = planner.Ethernet, planner.LBECMP, "2:1"
			s.Network.Routing = planner.RouteStatic
		})
	default:
		return nil, usagef("--sweep: %q is not gpus, nic or fabric", kind)
	}
	return out, nil
}

// costVsFirstText is a column's "Cost vs first" cell: "first" for the
// baseline, the verdict with its probability, or "–" where none was
// drawn.
func costVsFirstText(r sweepRow) string {
	if r.CostVsFirst == "first" {
		return "first" // the baseline, as in the CSV and JSON
	}
	if r.ProbCheaperThanFirst == nil {
		return "–"
	}
	return fmt.Sprintf("%s (P %.2f)", r.CostVsFirst, *r.ProbCheaperThanFirst)
}
