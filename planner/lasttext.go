package planner

import "sync/atomic"

// lastText keeps the last text written and the key it was written for:
// a re-plan after most edits asks for the same note again and takes the
// kept string instead of formatting it anew. Safe for concurrent use; a
// string never changes, so plans may share it.
type lastText[K comparable] struct{ p atomic.Pointer[keyedText[K]] }

// keyedText is a text kept with its key, replaced whole.
type keyedText[K comparable] struct {
	key  K
	text string
}

// get is the text kept for key.
func (m *lastText[K]) get(key K) (string, bool) {
	if k := m.p.Load(); k != nil && k.key == key {
		return k.text, true
	}
	return "", false
}

// put keeps text as written for key, in place of the last.
func (m *lastText[K]) put(key K, text string) { m.p.Store(&keyedText[K]{key, text}) }

// forget drops the kept text.
func (m *lastText[K]) forget() { m.p.Store(nil) }
