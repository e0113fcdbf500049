package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"

	"fabricplan/data"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/validation"
)

// validationRow is one published point in validate's JSON.
type validationRow struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Class     string  `json:"class"` // fitted, neighbour or independent
	Published float64 `json:"published"`
	Model     float64 `json:"model"`
	Unit      string  `json:"unit"`
	Error     float64 `json:"error"`     // relative, model against published
	Tolerance float64 `json:"tolerance"` // relative, by kind
	Fitted    string  `json:"fitted"`    // the constants it was used to fit; "" when none
	Within    bool    `json:"within"`
	Status    string  `json:"status"`
	Ratchet   string  `json:"ratchet"` // the ratchet's verdict
	Source    string  `json:"source"`
	Gap       string  `json:"gap,omitempty"`
	Problem   string  `json:"problem,omitempty"`
	fitted    string
}

// runRow is one published run in validate's JSON.
type runRow struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Split       string   `json:"split"`
	Kind        string   `json:"kind"` // dense or moe
	Metric      string   `json:"metric"`
	Published   float64  `json:"published"`
	Model       float64  `json:"model"`
	Unit        string   `json:"unit"`
	Error       float64  `json:"error"`
	Within      bool     `json:"within"`
	Ratchet     string   `json:"ratchet"`
	NotModelled []string `json:"not_modelled,omitempty"`
	Assumed     []string `json:"assumed,omitempty"`
	Problem     string   `json:"problem,omitempty"`
	Source      string   `json:"source"`
}

// validationReport is validate's JSON: the points, their accuracy by
// class, the published runs and their accuracy by split and kind, and
// the ratchet's failures.
type validationReport struct {
	RunTolerance        float64                `json:"run_tolerance"`
	CollectiveTolerance float64                `json:"collective_tolerance"`
	Points              []validationRow        `json:"points"`
	PointAccuracy       []validation.Accuracy  `json:"point_accuracy"`
	Runs                []runRow               `json:"runs"`
	RunAccuracy         []validation.Accuracy  `json:"run_accuracy"`
	RatchetEpsilonPP    float64                `json:"ratchet_epsilon_pp"`
	RatchetFailures     []validationRatchetRow `json:"ratchet_failures"`
	// RatchetGrowth are the records raised with --accept: misses shown,
	// never hidden.
	RatchetGrowth []validationGrowthRow `json:"ratchet_growth"`
	// Serving is the inference model's published points and
	// ServingHeldOut their held-out accuracy by kind; outside the ratchet.
	Serving        []servingRow      `json:"serving,omitempty"`
	ServingHeldOut []servingAccuracy `json:"serving_held_out,omitempty"`
	// PriceCheck is the catalog against published prices and
	// whole-cluster figures (data/pricecheck.toml); in the ratchet.
	PriceCheck *validation.PriceCheck `json:"price_check"`
}

// validationGrowthRow is an accepted growth in validate's JSON: a
// point's or run's record raised on purpose, from what, and why.
type validationGrowthRow struct {
	Key      string  `json:"key"`
	FromPct  float64 `json:"from_pct"`
	Recorded float64 `json:"recorded_pct"`
	Now      float64 `json:"now_pct"`
	Why      string  `json:"why"`
}

// validationRatchetRow is a ratchet verdict that fails validate.
type validationRatchetRow struct {
	Key      string   `json:"key"`
	Status   string   `json:"status"`
	Now      *float64 `json:"now_pct,omitempty"`
	Recorded *float64 `json:"recorded_pct,omitempty"`
}

