package cli

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/phases"
	"fabricplan/planner/scenariofile"
)

// phasesFlags are the phases command's own flags.
type phasesFlags struct {
	phases, units       *string
	prebuy              *bool
	crews               *int
	recableMin          *float64
	asCSV, asJSON, move *bool
	out                 *string
}

// runPhases plans a phased build-out two ways (for the final size, and
// growing as you go) and prints each phase, or the links to move.
func runPhases(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "phases", "[SCENARIO.toml] [plan flags] [--phases a,b,c | --units a,b,c] [--prebuy] [--crews N] [--recable-min M] [--csv|--json] [--moves [--out FILE]]")
	pf := addPlanFlags(fs)
	f := phasesFlags{
		phases:     fs.String("phases", "", "GPUs online after each phase, e.g. 1024,2048,4096 (the last is the final size)"),
		units:      fs.String("units", "", "the plan's scalable units online after each phase, e.g. 1,2,4 (a partial last unit is the remainder; the final size stays --gpus or the file's)"),
		prebuy:     fs.Bool("prebuy", false, "build for the final size with every spine, core and their optics bought in phase 1"),
		crews:      countFlag(fs, "crews", 0, 0, maxFlagCount, "crews moving links at once (default 1)"),
		recableMin: numberFlag(fs, "recable-min", 0, 0, maxFlagCount, "minutes one crew takes to move one link (default: the data file's estimate)"),
		asCSV:      fs.Bool("csv", false, "one row per strategy and phase as CSV (with --moves: the moves as CSV, the default)"),
		asJSON:     fs.Bool("json", false, "both strategies as JSON (with --moves: the moves as a JSON array)"),
		move:       fs.Bool("moves", false, "list the links the grow strategy moves, in the cable map's terms"),
		out:        fs.String("out", "", "with --moves: write to this file instead of standard output"),
	}
	pos, err := parseWithScenario(fs, args)
	if err != nil {
		return err
	}
	env.inputs = append(env.inputs, pos...)
	if err := f.check(); err != nil {
		return err
	}
	if *f.out != "" {
		if err := checkOutput(*f.out, env.inputs, f.movesExt()); err != nil {
			return err
		}
	}
	path, err := onePositional(pos)
	if err != nil {
		return err
	}
	in, err := loadScenario(path, pf, fs)
	if err != nil {
		return err
	}
	if err := f.apply(&in.scenario, in.set); err != nil {
		return err
	}
	if _, err := in.build(env.cat); err != nil {
		return err
	}
	pp, err := phases.PlanPhases(in.scenario, env.cat)
	if err != nil {
		return &fielderr.FileError{Path: in.path, Err: scenariofile.WithLines(err, in.src)}
	}
	switch {
	case *f.move:
		return f.writeMoves(env, pp)
	case *f.asJSON:
		return writeJSON(env.stdout, phasesJSON{GPUs: pp.Final.GPUs, CostUSD: pp.Final.Cost.Total, PhasedPlan: pp})
	case *f.asCSV:
		return writePhasesCSV(env.stdout, pp)
	}
	return writePhasesText(env.stdout, pp)
}

// phasesJSON is the JSON form: the final size, then the phased plan.
type phasesJSON struct {
	GPUs    int     `json:"final_gpus"`
	CostUSD float64 `json:"final_cost_usd"`
	*phases.PhasedPlan
}

func (f phasesFlags) check() error {
	switch {
	case *f.phases != "" && *f.units != "":
		return usagef("give --phases or --units, not both")
	case *f.asCSV && *f.asJSON:
		return usagef("give --csv or --json, not both")
	case *f.out != "" && !*f.move:
		return usagef("--out writes the moves: add --moves")
	case *f.crews < 0:
		return usagef("--crews: give 1 or more")
	case *f.recableMin < 0:
		return usagef("--recable-min: give minutes, 0 or more")
	}
	return nil
}

// apply writes the phase flags over s: --phases also sets the final size
// unless --gpus is given.
func (f phasesFlags) apply(s *planner.Scenario, set map[string]bool) error {
	list, isUnits := *f.phases, false
	if *f.units != "" {
		list, isUnits = *f.units, true
	}
	if list != "" {
		if err := applyPhaseList(s, list, isUnits, set); err != nil {
			return err
		}
	}
	if !set["prebuy"] && !set["crews"] && !set["recable-min"] {
		return nil
	}
	g := planner.Growth{}
	if s.Growth != nil {
		g = *s.Growth
	}
	if set["prebuy"] {
		g.PrebuyPorts = *f.prebuy
	}
	if set["crews"] {
		g.RecableCrews = *f.crews
	}
	if set["recable-min"] {
		g.RecableMin = *f.recableMin
	}
	s.Growth = &g
	return nil
}

// applyPhaseList writes the phases of list, in GPUs or in units, over
// s; a list in GPUs also sets the final size unless --gpus is given.
func applyPhaseList(s *planner.Scenario, list string, isUnits bool, set map[string]bool) error {
	flagName := "--phases"
	if isUnits {
		flagName = "--units"
	}
	sizes, err := explore.ParseGPUList(list)
	if err != nil {
		if isUnits {
			// The list parser counts GPUs; here each number is units.
			err = errors.New(strings.Replace(err.Error(), "GPU count", "scalable units", 1))
		}
		return usagef("%s: %v", flagName, err)
	}
	if len(sizes) > planner.MaxPhases {
		return usagef("%s: %d phases; give at most %d", flagName, len(sizes), planner.MaxPhases)
	}
	s.Phases = s.Phases[:0]
	for _, n := range sizes {
		if isUnits {
			s.Phases = append(s.Phases, planner.Phase{Units: n})
		} else {
			s.Phases = append(s.Phases, planner.Phase{GPUs: n})
		}
	}
	if !isUnits && !set["gpus"] {
		s.Cluster.GPUs = sizes[len(sizes)-1]
	}
	return nil
}

