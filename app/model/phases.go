package model

import (
	"fmt"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// PhasesKey is the undo key of the phase list's edits: successive typing
// in it merges into one undo step.
const PhasesKey = "phase"

// PhasesLabel names the phase list in messages, as the tab labels it.
const PhasesLabel = "Phases"

// PhasesHint shows how to type the phase list.
const PhasesHint = "e.g. 256, 1k@2026-Q3, 4su"

// ParsePhases reads a phase list as the Phases tab takes it: phases
// separated by commas, each a GPU count ("1024", "16k") or scalable
// units ("4su"), optionally "@" and a date ("1k@2026-Q3"). Empty is no
// list (the planner then doubles from one scalable unit).
func ParsePhases(text string) ([]planner.Phase, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	parts := strings.Split(text, ",")
	if len(parts) > planner.MaxPhases {
		return nil, fmt.Errorf("%d phases: give at most %d", len(parts), planner.MaxPhases)
	}
	out := make([]planner.Phase, 0, len(parts))
	for i, part := range parts {
		size, date, _ := strings.Cut(strings.TrimSpace(part), "@")
		size = strings.TrimSpace(size)
		ph := planner.Phase{Date: strings.TrimSpace(date)}
		if u, ok := strings.CutSuffix(strings.ToLower(size), "su"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(u))
			if err != nil || n < 1 {
				return nil, fmt.Errorf("phase %d: %q is not a number of scalable units; write e.g. 2su", i+1, size)
			}
			ph.Units = n
		} else {
			n, err := textfmt.ParseCount(size, planner.MaxGPUs)
			if err != nil {
				return nil, fmt.Errorf("phase %d: %w", i+1, err)
			}
			ph.GPUs = n
		}
		out = append(out, ph)
	}
	return out, nil
}

// FormatPhases writes a phase list as ParsePhases reads it.
func FormatPhases(phases []planner.Phase) string {
	parts := make([]string, len(phases))
	for i, ph := range phases {
		s := strconv.Itoa(ph.GPUs)
		if ph.Units > 0 {
			s = strconv.Itoa(ph.Units) + "su"
		}
		if ph.Date != "" {
			s += "@" + ph.Date
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// PhasesText is the phase list as the Phases tab shows it: the typed
// text when it does not parse, else the scenario's list.
func (m *Model) PhasesText() string {
	if t, ok := m.typed[PhasesKey]; ok {
		return t
	}
	return FormatPhases(m.scenario.Phases)
}

// SetPhases sets the scenario's phase list from text (see ParsePhases).
// Text that does not parse is kept and reported; the scenario is then
// unchanged.
func (m *Model) SetPhases(text string) error {
	phases, err := ParsePhases(text)
	if err != nil {
		m.typed[PhasesKey], m.typedErr[PhasesKey] = text, err.Error()
		return fmt.Errorf("%s: %w", PhasesLabel, err)
	}
	delete(m.typed, PhasesKey)
	delete(m.typedErr, PhasesKey)
	next := m.scenario.Clone()
	next.Phases = phases
	m.commit(next, PhasesKey, Text)
	return nil
}

// Growth is the scenario's growth options (zero: the defaults).
func (m *Model) Growth() planner.Growth {
	if g := m.scenario.Growth; g != nil {
		return *g
	}
	return planner.Growth{}
}

// SetPrebuy sets whether building for the final size buys every spine,
// core and their optics with the first phase.
func (m *Model) SetPrebuy(on bool) {
	next := m.scenario.Clone()
	g := m.Growth()
	g.PrebuyPorts = on
	next.Growth = &g
	if g == (planner.Growth{}) {
		next.Growth = nil
	}
	m.commit(next, "growth.prebuy_ports", Toggle)
}
