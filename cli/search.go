package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/pricedraw"
	"fabricplan/planner/serve"
)

func runSearch(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "search", "[SCENARIO.toml] [--target-days D | --within P%] [--budget USD] [--with-failures] [plan flags] [--all] [--csv|--json]")
	pf := addPlanFlags(fs)
	target := numberFlag(fs, "target-days", 0, 0, maxTargetDays, "JCT target in days: pick the cheapest design that meets it")
	within := fs.String("within", "", "pick the cheapest design within P% of the fastest, e.g. 10%")
	budget := fs.String("budget", "", "pick the fastest design costing at most this many US$ (e.g. 5e6 or 5000000)")
	all := fs.Bool("all", false, "list every design, not only the Pareto front")
	withFailures := fs.Bool("with-failures", false, "rank by JCT counting expected failures (fabricplan resilience), not the failure-free JCT")
	format := addRowFormat(fs)
	var opt explore.SearchOptions
	in, err := scenarioArgs(env, fs, pf, args, func() (err error) {
		if err = format.check(); err == nil {
			opt, err = searchOptions(*target, *within, *budget)
		}
		opt.WithFailures = *withFailures
		return err
	})
	if err == nil && in.check(env.cat) != nil {
		// The scenario is checked without laying it out (the search
		// never uses its own plan, and a 100,000-GPU hall walk is a
		// tenth of the search); what fails so is planned in its hall,
		// which decides.
		_, err = in.build(env.cat)
	}
	if err != nil {
		return err
	}
	res, err := explore.Search(context.Background(), in.scenario, env.cat, opt)
	if err != nil {
		if _, planErr := in.build(env.cat); planErr != nil {
			return planErr // the scenario's hall fails too: its error, with the file's lines
		}
		return usageError{err}
	}
	list := res.Front
	if *all {
		list = res.Designs
	}
	switch {
	case *format.json:
		return writeJSON(env.stdout, searchJSON(res, list))
	case *format.csv:
		return writeSearchCSV(env.stdout, res, list)
	}
	if err := writeSearchText(env.stdout, res, list); err != nil {
		return err
	}
	return writeServingRank(env.stdout, res, in.scenario.Inference, *all)
}

// rankedShown is how many designs the tokens-per-dollar ranking lists
// without --all.
const rankedShown = 10

// writeServingRank lists an inference scenario's designs by output
// tokens per US$ at its SLO, those that miss it marked and last; nothing
// for a training scenario.
func writeServingRank(w io.Writer, r *explore.SearchResult, in *serve.Inference, all bool) error {
	if len(r.Ranked) == 0 || in == nil {
		return nil
	}
	list := r.Ranked
	if !all {
		list = list[:min(len(list), rankedShown)]
	}
	var slo []string
	if in.TargetTPOTS > 0 {
		slo = append(slo, fmt.Sprintf("TPOT <= %.3f s", in.TargetTPOTS))
	}
	if in.TargetTTFTS > 0 {
		slo = append(slo, fmt.Sprintf("TTFT <= %.3f s", in.TargetTTFTS))
	}
	target := "no TPOT or TTFT target"
	if len(slo) > 0 {
		target = strings.Join(slo, ", ")
	}
	fmt.Fprintf(w, "\nRanked by output tokens per US$ of the whole cluster at the SLO (%s; designs that miss it last, marked): %d of %s (estimates; --all lists every one).\n",
		target, len(list), textfmt.Int(len(r.Ranked)))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tDESIGN\tTOKENS/US$\tTOKENS/S/GPU\tTPOT\tTTFT\tCOST\tSLO")
	for i, d := range list {
		e := d.Plan.Inference
		slo := "met"
		if d.SLOMiss != "" {
			slo = "MISSES " + d.SLOMiss
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%.1f ms\t%.0f ms\t%s\t%s\n", i+1, d.Label, textfmt.Int(int(math.Round(d.TokensPerDollar))),
			wholeCount(e.TokensSPerGPU), e.Decode.TPOTS*1e3, e.TTFTS*1e3, d.CostText(textfmt.USD), slo)
	}
	return tw.Flush()
}

