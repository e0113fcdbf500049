package phases

// Unit says what a phase table column holds, so each writer (the Phases
// tab, the text table, the CSV) formats it its own way.
type Unit int

// Units of the phase table's columns.
const (
	UnitCount   Unit = iota // a whole number: 1,234 (CSV 1234)
	UnitText                // text as it is (the date)
	UnitUSD                 // dollars
	UnitWatts               // watts
	UnitRatio               // a leaf's down:up; Figure.Over when more than asked
	UnitBool                // true or false (CSV only)
	UnitSeconds             // a step time
	UnitDays                // a job's days (CSV only)
	UnitHours               // a re-cabling window (CSV only)
	// UnitSentence is a sentence (the re-cabling): the Phases tab shows
	// it in its column, the text table prints it below the table and the
	// CSV leaves it out (its figure is UnitHours's column).
	UnitSentence
)

// Figure is one step's value in a column, before a writer formats it.
type Figure struct {
	V    float64 // a number's value (1 or 0 for UnitBool)
	Text string  // UnitText's and UnitSentence's text
	Over bool    // UnitRatio: more oversubscribed than asked
	None bool    // the step has no value here (no job time, nothing moved)
}

// Column is one column of the phase table: both strategies' tables in
// the Phases tab, fabricplan phases's text table and its CSV read this
// one list, in its order.
type Column struct {
	Key   string // the column's name: the CSV's header ("links_added") where the CSV has it
	Title string // the tables' heading ("+Links"; the text table's in capitals); "" for a CSV-only column
	Unit  Unit
	Value func(st *PhaseStep) Figure
}

// count and number are a Value reading a whole number or a figure.
func count(f func(st *PhaseStep) int) func(st *PhaseStep) Figure {
	return func(st *PhaseStep) Figure { return Figure{V: float64(f(st))} }
}

func number(f func(st *PhaseStep) float64) func(st *PhaseStep) Figure {
	return func(st *PhaseStep) Figure { return Figure{V: f(st)} }
}

// jct is a Value reading the step's job time, none without one.
func jct(f func(j *PhaseJCT) float64) func(st *PhaseStep) Figure {
	return func(st *PhaseStep) Figure {
		if st.JCT == nil {
			return Figure{None: true}
		}
		return Figure{V: f(st.JCT)}
	}
}

// Columns are the phase table's columns, in order.
var Columns = []Column{
	{"phase", "Phase", UnitCount, count(func(st *PhaseStep) int { return st.Phase })},
	{"date", "Date", UnitText, func(st *PhaseStep) Figure { return Figure{Text: st.Date} }},
	{"gpus", "GPUs", UnitCount, count(func(st *PhaseStep) int { return st.GPUs })},
	{"servers", "", UnitCount, count(func(st *PhaseStep) int { return st.Servers })},
	{"tiers", "Tiers", UnitCount, count(func(st *PhaseStep) int { return st.Tiers })},
	{"leaf", "Leaf", UnitCount, count(func(st *PhaseStep) int { return st.Switches.Leaf })},
	{"spine", "Spine", UnitCount, count(func(st *PhaseStep) int { return st.Switches.Spine })},
	{"core", "Core", UnitCount, count(func(st *PhaseStep) int { return st.Switches.Core })},
	{"switches_added", "+Switches", UnitCount, count(func(st *PhaseStep) int { return st.SwitchesAdded.Total })},
	{"links", "Links", UnitCount, count(func(st *PhaseStep) int { return st.Links.Total })},
	{"links_added", "+Links", UnitCount, count(func(st *PhaseStep) int { return st.LinksAdded.Total })},
	{"links_moved", "Moved", UnitCount, count(func(st *PhaseStep) int { return st.LinksMoved.Total })},
	{"transceivers_bought", "Optics", UnitCount, count(func(st *PhaseStep) int { return st.TransceiversBought })},
	{"cables_bought", "Cables", UnitCount, count(func(st *PhaseStep) int { return st.CablesBought })},
	{"cost_added_usd", "Spend", UnitUSD, number(func(st *PhaseStep) float64 { return st.CostAddedUSD })},
	{"cost_usd", "To date", UnitUSD, number(func(st *PhaseStep) float64 { return st.CostUSD })},
	{"retired_usd", "", UnitUSD, number(func(st *PhaseStep) float64 { return st.RetiredUSD })},
	{"power_w", "Power", UnitWatts, number(func(st *PhaseStep) float64 { return st.PowerW })},
	{"oversubscription", "Ratio", UnitRatio, func(st *PhaseStep) Figure { return Figure{V: st.Oversub, Over: !st.RatioHolds} }},
	{"ratio_holds", "", UnitBool, func(st *PhaseStep) Figure {
		if st.RatioHolds {
			return Figure{V: 1}
		}
		return Figure{}
	}},
	{"step_s", "Step", UnitSeconds, jct(func(j *PhaseJCT) float64 { return j.StepS })},
	{"jct_days", "", UnitDays, jct(func(j *PhaseJCT) float64 { return j.Days })},
	{"recable_hours", "", UnitHours, func(st *PhaseStep) Figure {
		if st.Recabling == nil {
			return Figure{None: true}
		}
		return Figure{V: st.Recabling.Hours}
	}},
	{"recabling", "Re-cabling", UnitSentence, func(st *PhaseStep) Figure {
		if st.Recabling == nil {
			return Figure{None: true}
		}
		return Figure{Text: st.Recabling.Text}
	}},
}
