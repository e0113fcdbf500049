package validation

import "math"

// Accuracy summarises the model's errors on a group of points or runs.
type Accuracy struct {
	Group string `json:"group"`
	// Count is the points or runs with a figure; NoFigure those without.
	Count    int `json:"count"`
	NoFigure int `json:"no_figure"`
	// MeanAbsError and WorstAbsError are relative (0.1 is 10%); Worst
	// names the worst point or run.
	MeanAbsError  float64 `json:"mean_abs_error"`
	WorstAbsError float64 `json:"worst_abs_error"`
	Worst         string  `json:"worst,omitempty"`
	// Within is how many are within the tolerance of their kind.
	Within int `json:"within"`
}

// add counts one point or run: its name, relative error and whether it
// is within its tolerance, or err when it has no figure.
func (a *Accuracy) add(name string, e float64, within bool, err error) {
	if err != nil {
		a.NoFigure++
		return
	}
	e = math.Abs(e)
	a.MeanAbsError = (a.MeanAbsError*float64(a.Count) + e) / float64(a.Count+1)
	a.Count++
	if e > a.WorstAbsError || a.Worst == "" {
		a.WorstAbsError, a.Worst = e, name
	}
	if within {
		a.Within++
	}
}

// PointAccuracy is the points' accuracy by class (Classes' order), then
// over all of them.
func PointAccuracy(results []Result) []Accuracy {
	out := make([]Accuracy, len(Classes)+1)
	for i, c := range Classes {
		out[i].Group = c
	}
	out[len(Classes)].Group = "all"
	for _, r := range results {
		for i := range out {
			if out[i].Group == r.Point.Class || out[i].Group == "all" {
				out[i].add(r.Point.Name, r.Error(), r.Within(), r.Err)
			}
		}
	}
	return out
}

// RunAccuracy is the published runs' accuracy by split and kind: dev
// dense, dev MoE, dev all, then the same for the held-out split.
func RunAccuracy(results []RunResult) []Accuracy {
	var out []Accuracy
	for _, split := range []string{SplitDev, SplitHeldOut} {
		for _, kind := range []string{RunDense, RunMoE, ""} {
			a := Accuracy{Group: split + " " + kind}
			if kind == "" {
				a.Group = split + " all"
			}
			for _, r := range results {
				if r.Run.Split == split && (kind == "" || r.Run.Kind == kind) {
					a.add(r.Run.ID, r.Error(), r.Within(), r.Err)
				}
			}
			out = append(out, a)
		}
	}
	return out
}

// Measures are the points' and runs' |errors| under their ratchet keys.
func Measures(points []Result, runs []RunResult) []Measure {
	out := make([]Measure, 0, len(points)+len(runs))
	for _, r := range points {
		out = append(out, Measure{Key: PointKey(r.Point.Name), AbsErrorPct: 100 * math.Abs(r.Error()), Err: r.Err})
	}
	for _, r := range runs {
		out = append(out, Measure{Key: RunKey(r.Run.Split, r.Run.ID), AbsErrorPct: 100 * math.Abs(r.Error()), Err: r.Err})
	}
	return out
}
