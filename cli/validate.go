package cli

import (
	"fmt"
	"text/tabwriter"

	"fabricplan/data"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/validation"
)

// validationRow is one published point in validate's JSON.
type validationRow struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Published float64 `json:"published"`
	Model     float64 `json:"model"`
	Unit      string  `json:"unit"`
	Error     float64 `json:"error"`     // relative, model against published
	Tolerance float64 `json:"tolerance"` // relative
	Fitted    string  `json:"fitted"`    // the constants it was used to fit; "" when none
	Within    bool    `json:"within"`
	Drifted   bool    `json:"drifted"` // unfitted and past its tolerance: validate fails
	Source    string  `json:"source"`
	Gap       string  `json:"gap,omitempty"`
	Problem   string  `json:"problem,omitempty"`
	status    string
	fitted    string
}

// runValidate prints every published point the JCT model is checked
// against, and fails when a point not used to fit a constant drifts past
// its tolerance.
func runValidate(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "validate", "[--json|--markdown]")
	asJSON := fs.Bool("json", false, "print JSON")
	md := fs.Bool("markdown", false, "print the table as Markdown (docs/jct-validation.md)")
	if _, err := parseWithScenario(fs, args); err != nil {
		return err
	}
	if *asJSON && *md {
		return usagef("choose --json or --markdown, not both")
	}
	points, err := validation.Load(data.FS)
	if err != nil {
		return err
	}
	results := validation.Run(points, env.cat)
	rows := make([]validationRow, len(results))
	drifted := 0
	for i, r := range results {
		p := r.Point
		rows[i] = validationRow{Name: p.Name, Kind: p.Kind, Published: p.Published, Model: r.Model, Unit: p.Unit, Error: r.Error(),
			Tolerance: p.Tolerance, Fitted: p.Fitted, Within: r.Within(), Drifted: r.Drifted(), Source: p.Source, Gap: p.Gap,
			status: r.Status(), fitted: p.FittedText()}
		if r.Err != nil {
			rows[i].Problem, rows[i].Model, rows[i].Error = r.Err.Error(), 0, 0
		}
		if r.Drifted() {
			drifted++
		}
	}
	switch {
	case *asJSON:
		err = writeJSON(env.stdout, rows)
	case *md:
		err = writeValidationMarkdown(env, rows)
	default:
		err = writeValidationText(env, rows)
	}
	if err != nil {
		return err
	}
	if drifted > 0 {
		return fmt.Errorf("%s of %s not used to fit a constant drifted past their tolerance", textfmt.Plural(drifted, "point"), textfmt.Plural(len(rows), "point"))
	}
	return nil
}

func writeValidationText(env *cliEnv, rows []validationRow) error {
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POINT\tPUBLISHED\tMODEL\tERROR\tTOLERANCE\tFITTED\tSTATUS\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.4g %s\t%.4g\t%+.1f%%\t±%.0f%%\t%s\t%s\t\n", r.Name, r.Published, r.Unit, r.Model, 100*r.Error, 100*r.Tolerance, r.fitted, r.status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(env.stdout, "\nSOURCES")
	for i, r := range rows {
		fmt.Fprintf(env.stdout, "  %d. %s: %s\n", i+1, r.Name, r.Source)
		if r.Gap != "" {
			fmt.Fprintf(env.stdout, "     gap: %s\n", r.Gap)
		}
	}
	return nil
}

func writeValidationMarkdown(env *cliEnv, rows []validationRow) error {
	w := env.stdout
	fmt.Fprintln(w, "| Published point | Published | Model | Error | Tolerance | Fitted | Source |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "| %s | %.4g %s | %.4g | %+.1f%% | ±%.0f%% | %s | %s |\n", r.Name, r.Published, r.Unit, r.Model, 100*r.Error,
			100*r.Tolerance, r.fitted, r.Source); err != nil {
			return err
		}
	}
	return nil
}
