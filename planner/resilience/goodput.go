package resilience

import (
	"encoding/json"
	"fmt"
	"math"

	"fabricplan/internal/textfmt"
)

// goodput sums the interruptions of the fatal cases and the slowdown of
// the survivable ones, and finds the checkpoint interval.
func goodput(cases []FailureCase, input *Input, st *stepper, unit int) Goodput {
	in := &input.Reliability
	g := Goodput{DegradedSlowdown: 1}
	if n := fatalCases(cases); n > 0 { // nil without any, as JSON's null
		g.ByComponent = make([]Interruptions, 0, n)
	}
	for _, c := range cases {
		if c.PerDay == 0 {
			continue
		}
		down := c.PerDay / 24 * c.RepairHours // parts of this kind down at a time, on average
		switch {
		case c.Behaviour == ServesOn:
			g.ServingGPUsOut += down * c.servingOut
		case c.Fatal:
			g.InterruptionsPerDay += c.PerDay
			g.ByComponent = append(g.ByComponent, Interruptions{Component: c.Component, Count: c.Count, PerDay: c.PerDay})
			g.GPUsDown += down * float64(c.unitGPUs)
		case math.IsInf(c.StepS, 1):
			g.DegradedSlowdown += down
		case c.Slowdown > 1:
			g.DegradedSlowdown += down * (c.Slowdown - 1)
		}
	}
	if s := input.Serving; s.Serves() {
		g.ServingLeft = max(0, 1-g.ServingGPUsOut/float64(s.PrefillGPUs+s.DecodeGPUs))
	}
	g.DegradedSlowdown *= st.shrink(g.GPUsDown, unit)
	lambda := g.InterruptionsPerDay / 24 // per hour
	// A save stalls training w; its write runs in the background, so a
	// failure loses, besides the restart and the work since the last
	// save, the save still being written: on average dt/2 + write.
	w := in.Recovery.CheckpointStallS / 3600
	write := in.Recovery.CheckpointWriteS / 3600
	u := in.Recovery.RestartMin/60 + write
	g.LossMin = u * 60
	g.MTBIHours = math.Inf(1)
	if lambda > 0 {
		g.MTBIHours = 1 / lambda
		g.OptimalMin = OptimalCheckpointHours(lambda, u, w) * 60
		g.YoungMin = math.Sqrt(2*w/lambda) * 60
		// The next save waits for the last to land: ETTR falls on either
		// side of its maximum, so under the write the best is the write.
		if g.OptimalMin > 0 && g.OptimalMin < write*60 {
			g.OptimalMin, g.WriteBound = write*60, true
		}
	}
	g.IntervalMin = in.Recovery.CheckpointInterval
	if g.IntervalMin == 0 {
		g.IntervalMin = g.OptimalMin
	}
	g.ETTR = ETTR(lambda, u, w, g.IntervalMin/60)
	g.ETTRAtOptimum = ETTR(lambda, u, w, g.OptimalMin/60)
	if input.HasJob {
		g.JCTDays = math.Inf(1)
		if g.ETTR > 0 {
			g.JCTDays = input.Job.Days * g.DegradedSlowdown / g.ETTR
		}
	}
	return g
}

// fatalCases counts the cases goodput lists by component: the fatal ones
// that happen.
func fatalCases(cases []FailureCase) int {
	n := 0
	for i := range cases {
		if cases[i].Fatal && cases[i].PerDay != 0 {
			n++
		}
	}
	return n
}

// ETTR is the expected effective training time ratio of a job
// interrupted lambda times an hour, restarting in u0 hours, checkpointing
// every dt hours at a blocking cost of w hours (Kokolis et al., HPCA'25,
// arXiv 2410.21680): (1 - lambda (u0 + dt/2)) / (1 + w/dt), at least 0.
// Without interruptions (lambda 0) it is 1 less the checkpoint cost;
// dt 0 means no checkpoints, which only an uninterrupted job survives,
// and a checkpoint that takes as long as the mean time between
// interruptions (w >= 1/lambda) mostly never completes: 0, where the
// first-order formula would still promise progress.
func ETTR(lambda, u0, w, dt float64) float64 {
	if dt <= 0 || lambda > 0 && w*lambda >= 1 {
		if lambda > 0 {
			return 0
		}
		return 1
	}
	e := (1 - lambda*(u0+dt/2)) / (1 + w/dt)
	return math.Max(0, e)
}

// OptimalCheckpointHours is the interval that maximises ETTR: setting its
// derivative to zero gives lambda dt^2/2 + lambda w dt - (1 - lambda u0) w
// = 0, so dt = -w + sqrt(w^2 + 2 (1 - lambda u0) w / lambda). For small w
// and u0 this is Young's sqrt(2 w / lambda). It is 0 when lambda is 0 (no
// checkpoint needed) or restarts alone outrun the interruptions.
func OptimalCheckpointHours(lambda, u0, w float64) float64 {
	a := 1 - lambda*u0
	if lambda <= 0 || a <= 0 {
		return 0
	}
	return -w + math.Sqrt(w*w+2*a*w/lambda)
}