// runValidate prints every published point and run the JCT model is
// checked against with its error, accuracy by class and by split, and
// fails when the ratchet (data/validation-ratchet.toml) says an error
// grew, a point or run is not recorded, or a recorded figure is lost.
// --update-ratchet PATH writes the ratchet lowered to today's errors,
// and refuses while any error is worse but those named by --accept, each
// with its --why, in order; those it records raised, with the reason.
func runValidate(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "validate", "[--json|--markdown] [--update-ratchet data/validation-ratchet.toml [--accept RUN_ID --why REASON]...]")
	asJSON := fs.Bool("json", false, "print JSON")
	md := fs.Bool("markdown", false, "print the tables as Markdown (docs/jct-validation.md)")
	update := fs.String("update-ratchet", "", "write the ratchet, lowered to today's errors, to this `path` (data/validation-ratchet.toml)")
	acc := acceptFlags(fs)
	if _, err := parseWithScenario(fs, args); err != nil {
		return err
	}
	if *asJSON && *md {
		return usagef("choose --json or --markdown, not both")
	}
	if err := acc.check(*update); err != nil {
		return err
	}
	points, err := validation.Load(data.FS)
	if err != nil {
		return err
	}
	runs, err := validation.LoadRuns(data.FS)
	if err != nil {
		return err
	}
	ratchet, err := validation.LoadRatchet(data.FS)
	if err != nil {
		return err
	}
	results := validation.Run(points, env.cat)
	runResults := validation.TimeRuns(runs, env.cat)
	prices, err := validation.CheckPrices(data.FS, env.cat)
	if err != nil {
		return err
	}
	measures := append(validation.Measures(results, runResults), prices.Measures()...)
	if *update != "" {
		return updateRatchet(env, ratchet, measures, acc, *update)
	}
	verdicts := ratchet.Check(measures)
	rep := validationReport{RunTolerance: validation.RunTolerance, CollectiveTolerance: validation.CollectiveTolerance,
		Points: pointRows(results, verdicts), PointAccuracy: validation.PointAccuracy(results),
		Runs: runRows(runResults, verdicts[len(results):]), RunAccuracy: validation.RunAccuracy(runResults),
		RatchetEpsilonPP: ratchet.EpsilonPP, RatchetFailures: ratchetFailures(verdicts), RatchetGrowth: ratchetGrowth(verdicts), PriceCheck: prices}
	if rep.Serving, rep.ServingHeldOut, err = servingValidation(env.cat); err != nil {
		return err
	}
	switch {
	case *asJSON:
		err = writeJSON(env.stdout, rep)
	case *md:
		err = writeValidationMarkdown(env.stdout, &rep)
	default:
		err = writeValidationText(env, &rep)
	}
	if err != nil {
		return err
	}
	if n := len(rep.RatchetFailures); n > 0 {
		return fmt.Errorf("the validation ratchet fails on %s of %s (worse, new, stale or without the figure recorded); see RATCHET",
			textfmt.Int(n), textfmt.Plural(len(rep.Points)+len(rep.Runs)+len(rep.PriceCheck.Points), "point and run"))
	}
	return nil
}

// acceptList is validate's --accept and --why flags, in order.
type acceptList struct{ ids, whys []string }

// acceptFlags defines --accept and --why on fs.
func acceptFlags(fs *flag.FlagSet) *acceptList {
	a := &acceptList{}
	fs.Func("accept", "with --update-ratchet: record this run's (id) or point's growth past its record, with the `RUN_ID`'s --why; repeat for more", func(s string) error {
		a.ids = append(a.ids, s)
		return nil
	})
	fs.Func("why", "the `REASON` the --accept before it grew (its source); one for each --accept", func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("an empty reason")
		}
		a.whys = append(a.whys, s)
		return nil
	})
	return a
}

// check refuses --accept without --update-ratchet or without one --why
// for each, and an --update-ratchet target that is not a ratchet
// (checkRatchetTarget), before any work.
func (a *acceptList) check(update string) error {
	if len(a.ids) != len(a.whys) || (len(a.ids) > 0 && update == "") {
		return usagef("--accept needs --update-ratchet and one --why for each (%d --accept, %d --why)", len(a.ids), len(a.whys))
	}
	if update != "" {
		return checkRatchetTarget(update)
	}
	return nil
}

// keys are the accepted ratchet keys among ms, each with its reason.
func (a *acceptList) keys(ms []validation.Measure) (map[string]string, error) {
	out := map[string]string{}
	for i, id := range a.ids {
		key, err := validation.AcceptKey(ms, id)
		if err != nil {
			return nil, usagef("%v", err)
		}
		out[key] = a.whys[i]
	}
	return out, nil
}

// updateRatchet writes the ratchet lowered to the measures to path,
// with the growth of the keys acc accepts recorded.
func updateRatchet(env *cliEnv, r *validation.Ratchet, ms []validation.Measure, acc *acceptList, path string) error {
	accept, err := acc.keys(ms)
	if err != nil {
		return err
	}
	next, err := r.Updated(ms, accept)
	if err != nil {
		return err
	}
	if err := writeOut(path, func(w io.Writer) error { _, err := w.Write(next.Marshal()); return err }); err != nil {
		return err
	}
	wrote(env, path, fmt.Sprintf("%d errors recorded (%d an accepted growth), %d without a figure", len(next.ErrorPct), len(next.Accepted), len(next.NoFigure)))
	return nil
}

