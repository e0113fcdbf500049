package model

import (
	"fmt"
	"sort"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// Result is the outcome of planning one snapshot of the inputs, made off
// the UI goroutine by Evaluate and applied on it by Apply.
type Result struct {
	Gen  uint64 // the inputs it is for
	Plan *planner.Plan
	Err  error
	Fits map[string]bool // the switches of the fabric and speed that build
}

// Evaluate plans s (the inputs of generation gen) and finds which
// switches of its fabric and port speed would build. It is safe to call
// on any goroutine.
func Evaluate(gen uint64, s planner.Scenario, cat *planner.Catalog) Result {
	r := Result{Gen: gen}
	r.Plan, r.Err = planner.Build(s, cat)
	if r.Plan != nil {
		r.Plan.FindCheaper(cat)
		r.Fits = map[string]bool{}
		for _, sw := range cat.SwitchesFor(s.Network.Fabric, r.Plan.PortGbps) {
			if sw.Key == r.Plan.Switch.Key {
				r.Fits[sw.Key] = true
				continue
			}
			try := s
			try.Network.Switch = sw.Key
			r.Fits[sw.Key] = planner.Builds(try, cat) == nil
		}
	}
	return r
}

// Apply takes a result in; results for inputs that have since changed are
// dropped (false), so only the latest is ever shown.
func (m *Model) Apply(r Result) bool {
	if r.Gen != m.gen {
		return false
	}
	if r.Err != nil {
		m.planErr, m.errGen = r.Err, r.Gen
		return true
	}
	m.plan, m.planGen, m.planErr = r.Plan, r.Gen, nil
	m.fits = r.Fits
	return true
}

// Plan is the last plan that built, for the current inputs or not (see
// State); nil before the first.
func (m *Model) Plan() *planner.Plan { return m.plan }

// Status is what the shown plan is.
type Status int

// Plan states.
const (
	None     Status = iota // nothing planned yet
	Current                // the plan is for the inputs shown
	Planning               // the inputs changed and are being planned
	Stale                  // the inputs do not plan: the plan shown is the last that did
)

// Problem is one reason the inputs do not plan, in the words of the
// window: the label of the input (empty when none applies) and what to do.
type Problem struct {
	Key   string
	Label string
	Text  string // what is wrong and the fix
}

// String is the problem as one line: "Planes: ...; fix".
func (p Problem) String() string {
	if p.Label == "" {
		return p.Text
	}
	return p.Label + ": " + p.Text
}

// PlanState is the state of the plan on screen.
type PlanState struct {
	Status   Status
	Problems []Problem // when Stale
	// Findings are what the current plan cannot do with these inputs
	// though its fabric stands (a job that cannot run on its GPUs):
	// shown under their inputs, the plan neither stale nor dimmed.
	Findings []Problem
}

// Banner is the whole message a stale plan shows: what the figures are,
// then every problem with its fix, one per line.
func (st PlanState) Banner(shown *planner.Plan) string {
	if st.Status != Stale {
		return ""
	}
	var b strings.Builder
	b.WriteString("Not planned: the inputs do not make a fabric.")
	if shown != nil {
		fmt.Fprintf(&b, " The figures below are the last plan that did (%s GPUs, %s %dG), not these inputs.",
			textfmt.Int(shown.GPUs), shown.Scenario.Network.Fabric.Name(), shown.Scenario.Network.NICGbps)
	}
	for _, p := range st.Problems {
		b.WriteString("\n• ")
		b.WriteString(p.String())
	}
	return b.String()
}

// State says whether the plan on screen is current, being made, stale
// (with every problem) or absent.
func (m *Model) State() PlanState {
	var probs []Problem
	for _, f := range fields {
		if e, ok := m.typedErr[f.Key]; ok {
			probs = append(probs, Problem{Key: f.Key, Label: f.Label, Text: e})
		}
	}
	for _, k := range planner.SortedKeys(m.typedErr) {
		if strings.HasPrefix(k, "prices.") {
			probs = append(probs, Problem{Key: k, Label: LabelOf(k), Text: m.typedErr[k]})
		}
	}
	if m.planErr != nil && m.errGen == m.gen {
		probs = append(probs, Problems(m.planErr)...)
	}
	switch {
	case len(probs) > 0:
		return PlanState{Status: Stale, Problems: probs}
	case m.plan == nil:
		return PlanState{Status: None}
	case m.planGen == m.gen:
		return PlanState{Status: Current, Findings: Problems(m.plan.NoJCT)}
	}
	return PlanState{Status: Planning}
}

// Problems turns a planner error into problems named by the labels on
// screen: "Planes: 3 planes do not divide 8 ports; choose 1, 2, 4 or 8".
func Problems(err error) []Problem {
	if err == nil {
		return nil
	}
	fes := fielderr.FieldErrors(err)
	if len(fes) == 0 {
		return []Problem{{Text: InLabels(err.Error())}}
	}
	var out []Problem
	seen := map[string]bool{}
	for _, fe := range fes {
		text := fe.Problem
		if fe.Fix != "" {
			text += "; " + fe.Fix
		}
		text = InLabels(text)
		p := Problem{Key: fe.Field, Label: LabelOf(fe.Field), Text: text}
		if !seen[p.String()] {
			seen[p.String()] = true
			out = append(out, p)
		}
	}
	// A wrapper's own words ("no infiniband switch fits") lead.
	if _, wraps := err.(interface{ Unwrap() error }); wraps && !isField(err) {
		if head, _, ok := strings.Cut(err.Error(), ":"); ok && !strings.Contains(head, ".") {
			out = append([]Problem{{Text: head}}, out...)
		}
	}
	return out
}

// InLabels rewrites the scenario keys a planner message names
// ("network.planes", "ports_per_nic") as the labels on screen ("Planes").
func InLabels(text string) string {
	// Longest first: server_leaf_m before server_leaf.
	byLength := Fields()
	sort.SliceStable(byLength, func(i, j int) bool { return len(byLength[i].Key) > len(byLength[j].Key) })
	for _, f := range byLength {
		if strings.Contains(text, f.Key) {
			text = strings.ReplaceAll(text, f.Key, "“"+f.Label+"”")
		}
	}
	for _, f := range byLength { // bare names: ports_per_nic
		tail := f.Key[strings.LastIndex(f.Key, ".")+1:]
		if strings.Contains(tail, "_") && strings.Contains(text, tail) {
			text = strings.ReplaceAll(text, tail, "“"+f.Label+"”")
		}
	}
	return text
}

func isField(err error) bool {
	_, ok := err.(*fielderr.FieldError)
	return ok
}