// Bounds on search flags: a century of training, ten trillion dollars.
const (
	maxTargetDays = 36500
	maxBudgetUSD  = 1e13
)

func searchOptions(target float64, within, budget string) (explore.SearchOptions, error) {
	var opt explore.SearchOptions
	// Written so NaN fails: every comparison with NaN is false.
	if !(target >= 0 && target <= maxTargetDays) {
		return opt, usagef("--target-days: %g is not a number of days; give one from 0 to %d", target, maxTargetDays)
	}
	opt.TargetDays = target
	if within != "" {
		if target > 0 {
			return opt, usagef("give --target-days or --within, not both")
		}
		v, err := textfmt.ParseNumber(strings.TrimSuffix(strings.TrimSpace(within), "%"), 0, 1000)
		if err != nil || v == 0 {
			return opt, usagef("--within: %q is not a percentage; write e.g. --within 10%%", within)
		}
		opt.WithinPct = v
	}
	if budget != "" {
		v, err := textfmt.ParseMoney(budget)
		if err != nil || !(v > 0 && v <= maxBudgetUSD) {
			return opt, usagef("--budget: %q is not an amount of US$; write e.g. --budget 5e6 or 4.6M", budget)
		}
		opt.BudgetUSD = v
	}
	return opt, nil
}

type designJSON struct {
	Label   string `json:"label"`
	Fabric  string `json:"fabric"`
	NICGbps int    `json:"nic_gbps"`
	Ports   int    `json:"ports_per_nic"`
	Planes  int    `json:"planes"`
	Switch  string `json:"switch"`
	// SpineSwitch and CoreSwitch are the spines' and cores' models where
	// they differ from the leaves' (switch).
	SpineSwitch string `json:"spine_switch,omitempty"`
	CoreSwitch  string `json:"core_switch,omitempty"`
	Ratio       string `json:"oversubscription"`
	// Topology is the design's style (rail-optimized, top-of-rack, ...)
	// and SpineRatio the spines' down:up ratio toward the cores, fields
	// of their own where the label only names them.
	Topology   string  `json:"topology"`
	SpineRatio string  `json:"spine_oversubscription"`
	Tiers      int     `json:"tiers"`
	Switches   int     `json:"switches"`
	CostUSD    float64 `json:"cost_usd"`
	PowerW     float64 `json:"power_w"`
	StepS      float64 `json:"step_s"`
	Days       float64 `json:"jct_days"`
	OnFront    bool    `json:"on_front"`
	// ProbCheaper is the probability over shared price draws that the
	// design costs less than the pick; CostVsPick names it.
	ProbCheaper float64 `json:"prob_cheaper_than_pick"`
	CostVsPick  string  `json:"cost_vs_pick"`
	// Priced is how cost_usd was priced: "hall" (laid out), "hall,
	// counted (approx.)" (laid out, its links counted by class: within
	// 0.5% of the plan's walk), "flat" (one length per tier, as the
	// scenario's plans) or "lower bound" (not laid out: a laid-out design
	// beats it).
	Priced string `json:"priced"`
	// TokensPerDollar is an inference design's output tokens per US$ of
	// the whole cluster; MeetsSLO says it meets the TPOT and TTFT
	// targets, SLOMiss what it misses (all left out for training).
	TokensPerDollar float64 `json:"tokens_per_dollar,omitempty"`
	MeetsSLO        *bool   `json:"meets_slo,omitempty"`
	SLOMiss         string  `json:"slo_miss,omitempty"`
	// Reason says why the search tried a published shape (chassis
	// spines, collapsed core, leaf pairs, zones): explore.Design.Reason.
	Reason string `json:"reason,omitempty"`
}