// checkRatchetTarget refuses, before any work, a --update-ratchet path
// that does not end in .toml or names a regular file that is not a
// validation ratchet: the ratchet replaces whatever is there, and a
// scenario or any other file named by mistake would be lost. A new
// file, or one the write refuses for its kind (a folder, a FIFO), passes.
func checkRatchetTarget(path string) error {
	if err := checkOutput(path, nil, ".toml"); err != nil {
		return usagef("--update-ratchet%s", strings.TrimPrefix(err.Error(), "--out"))
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return nil
	}
	src, err := readAtMost(path, ratchetReadLimit)
	if err == nil {
		_, err = validation.ParseRatchet(src)
	}
	if err != nil {
		return usagef("--update-ratchet %s: the file there is not a validation ratchet (%v): it would be replaced; give the ratchet's path (data/%s) or a new file",
			textfmt.TerminalText(path), err, validation.RatchetFile)
	}
	return nil
}

// ratchetReadLimit is the most of an existing --update-ratchet target
// read to see that it is a ratchet: the ratchet is a few kB; 1 MiB, the
// scenario limit, leaves it room to grow a hundredfold.
const ratchetReadLimit = 1 << 20

// readAtMost reads path, or fails when it holds more than limit bytes.
func readAtMost(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("larger than %d bytes", limit)
	}
	return b, err
}

// ratchetText is a verdict as a table cell.
func ratchetText(v validation.Verdict) string {
	switch {
	case v.Status == validation.RatchetNoFigure:
		return v.Status
	case math.IsNaN(v.Recorded):
		return v.Status
	}
	return fmt.Sprintf("%s (%.1f%%)", v.Status, v.Recorded)
}

func pointRows(results []validation.Result, verdicts []validation.Verdict) []validationRow {
	rows := make([]validationRow, len(results))
	for i, r := range results {
		p := r.Point
		rows[i] = validationRow{Name: p.Name, Kind: p.Kind, Class: p.Class, Published: p.Published, Model: r.Model, Unit: p.Unit, Error: r.Error(),
			Tolerance: validation.Tolerance(p.Kind), Fitted: p.Fitted, Within: r.Within(), Status: r.Status(), Ratchet: ratchetText(verdicts[i]),
			Source: p.Source, Gap: p.Gap, fitted: p.FittedText()}
		if r.Err != nil {
			rows[i].Problem, rows[i].Model, rows[i].Error = r.Err.Error(), 0, 0
		}
	}
	return rows
}

func runRows(results []validation.RunResult, verdicts []validation.Verdict) []runRow {
	rows := make([]runRow, len(results))
	for i, r := range results {
		x := r.Run
		rows[i] = runRow{ID: x.ID, Name: x.Name, Split: x.Split, Kind: x.Kind, Metric: x.Metric, Published: x.Published, Model: r.Model,
			Unit: x.Unit, Error: r.Error(), Within: r.Within(), Ratchet: ratchetText(verdicts[i]), NotModelled: x.NotModelled,
			Assumed: x.Assumed, Source: x.Source}
		if r.Err != nil {
			rows[i].Problem, rows[i].Model, rows[i].Error = r.Err.Error(), 0, 0
		}
	}
	return rows
}

func ratchetFailures(verdicts []validation.Verdict) []validationRatchetRow {
	out := []validationRatchetRow{}
	pct := func(v float64) *float64 {
		if math.IsNaN(v) {
			return nil
		}
		return &v
	}
	for _, v := range verdicts {
		if v.Fails() {
			out = append(out, validationRatchetRow{Key: v.Key, Status: v.Status, Now: pct(v.Now), Recorded: pct(v.Recorded)})
		}
	}
	return out
}

// ratchetGrowth is every verdict's accepted growth, in order.
func ratchetGrowth(verdicts []validation.Verdict) []validationGrowthRow {
	out := []validationGrowthRow{}
	for _, v := range verdicts {
		if v.Grew != nil {
			out = append(out, validationGrowthRow{Key: v.Key, FromPct: v.Grew.FromPct, Recorded: v.Recorded, Now: v.Now, Why: v.Grew.Why})
		}
	}
	return out
}

