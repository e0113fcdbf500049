package model

import (
	"maps"

	"fabricplan/planner"
)

// Typed is the text typed into inputs that does not parse, by key; the
// caller may keep it.
func (m *Model) Typed() map[string]string { return maps.Clone(m.typed) }

// Unsaved reports whether anything would be lost on quitting: changes
// since the last open or save, or text typed that does not parse yet.
func (m *Model) Unsaved() bool { return m.Dirty() || len(m.typed) > 0 }

// Recover shows edits kept in a recovery file: base (opened from path
// whose text is source, or the default, untitled, when path is "") becomes the
// saved state, s the current inputs as one undoable edit, and typed the
// text of inputs that did not parse. The scenario is dirty afterwards
// whenever s differs from base.
func (m *Model) Recover(base planner.Scenario, path, source string, s planner.Scenario, typed map[string]string) {
	m.Load(base, path, source)
	m.Replace(s)
	for k, text := range typed {
		if _, ok := FieldOf(k); ok {
			_, _ = m.Set(k, text) // text that does not parse is kept as typed
		}
	}
}