func toDesignJSON(d *explore.Design) *designJSON {
	if d == nil {
		return nil
	}
	n := d.Scenario.Network
	j := &designJSON{Label: d.Label, Fabric: string(n.Fabric), NICGbps: n.NICGbps, Ports: n.PortsPerNIC, Planes: n.Planes,
		Switch: d.Plan.Switch.Key, SpineSwitch: d.Plan.TierSwitchKey(planner.TierSpine), CoreSwitch: d.Plan.TierSwitchKey(planner.TierCore), Ratio: n.Oversubscription, Topology: n.Style(), SpineRatio: n.SpineRatio(), Tiers: d.Plan.Tiers, Switches: d.Plan.TotalSwitches(),
		CostUSD: d.CostUSD, PowerW: d.PowerW, StepS: d.StepS, Days: d.Days, OnFront: d.OnFront,
		ProbCheaper: d.ProbCheaper, CostVsPick: d.CostVsPick, Priced: d.Priced, Reason: d.Reason}
	if d.Plan.Inference != nil {
		meets := d.SLOMiss == ""
		j.TokensPerDollar, j.MeetsSLO, j.SLOMiss = d.TokensPerDollar, &meets, d.SLOMiss
	}
	return j
}

func searchJSON(r *explore.SearchResult, list []*explore.Design) any {
	out := struct {
		Evaluated       int           `json:"evaluated"`
		Buildable       int           `json:"buildable"`
		ElapsedS        float64       `json:"elapsed_s"`
		TargetDays      float64       `json:"target_days,omitempty"`
		Cheapest        *designJSON   `json:"cheapest_meeting_target"`
		FastestInBudget *designJSON   `json:"fastest_in_budget"`
		Fastest         *designJSON   `json:"fastest"`
		Message         string        `json:"message,omitempty"`
		LaidOut         int           `json:"laid_out"`
		Undecided       int           `json:"undecided"`
		Pricing         string        `json:"pricing,omitempty"`
		Pick            *designJSON   `json:"pick"`
		SureCheaper     float64       `json:"sure_cheaper"`
		Draws           int           `json:"price_draws"`
		Designs         []*designJSON `json:"designs"`
		// Ranked is an inference scenario's designs by tokens per US$ at
		// its SLO, those missing it last (explore.SearchResult.Ranked).
		Ranked []*designJSON `json:"ranked_by_tokens_per_dollar,omitempty"`
	}{Evaluated: r.Evaluated, Buildable: len(r.Designs), ElapsedS: r.Elapsed.Seconds(), TargetDays: r.Target,
		Cheapest: toDesignJSON(r.Cheapest), FastestInBudget: toDesignJSON(r.FastestInBudget), Fastest: toDesignJSON(r.Fastest), Message: r.Message,
		LaidOut: r.LaidOut, Undecided: r.Undecided, Pricing: r.PricingNote(),
		Pick: toDesignJSON(r.Pick()), SureCheaper: pricedraw.SureCheaper, Draws: pricedraw.N}
	for _, d := range list {
		out.Designs = append(out.Designs, toDesignJSON(d))
	}
	for _, d := range r.Ranked {
		out.Ranked = append(out.Ranked, toDesignJSON(d))
	}
	return out
}

func writeSearchCSV(w io.Writer, r *explore.SearchResult, list []*explore.Design) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"label", "fabric", "nic_gbps", "ports_per_nic", "planes", "switch", "spine_switch", "core_switch", "oversubscription", "tiers", "switches",
		"cost_usd", "power_w", "step_s", "jct_days", "on_front", "pick", "prob_cheaper_than_pick", "cost_vs_pick", "priced", "reason"})
	f := func(v float64, p int) string { return strconv.FormatFloat(v, 'f', p, 64) }
	for _, d := range list {
		j := toDesignJSON(d)
		cw.Write([]string{textfmt.CSVText(j.Label), j.Fabric, strconv.Itoa(j.NICGbps), strconv.Itoa(j.Ports), strconv.Itoa(j.Planes), j.Switch, j.SpineSwitch, j.CoreSwitch, j.Ratio,
			strconv.Itoa(j.Tiers), strconv.Itoa(j.Switches), f(j.CostUSD, 0), f(j.PowerW, 0), f(j.StepS, 4), f(j.Days, 3),
			strconv.FormatBool(j.OnFront), pickName(r, d), f(j.ProbCheaper, 4), j.CostVsPick, j.Priced, textfmt.CSVText(j.Reason)})
	}
	cw.Flush()
	return cw.Error()
}