// runStatus is a run's verdict: ok, MISS, or no figure and why.
func runStatus(r runRow) string {
	switch {
	case r.Problem != "":
		return "no figure"
	case r.Within:
		return "ok"
	}
	return validation.StatusMiss
}

// errorCell is a relative error as a table cell ("–" without a figure).
func errorCell(e float64, problem string) string {
	if problem != "" {
		return "–"
	}
	return fmt.Sprintf("%+.1f%%", 100*e)
}

// toleranceNote states the tolerances and what the classes mean.
const toleranceNote = "Tolerance by kind, never per point: whole runs 10%, collectives and fabric effects 25%. " +
	"Fitted: a constant was chosen to meet the point; neighbour: from the same source table or series as a fitted point; " +
	"independent: nothing was fitted to its series."

func writeValidationText(env *cliEnv, rep *validationReport) error {
	w := env.stdout
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POINT\tPUBLISHED\tMODEL\tERROR\tTOLERANCE\tCLASS\tFITTED\tSTATUS\tRATCHET\t")
	for _, r := range rep.Points {
		fmt.Fprintf(tw, "%s\t%.4g %s\t%.4g\t%s\t±%.0f%%\t%s\t%s\t%s\t%s\t\n", r.Name, r.Published, r.Unit, r.Model, errorCell(r.Error, r.Problem),
			100*r.Tolerance, r.Class, r.fitted, r.Status, r.Ratchet)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nACCURACY BY CLASS (|error|). %s\n", toleranceNote)
	writeAccuracyText(w, "CLASS", "POINTS", rep.PointAccuracy)
	fmt.Fprintln(w, "\nPUBLISHED RUNS NOT IN THE TABLES ABOVE (data/runs: dev, on which constants may be tuned ([moe] grouped_gemm_us was), and held-out, on which nothing may be; tolerance 10%)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSPLIT\tKIND\tPUBLISHED\tMODEL\tERROR\tSTATUS\tRATCHET\t")
	for _, r := range rep.Runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.4g %s\t%.4g\t%s\t%s\t%s\t\n", r.ID, r.Split, r.Kind, r.Published, r.Unit, r.Model, errorCell(r.Error, r.Problem),
			runStatus(r), r.Ratchet)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nACCURACY ON RUNS (|error|)")
	writeAccuracyText(w, "SPLIT", "RUNS", rep.RunAccuracy)
	fmt.Fprintln(w, "\nWHAT EACH RUN HAS THAT THE MODEL DOES NOT TAKE")
	for i, r := range rep.Runs {
		fmt.Fprintf(w, "  %d. %s (%s): %s\n", i+1, r.ID, r.Split, r.Source)
		if r.Problem != "" {
			fmt.Fprintf(w, "     no figure: %s\n", r.Problem)
		}
		if len(r.NotModelled) > 0 {
			fmt.Fprintf(w, "     not modelled: %s\n", strings.Join(r.NotModelled, "; "))
		}
		if len(r.Assumed) > 0 {
			fmt.Fprintf(w, "     assumed: %s\n", strings.Join(r.Assumed, "; "))
		}
	}
	fmt.Fprintln(w, "\nSOURCES")
	for i, r := range rep.Points {
		fmt.Fprintf(w, "  %d. %s: %s\n", i+1, r.Name, r.Source)
		if r.Gap != "" {
			fmt.Fprintf(w, "     gap: %s\n", r.Gap)
		}
	}
	if err := writeServingText(w, rep.Serving, rep.ServingHeldOut); err != nil {
		return err
	}
	if err := rep.PriceCheck.WriteText(w); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nRATCHET (data/validation-ratchet.toml; fails when an error grows by more than %.1f percentage points, or a point or run is not recorded)\n",
		rep.RatchetEpsilonPP)
	if len(rep.RatchetFailures) == 0 {
		fmt.Fprintln(w, "  every error held or fell")
	}
	for _, f := range rep.RatchetFailures {
		fmt.Fprintf(w, "  %s: %s%s\n", f.Key, f.Status, ratchetFigures(f))
	}
	writeGrowthText(w, rep.RatchetGrowth)
	return nil
}

