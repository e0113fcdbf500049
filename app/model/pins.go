package model

import (
	"errors"
	"fmt"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// Pin is a named snapshot of a plan: later edits never change it.
type Pin struct {
	Name string
	Plan *planner.Plan
}

// ErrStale is returned when an action needs a plan of the current inputs.
var ErrStale = errors.New("the inputs do not plan: fix the problems shown first")

// DefaultPinName names the next pin from the current inputs:
// "#2 IB 800G, 16,384 GPUs".
func (m *Model) DefaultPinName() string {
	s := m.scenario
	sys := ""
	if m.systemFixed(s) {
		sys = s.Cluster.System + " "
	}
	return fmt.Sprintf("#%d %s%s %s, %s GPUs", len(m.pins)+1, sys, s.Network.Fabric.Short(), speedLabel(s.WithSystem(m.cat).Network.NICGbps), textfmt.Int(s.Cluster.GPUs))
}

// PinCurrent pins the plan of the current inputs under name (empty: the
// default name). The plan is built from a snapshot, so it holds whatever
// is edited afterwards.
func (m *Model) PinCurrent(name string) error {
	if st := m.State(); st.Status == Stale {
		return ErrStale
	}
	p := m.plan
	if m.planGen != m.gen || p == nil {
		var err error
		if p, err = planner.Build(m.scenario, m.cat); err != nil {
			return fmt.Errorf("pin: %w", err)
		}
	}
	name = strings.TrimSpace(textfmt.DisplayName(name))
	if name == "" {
		name = m.DefaultPinName()
	}
	for _, q := range m.pins {
		if q.Name == name {
			return fmt.Errorf("a pin is already named %q: give another name", name)
		}
	}
	m.pins = append(m.pins, Pin{Name: name, Plan: p})
	return nil
}

// Pins lists the pinned plans in the order pinned.
func (m *Model) Pins() []Pin { return append([]Pin(nil), m.pins...) }

// Unpin removes the pin named name; false if there is none.
func (m *Model) Unpin(name string) bool {
	for i, p := range m.pins {
		if p.Name == name {
			m.pins = append(m.pins[:i:i], m.pins[i+1:]...)
			return true
		}
	}
	return false
}

// UnpinAll removes every pin.
func (m *Model) UnpinAll() { m.pins = nil }

// Variants are the pins and the current plan, for the comparison charts.
func (m *Model) Variants() []planner.Variant {
	var vs []planner.Variant
	for _, p := range m.pins {
		vs = append(vs, planner.Variant{Label: p.Name, Plan: p.Plan})
	}
	if m.plan != nil {
		vs = append(vs, planner.Variant{Label: m.currentLabel(), Plan: m.plan})
	}
	return vs
}

func (m *Model) currentLabel() string {
	if m.State().Status == Stale {
		return "Current (last valid)"
	}
	return "Current"
}

// CompareRow is one figure across the compared plans; Differs is true
// when the plans do not all agree on it.
type CompareRow struct {
	Name    string
	Cells   []string
	Differs bool
}

// Comparison is the table of the Compare tab.
type Comparison struct {
	Columns []string
	Rows    []CompareRow
}

var compareFigures = []struct {
	name  string
	value func(p *planner.Plan, usd textfmt.MoneyScale) string
}{
	{"GPUs", func(p *planner.Plan, _ textfmt.MoneyScale) string { return textfmt.Int(p.GPUs) }},
	{"System", func(p *planner.Plan, _ textfmt.MoneyScale) string {
		if p.System == nil {
			return fmt.Sprintf("custom, %d GPUs per server", p.Scenario.Cluster.GPUsPerServer)
		}
		return p.System.Key
	}},
	{"Fabric", func(p *planner.Plan, _ textfmt.MoneyScale) string {
		return fmt.Sprintf("%s %s", p.Scenario.Network.Fabric.Name(), speedLabel(p.Scenario.Network.NICGbps))
	}},
	{"Switch", func(p *planner.Plan, _ textfmt.MoneyScale) string { return p.SwitchesText() }},
	{"Tiers / planes", func(p *planner.Plan, _ textfmt.MoneyScale) string { return fmt.Sprintf("%d / %d", p.Tiers, p.Planes) }},
	{"Oversubscription", func(p *planner.Plan, _ textfmt.MoneyScale) string { return p.Scenario.Network.Oversubscription }},
	{"NIC ports", func(p *planner.Plan, _ textfmt.MoneyScale) string { return textfmt.Int(p.NICPorts) }},
	{"Switches", func(p *planner.Plan, _ textfmt.MoneyScale) string { return textfmt.Int(p.TotalSwitches()) }},
	{"Links", func(p *planner.Plan, _ textfmt.MoneyScale) string { return textfmt.Int(p.Links.Total) }},
	{"Transceivers", func(p *planner.Plan, _ textfmt.MoneyScale) string {
		return textfmt.Int(p.ServerTransceivers + p.SwitchTransceivers)
	}},
	{"Cost", func(p *planner.Plan, usd textfmt.MoneyScale) string { return usd.Format(p.Cost.Total) }},
	{"Cost per GPU", func(p *planner.Plan, _ textfmt.MoneyScale) string { return textfmt.USDExact(p.Cost.PerGPU) }},
	{"Power", func(p *planner.Plan, _ textfmt.MoneyScale) string { return textfmt.Watts(p.Power.Total) }},
	{"Step time", func(p *planner.Plan, _ textfmt.MoneyScale) string {
		if p.JCT == nil {
			return "–"
		}
		if !p.JCT.FitsMemory() {
			return textfmt.Seconds(p.JCT.Planned.StepS) + " (does not fit in memory)"
		}
		return textfmt.Seconds(p.JCT.Planned.StepS)
	}},
	{"Job time", func(p *planner.Plan, _ textfmt.MoneyScale) string {
		if p.JCT == nil {
			return "–"
		}
		return textfmt.Duration(p.JCT.Planned.Days)
	}},
	{"Gain over TCP/IP", func(p *planner.Plan, _ textfmt.MoneyScale) string {
		if p.JCT == nil {
			return "–"
		}
		return textfmt.Gain(p.JCT.Gain)
	}},
}

// Compare lays the pins and the current plan side by side.
func (m *Model) Compare() Comparison {
	vs := m.Variants()
	var c Comparison
	for _, v := range vs {
		c.Columns = append(c.Columns, v.Label)
	}
	usd := variantsMoneyScale(vs)
	for _, f := range compareFigures {
		row := CompareRow{Name: f.name}
		for _, v := range vs {
			row.Cells = append(row.Cells, f.value(v.Plan, usd))
		}
		for _, cell := range row.Cells {
			if cell != row.Cells[0] {
				row.Differs = true
			}
		}
		c.Rows = append(c.Rows, row)
		if f.name == "Cost per GPU" && len(vs) > 1 {
			c.Rows = append(c.Rows, costVsLast(vs))
		}
	}
	return c
}

// variantsMoneyScale is the one scale the Compare tab writes every
// plan's cost in ("$0.912M" beside "$4.56M", never "$912.0k"), chosen
// from the dearest of them.
func variantsMoneyScale(vs []planner.Variant) textfmt.MoneyScale {
	usd := make([]float64, 0, len(vs))
	for _, v := range vs {
		usd = append(usd, v.Plan.Cost.Total)
	}
	return textfmt.MoneyScaleFor(usd...)
}

// CostVsRow names the Compare tab's row that says how sure each cost
// difference is.
const CostVsRow = "Cost vs last column"

// costVsLast is the row giving, for each plan, the probability over
// shared price draws that it costs less than the last column's (the
// current plan): "cheaper (P 0.97)", "dearer (P 0.02)" or "tie (P 0.48)".
func costVsLast(vs []planner.Variant) CompareRow {
	row := CompareRow{Name: CostVsRow}
	last := vs[len(vs)-1].Plan
	for i, v := range vs {
		if i == len(vs)-1 {
			row.Cells = append(row.Cells, "–")
			continue
		}
		p := planner.ProbCheaperThan(v.Plan, last)
		verdict := planner.CostVerdict(p)
		row.Cells = append(row.Cells, fmt.Sprintf("%s (P %.2f)", verdict, p))
		if verdict != planner.VerdictTie {
			row.Differs = true
		}
	}
	return row
}