func pickName(r *explore.SearchResult, d *explore.Design) string {
	var picks []string
	if d == r.Cheapest {
		picks = append(picks, "cheapest meeting target")
	}
	if d == r.FastestInBudget {
		picks = append(picks, "fastest in budget")
	}
	if d == r.Pick() && len(picks) == 0 {
		picks = append(picks, "cheapest")
	}
	return strings.Join(picks, "; ")
}

// vsPick says how sure the design's cost difference from the pick is:
// "tie (P 0.43)", "cheaper (P 0.97)"; empty for the pick.
func vsPick(r *explore.SearchResult, d *explore.Design) string {
	if d == r.Pick() {
		return "pick"
	}
	if d.CostVsPick == "" {
		return "not laid out"
	}
	return fmt.Sprintf("%s (P %.2f)", d.CostVsPick, d.ProbCheaper)
}

func writeSearchText(w io.Writer, r *explore.SearchResult, list []*explore.Design) error {
	fmt.Fprintf(w, "Searched %s designs (%s buildable) in %s; %d on the Pareto front of cost against JCT.\n",
		textfmt.Int(r.Evaluated), textfmt.Int(len(r.Designs)), r.Elapsed.Round(1e5), len(r.Front))
	if d := r.Cheapest; d != nil {
		fmt.Fprintf(w, "Cheapest meeting %.2f days: %s — %s, %.2f days.\n", r.Target, d.Label, textfmt.USD(d.CostUSD), d.Days)
	}
	if d := r.FastestInBudget; d != nil {
		fmt.Fprintf(w, "Fastest in budget: %s — %s, %.2f days.\n", d.Label, textfmt.USD(d.CostUSD), d.Days)
	}
	if r.Message != "" {
		fmt.Fprintln(w, "Note: "+r.Message+".")
	}
	if note := r.PricingNote(); note != "" {
		fmt.Fprintln(w, note)
	}
	if pick := r.Pick(); pick != nil {
		var ties []string
		for _, d := range r.Ties() {
			if d.Days <= pick.Days || r.Target > 0 && d.Days <= r.Target {
				ties = append(ties, d.Label)
			}
		}
		if len(ties) > 0 {
			fmt.Fprintf(w, "Cost tie with the pick (the difference is inside the prices' uncertainty), as fast or meeting the target: %s.\n",
				strings.Join(ties[:min(len(ties), 5)], "; "))
		}
		fmt.Fprintf(w, "VS PICK: P is the share of %s shared price draws in which a design costs less than the pick; a tie is P between %.1f and %.1f.\n",
			textfmt.Int(pricedraw.N), 1-pricedraw.SureCheaper, pricedraw.SureCheaper)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DESIGN\tSWITCHES\tCOST\tVS PICK\tPOWER\tSTEP\tJCT (days)\tPICK")
	for _, d := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\n", d.Label, textfmt.Int(d.Plan.TotalSwitches()), d.CostText(textfmt.USD),
			vsPick(r, d), textfmt.Watts(d.PowerW), textfmt.Seconds(d.StepS), d.Days, pickName(r, d))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeShapeReasons(w, list)
}

// writeShapeReasons says, under the table, why each listed design of a
// published shape (chassis spines, collapsed core, leaf pairs, zones)
// was tried; nothing when none is listed.
func writeShapeReasons(w io.Writer, list []*explore.Design) error {
	head := "\nShapes beyond the styles, priced as every other design:\n"
	for _, d := range list {
		if d.Reason == "" {
			continue
		}
		if _, err := fmt.Fprintf(w, "%s  %s: %s.\n", head, d.Label, d.Reason); err != nil {
			return err
		}
		head = ""
	}
	return nil
}