// writeGrowthText lists the accepted growths: a miss that grew on
// purpose is said so on every run, with its reason.
func writeGrowthText(w io.Writer, rows []validationGrowthRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "  accepted growth (validate --update-ratchet --accept):")
	for _, g := range rows {
		fmt.Fprintf(w, "  %s: grew from %.1f%% to %.1f%%: %s\n", g.Key, g.FromPct, g.Recorded, g.Why)
	}
}

// ratchetFigures is a failure's figures: now and as recorded.
func ratchetFigures(f validationRatchetRow) string {
	var parts []string
	if f.Now != nil {
		parts = append(parts, fmt.Sprintf("now %.1f%%", *f.Now))
	}
	if f.Recorded != nil {
		parts = append(parts, fmt.Sprintf("recorded %.1f%%", *f.Recorded))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", " + strings.Join(parts, ", ")
}

func writeAccuracyText(w io.Writer, group, count string, acc []validation.Accuracy) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\tMEAN\tWORST\tWITHIN TOLERANCE\tNO FIGURE\t\n", group, count)
	for _, a := range acc {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d of %d\t%d\t\n", a.Group, a.Count, pctCell(a.MeanAbsError, a.Count), worstCell(a), a.Within, a.Count, a.NoFigure)
	}
	_ = tw.Flush()
}

// pctCell is a relative figure in percent, "–" over no points.
func pctCell(v float64, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

// worstCell is the worst |error| and whose it is.
func worstCell(a validation.Accuracy) string {
	if a.Count == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%% (%s)", 100*a.WorstAbsError, a.Worst)
}

func writeValidationMarkdown(w io.Writer, rep *validationReport) error {
	fmt.Fprintln(w, "| Published point | Published | Model | Error | Tolerance | Class | Fitted | Status | Source |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rep.Points {
		fmt.Fprintf(w, "| %s | %.4g %s | %.4g | %s | ±%.0f%% | %s | %s | %s | %s |\n", r.Name, r.Published, r.Unit, r.Model, errorCell(r.Error, r.Problem),
			100*r.Tolerance, r.Class, r.fitted, r.Status, r.Source)
	}
	fmt.Fprintf(w, "\n%s\n\n", toleranceNote)
	writeAccuracyMarkdown(w, "Class", "Points", rep.PointAccuracy)
	fmt.Fprintln(w, "\n| Published run (data/runs) | Split | Kind | Published | Model | Error | Status | Not modelled | Assumed |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rep.Runs {
		status := runStatus(r)
		if r.Problem != "" {
			status += ": " + r.Problem
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.4g %s | %.4g | %s | %s | %s | %s |\n", r.Name, r.Split, r.Kind, r.Published, r.Unit, r.Model,
			errorCell(r.Error, r.Problem), status, strings.Join(r.NotModelled, "; "), strings.Join(r.Assumed, "; "))
	}
	fmt.Fprintln(w)
	if err := writeAccuracyMarkdown(w, "Split and kind", "Runs", rep.RunAccuracy); err != nil {
		return err
	}
	return writeGrowthMarkdown(w, rep.RatchetGrowth)
}

// writeGrowthMarkdown lists the accepted growths under the tables, as
// the text does: a miss that grew on purpose stays on the page.
func writeGrowthMarkdown(w io.Writer, rows []validationGrowthRow) error {
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nGrown on purpose (`validate --update-ratchet --accept`), each with its reason:")
	fmt.Fprintln(w)
	for _, g := range rows {
		if _, err := fmt.Fprintf(w, "- %s: grew from %.1f%% to %.1f%%: %s\n", g.Key, g.FromPct, g.Recorded, g.Why); err != nil {
			return err
		}
	}
	return nil
}

func writeAccuracyMarkdown(w io.Writer, group, count string, acc []validation.Accuracy) error {
	fmt.Fprintf(w, "| %s | %s | Mean \\|error\\| | Worst | Within tolerance | No figure |\n", group, count)
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- |")
	for _, a := range acc {
		if _, err := fmt.Fprintf(w, "| %s | %d | %s | %s | %d of %d | %d |\n", a.Group, a.Count, pctCell(a.MeanAbsError, a.Count), worstCell(a),
			a.Within, a.Count, a.NoFigure); err != nil {
			return err
		}
	}
	return nil
}
