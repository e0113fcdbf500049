package cli

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"fabricplan/planner"
	"fabricplan/planner/serve"
)

// servingRow is one published serving or weight-sync point in
// validate's JSON (data/inference.toml [[points]]).
type servingRow struct {
	Name      string  `json:"name"`
	Kind      string  `json:"kind"`
	Fitted    bool    `json:"fitted"`
	Published float64 `json:"published"`
	Model     float64 `json:"model"`
	Error     float64 `json:"error"`
	Source    string  `json:"source"`
}

// servingAccuracy is the mean |error| of one kind's held-out points.
type servingAccuracy struct {
	Kind   string  `json:"kind"`
	Points int     `json:"points"`
	Mean   float64 `json:"mean"`
}

// servingValidation runs the inference model on its published points:
// the rows and the held-out accuracy by kind (nil without
// data/inference.toml).
func servingValidation(cat *planner.Catalog) ([]servingRow, []servingAccuracy, error) {
	if cat.Serve == nil || cat.JCT == nil {
		return nil, nil, nil
	}
	cs, err := serve.CheckPoints(cat.Serve, cat.JCT)
	if err != nil {
		return nil, nil, err
	}
	rows := make([]servingRow, len(cs))
	for i, c := range cs {
		rows[i] = servingRow{Name: c.Name, Kind: c.Kind, Fitted: c.Fitted, Published: c.Value, Model: c.Model, Error: c.Err, Source: c.Source}
	}
	var acc []servingAccuracy
	for _, k := range []string{serve.PointPrefill, serve.PointDecode, serve.PointKVRDMA, serve.PointKVTCP, serve.PointRLSync} {
		if mean, n := serve.HeldOutError(cs, k); n > 0 {
			acc = append(acc, servingAccuracy{Kind: k, Points: n, Mean: mean})
		}
	}
	return rows, acc, nil
}

// writeServingText prints the serving points and their held-out
// accuracy.
func writeServingText(w io.Writer, rows []servingRow, acc []servingAccuracy) error {
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintln(w, "\nSERVING AND WEIGHT SYNC (data/inference.toml; fitted points chose a constant, held-out points never did)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POINT\tKIND\tPUBLISHED\tMODEL\tERROR\tFITTED\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%.5g\t%.5g\t%+.1f%%\t%v\t\n", r.Name, r.Kind, r.Published, r.Model, 100*r.Error, r.Fitted)
	}
	for _, a := range acc {
		fmt.Fprintf(tw, "  held out: %s\t\t%d points\tmean |error|\t%.1f%%\t\t\n", a.Kind, a.Points, 100*math.Abs(a.Mean))
	}
	return tw.Flush()
}