// String summarises the goodput in a line.
func (g Goodput) String() string {
	return fmt.Sprintf("%.2f interruptions/day (one every %s), ETTR %.1f%% with %s",
		g.InterruptionsPerDay, textfmt.Hours(g.MTBIHours), 100*g.ETTR, g.IntervalText())
}

// IntervalText is the checkpoint interval as every view writes it:
// "checkpoints every 38 min" (textfmt.Interval's units: "every 43 s",
// "every 2.5 hours"); when the interval is 0, "no checkpoints (no
// interruptions)" for a job never interrupted, and for one interrupted
// before it can make up a restart, why no interval helps.
func (g Goodput) IntervalText() string {
	switch {
	case g.IntervalMin > 0:
		return "checkpoints every " + textfmt.Interval(g.IntervalMin*60)
	case g.InterruptionsPerDay > 0:
		return "no checkpoint interval that makes progress (one interruption every " + textfmt.Hours(g.MTBIHours) +
			", within the " + textfmt.Interval(g.LossMin*60) + " each costs to restart)"
	}
	return "no checkpoints (no interruptions)"
}

// ServingText is what failures cost a serving cluster as every view
// writes it: the share of its serving GPUs in service on average, the
// GPUs out awaiting repair, and the outages of the whole cluster when
// there are any. A serving cluster restarts nothing from a checkpoint.
func (g Goodput) ServingText() string {
	s := fmt.Sprintf("Serving capacity: %.2f%% of the serving GPUs in service on average (%.1f GPUs out awaiting repair; estimate from data/reliability.toml).",
		100*g.ServingLeft, g.ServingGPUsOut)
	if g.InterruptionsPerDay > 0 {
		s += fmt.Sprintf("\nOutages of the whole cluster: %.2f a day.", g.InterruptionsPerDay)
	}
	return s
}

// CheckpointText is IntervalText with the optimum and Young's
// approximation beside it: "checkpoints every 38 min (optimum 38 min,
// Young 37 min)", the optimum marked "the write's time" when the write
// bounds it; without an optimum there is neither.
func (g Goodput) CheckpointText() string {
	if g.OptimalMin <= 0 {
		return g.IntervalText()
	}
	opt := textfmt.Interval(g.OptimalMin * 60)
	if g.WriteBound {
		opt += ", the write's time"
	}
	return g.IntervalText() + " (optimum " + opt + ", Young " + textfmt.Interval(g.YoungMin*60) + ")"
}

// StallText is what each save costs training as every view writes it:
// "each save stalls training 6.3 s; its 494.2 ms write overlaps
// training".
func (r Recovery) StallText() string {
	return "each save stalls training " + textfmt.Interval(r.CheckpointStallS) + "; its " + textfmt.Interval(r.CheckpointWriteS) + " write overlaps training"
}

// JCTText is the JCT counting failures as the app prints it.
func (g Goodput) JCTText() string {
	if math.IsInf(g.JCTDays, 1) {
		return "never (the job cannot make progress)"
	}
	return textfmt.Duration(g.JCTDays)
}

// StepText is the step time while the part is down as the app prints it:
// "cannot train" when no model replica fits, "–" without a JCT estimate.
func (c FailureCase) StepText() string {
	switch {
	case math.IsInf(c.StepS, 1):
		return "cannot train"
	case c.StepS <= 0:
		return "–"
	}
	return textfmt.Seconds(c.StepS)
}

// PerDayText is how often the part fails a day as every view writes it,
// "0.0192", or "what-if" for a part without a failure rate.
func (c FailureCase) PerDayText() string {
	if c.PerDay <= 0 {
		return "what-if"
	}
	return fmt.Sprintf("%.4f", c.PerDay)
}

// SlowdownText is the slowdown as "1.033x", or "–" where there is none.
func (c FailureCase) SlowdownText() string {
	if c.StepS <= 0 || math.IsInf(c.StepS, 1) {
		return "–"
	}
	return fmt.Sprintf("%.3fx", c.Slowdown)
}

// finite is v, or nil (JSON null) when v is infinite or not a number.
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// MarshalJSON writes an infinite step time (no replica fits) as null.
func (c FailureCase) MarshalJSON() ([]byte, error) {
	type plain FailureCase
	return json.Marshal(struct {
		plain
		StepS    *float64 `json:"step_s"`
		Slowdown *float64 `json:"slowdown"`
	}{plain(c), finite(c.StepS), finite(c.Slowdown)})
}

// MarshalJSON writes "never" (no interruptions) and "cannot finish" as
// null.
func (g Goodput) MarshalJSON() ([]byte, error) {
	type plain Goodput
	return json.Marshal(struct {
		plain
		MTBIHours *float64 `json:"mtbi_hours"`
		JCTDays   *float64 `json:"jct_days_with_failures"`
	}{plain(g), finite(g.MTBIHours), finite(g.JCTDays)})
}

// UnitWith is the unit for the planned job time of plannedDays and the
// time counting failures (g) written together.
func (g Goodput) UnitWith(plannedDays float64) textfmt.DurationUnit {
	return textfmt.DurationUnitFor(plannedDays, g.JCTDays)
}