// movesExt is the extension --out takes for the moves' format.
func (f phasesFlags) movesExt() string {
	if *f.asJSON {
		return ".json"
	}
	return ".csv"
}

// writeMoves writes the moves as CSV (default) or JSON, to --out whole
// or not at all.
func (f phasesFlags) writeMoves(env *cliEnv, pp *phases.PhasedPlan) error {
	write := phases.WriteMovesCSV
	if *f.asJSON {
		write = phases.WriteMovesJSON
	}
	if *f.out == "" {
		return write(env.stdout, pp)
	}
	if err := writeOut(*f.out, func(w io.Writer) error { return write(w, pp) }); err != nil {
		return err
	}
	n, renamed := 0, 0
	for _, st := range pp.Strategy(phases.StrategyGrow).Steps {
		n += st.LinksMoved.Total
		if st.Recabling != nil {
			renamed += st.Recabling.CoresRenamed
		}
	}
	what := textfmt.Int(n) + " links to move"
	if renamed > 0 {
		what += " and " + textfmt.Plural(renamed, "core") + " to rename"
	}
	wrote(env, *f.out, what)
	return nil
}

// writePhasesCSV writes both strategies' steps, a row each: the
// strategy's key, then every column of phases.Columns but the sentences.
func writePhasesCSV(w io.Writer, pp *phases.PhasedPlan) error {
	cw := csv.NewWriter(w)
	header := []string{"strategy"}
	for _, c := range phases.Columns {
		if c.Unit != phases.UnitSentence {
			header = append(header, c.Key)
		}
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, sp := range pp.Strategies {
		for _, st := range sp.Steps {
			rec := []string{sp.Key}
			for _, c := range phases.Columns {
				if c.Unit != phases.UnitSentence {
					rec = append(rec, csvCell(c.Unit, c.Value(&st)))
				}
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// csvCell writes a figure of unit u as the CSV has it: numbers in full,
// nothing where the step has none.
func csvCell(u phases.Unit, f phases.Figure) string {
	switch {
	case f.None:
		return ""
	case u == phases.UnitCount:
		return strconv.Itoa(int(f.V))
	case u == phases.UnitText:
		return textfmt.CSVText(f.Text)
	case u == phases.UnitBool:
		return strconv.FormatBool(f.V != 0)
	}
	return strconv.FormatFloat(f.V, 'f', -1, 64)
}

// textCell writes a figure of unit u as the text table has it.
func textCell(u phases.Unit, f phases.Figure) string {
	switch {
	case f.None:
		return "-"
	case u == phases.UnitCount:
		return textfmt.Int(int(f.V))
	case u == phases.UnitText:
		return dash(textfmt.TerminalText(f.Text))
	case u == phases.UnitUSD:
		return textfmt.USD(f.V)
	case u == phases.UnitWatts:
		return textfmt.Watts(f.V)
	case u == phases.UnitRatio && f.Over:
		return textfmt.Oversub(f.V) + " !"
	case u == phases.UnitRatio:
		return textfmt.Oversub(f.V)
	case u == phases.UnitSeconds:
		return textfmt.Seconds(f.V)
	}
	return f.Text
}

// writePhasesText prints each strategy as a table, its findings, and the
// comparison.
func writePhasesText(w io.Writer, pp *phases.PhasedPlan) error {
	p := pp.Final
	fmt.Fprintf(w, "Phased build-out of %s to %s GPUs (%s, %s, leaf %s)\n", planTitleText(p), textfmt.Int(p.GPUs),
		p.SwitchesText(), textfmt.Plural(p.Tiers, "tier"), pp.Asked)
	for _, sp := range pp.Strategies {
		fmt.Fprintf(w, "\n%s\n", strings.ToUpper(sp.Name))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		var cols []phases.Column // the titled columns; the re-cabling sentences follow the table
		var head strings.Builder
		for _, c := range phases.Columns {
			if c.Title != "" && c.Unit != phases.UnitSentence {
				cols = append(cols, c)
				head.WriteString(strings.ToUpper(c.Title) + "\t")
			}
		}
		fmt.Fprintln(tw, head.String())
		for _, st := range sp.Steps {
			var row strings.Builder
			for _, c := range cols {
				row.WriteString(textCell(c.Unit, c.Value(&st)) + "\t")
			}
			fmt.Fprintln(tw, row.String())
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, st := range sp.Steps {
			if st.Recabling != nil {
				fmt.Fprintf(w, "  phase %d re-cabling: %s\n", st.Phase, st.Recabling.Text)
			}
		}
		for _, f := range sp.Findings {
			fmt.Fprintf(w, "  - %s\n", f)
		}
	}
	fmt.Fprintf(w, "\nCOMPARED\n  %s\n", phases.ComparePhases(pp))
	fmt.Fprintln(w, "\nNOTES")
	for _, n := range pp.Notes {
		fmt.Fprintf(w, "  - %s\n", n)
	}
	_, err := fmt.Fprintln(w, "  - moves: fabricplan phases --moves [--json] [--out FILE] lists every link to move")
	return err
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
