package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/resilience"
)

func runResilience(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "resilience", "[SCENARIO.toml] [plan flags] [--csv|--json]")
	pf := addPlanFlags(fs)
	asCSV := fs.Bool("csv", false, "print the failure cases as CSV")
	asJSON := fs.Bool("json", false, "print the failure cases and goodput as JSON")
	_, p, err := planArgs(env, fs, pf, args, nil)
	if err != nil {
		return err
	}
	if *asCSV && *asJSON {
		return usagef("give --csv or --json, not both")
	}
	r := p.Resilience
	if r == nil {
		return fmt.Errorf("no reliability data loaded")
	}
	switch {
	case *asJSON:
		return writeJSON(env.stdout, r)
	case *asCSV:
		return writeResilienceCSV(env.stdout, r)
	}
	return writeResilienceText(env.stdout, p)
}

var resilienceCSVHeader = []string{"component", "name", "count", "gpus_affected", "gpus_idle", "bandwidth_left", "uplink_left",
	"behaviour", "interrupts_job", "step_s", "slowdown", "per_day", "repair_hours", "spare_cover", "source"}

// writeResilienceCSV writes plain numbers; a step time that cannot be
// reached (no replica fits, or the job stops) is left empty.
func writeResilienceCSV(w io.Writer, r *resilience.Resilience) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(resilienceCSVHeader); err != nil {
		return err
	}
	f := func(v float64, prec int) string {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'f', prec, 64)
	}
	i := strconv.Itoa
	for _, c := range r.Cases {
		if err := cw.Write([]string{c.Component, c.Name, i(c.Count), i(c.GPUsAffected), i(c.GPUsIdle), f(c.BandwidthLeft, 4),
			f(c.UplinkLeft, 4), string(c.Behaviour), strconv.FormatBool(c.Fatal), f(c.StepS, 4), f(c.Slowdown, 4), f(c.PerDay, 6),
			f(c.RepairHours, 3), f(c.SpareCover, 4), textfmt.CSVText(c.Source)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeResilienceText(w io.Writer, p *planner.Plan) error {
	r := p.Resilience
	if r.Serving {
		return writeServingResilienceText(w, p)
	}
	fmt.Fprintf(w, "Failure what-if for %s (%s, %s)\n\n", planTitleText(p), textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.Planes, "plane"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Lost\tIn plan\tGPUs hit\tGPUs idle\tBW left\tUplink left\tJob\tStep time\tSlowdown\tPer day\t")
	for _, c := range r.Cases {
		perDay := c.PerDayText()
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f%%\t%.1f%%\t%s\t%s\t%s\t%s\t\n", c.Name, textfmt.Int(c.Count), textfmt.Int(c.GPUsAffected),
			textfmt.Int(c.GPUsIdle), 100*c.BandwidthLeft, 100*c.UplinkLeft, c.Behaviour, c.StepText(), c.SlowdownText(), perDay)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	g := r.Goodput
	fmt.Fprintf(w, "\nInterruptions: %.2f a day, one every %s (estimate from data/reliability.toml).\n", g.InterruptionsPerDay, textfmt.Hours(g.MTBIHours))
	for _, b := range g.ByComponent {
		fmt.Fprintf(w, "  %-16s %10s  %.4f a day\n", b.Component, textfmt.Int(b.Count), b.PerDay)
	}
	in := r.Inputs.Recovery
	fmt.Fprintf(w, "Goodput (ETTR): %.1f%% with %s; restart %.0f min; %s%s.\n",
		100*g.ETTR, g.CheckpointText(), in.RestartMin, in.StallText(), p.CheckpointSource())
	if g.DegradedSlowdown > 1 {
		fmt.Fprintf(w, "Parts down until repaired slow the job by %.2g%% on average (%.1f GPUs of failed parts awaiting repair, the replicas they break idle; the rest on the paths left).\n",
			100*(g.DegradedSlowdown-1), g.GPUsDown)
	}
	fmt.Fprintln(w, p.SparesText())
	if p.JCT != nil {
		fmt.Fprintf(w, "JCT counting failures: %s (planned %s).\n", g.JCTText(), textfmt.Duration(p.JCT.Planned.Days))
	}
	fmt.Fprintf(w, "Port failover: %v. Sources of each behaviour: fabricplan resilience --json.\n", r.PortFailover)
	return nil
}

// planTitleText is the plan's name, or its GPU count when unnamed.
func planTitleText(p *planner.Plan) string {
	if name := textfmt.DisplayName(p.Scenario.Name); name != "" {
		return textfmt.TerminalText(name)
	}
	return textfmt.Int(p.GPUs) + " GPUs"
}

// failuresJCT is the plan's JCT counting failures beside the planned one,
// as the plan's job-time block shows it under the JCT gain: the time in
// the planned time's unit ("never" when the job cannot make progress)
// and what it rests on; ok is false without a failure what-if of a job.
func failuresJCT(p *planner.Plan) (value, detail string, ok bool) {
	r := p.Resilience
	if r == nil || p.JCT == nil || r.Goodput.JCTDays == 0 {
		return "", "", false
	}
	g := r.Goodput
	planned := p.JCT.Planned.Days
	unit := g.UnitWith(planned)
	if math.IsInf(g.JCTDays, 1) {
		return "never", fmt.Sprintf("not the planned %s: %s; see fabricplan resilience", unit.Format(planned), g.IntervalText()), true
	}
	return unit.Format(g.JCTDays), fmt.Sprintf("planned %s; goodput %.1f%% with %s; see fabricplan resilience", unit.Format(planned), 100*g.ETTR, g.IntervalText()), true
}

// writeServingResilienceText is the failure what-if of a serving
// cluster: what each lost part takes out of which pool, and the serving
// capacity left on average; no restarts, checkpoints or job time.
func writeServingResilienceText(w io.Writer, p *planner.Plan) error {
	r := p.Resilience
	fmt.Fprintf(w, "Serving failure what-if for %s (%s, %s)\n\n", planTitleText(p), textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.Planes, "plane"))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Lost\tIn plan\tGPUs hit\tGPUs out\tBW left\tUplink left\tCluster\tPool hit\tInstances out\tPool left\tPer day\t")
	for _, c := range r.Cases {
		perDay := c.PerDayText()
		pool, out, left := "–", "–", "–"
		if c.Pool != "" {
			pool, out, left = c.Pool, textfmt.Int(c.InstancesOut), fmt.Sprintf("%.1f%%", 100*c.PoolLeft)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f%%\t%.1f%%\t%s\t%s\t%s\t%s\t%s\t\n", c.Name, textfmt.Int(c.Count), textfmt.Int(c.GPUsAffected),
			textfmt.Int(c.GPUsIdle), 100*c.BandwidthLeft, 100*c.UplinkLeft, c.Behaviour, pool, out, left, perDay)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	g := r.Goodput
	fmt.Fprintln(w, "\nA lost GPU, server, NIC or leaf takes the serving instances that hold its GPUs out of their pool until it is repaired;")
	fmt.Fprintln(w, "the other instances serve on, and nothing restarts from a checkpoint.")
	fmt.Fprintln(w, g.ServingText())
	fmt.Fprintln(w, p.SparesText())
	fmt.Fprintf(w, "Port failover: %v. Sources of each behaviour: fabricplan resilience --json.\n", r.PortFailover)
	return nil
}
