package planner

import (
	"slices"
	"sync/atomic"
	"unsafe"

	"fabricplan/internal/memo"
	"fabricplan/planner/hall"
)

// A plan's hall (its racks, every link's length, medium and parts, the
// modules its cages take) depends only on the catalog, the NIC and
// switch the plan runs on, and the scenario's cluster, network,
// facility and prices. The window replans after every edit, most of
// which (workload, failures, networks beside the back end) touch none
// of these, so recent halls are kept and a plan whose inputs match one
// takes its results instead of walking every link again.

// hallMemoCap bounds the halls kept, hallMemoBytes what they hold: a
// hall's racks (about 128 bytes each) and its links' cage sets (a byte
// a transceiver cage). A million-GPU hall (30,000 racks, 3.5 million
// cages: 7 MB measured after a collection) leaves room for one more;
// the window's pins and a comparison's scenarios at 100,000 GPUs
// (under 1 MB each) all fit. The budget bounds what a process keeps
// whatever the size (issue 48: a 1M-GPU report under 128 MiB); the
// plans that hold a hall share it with the memo. A hall whose links a
// walk has written out (a cable map, a rack's ends) also keeps every
// link's cage sets (Plan.linkMedia), not in the budget.
const (
	hallMemoCap   = 8
	hallMemoBytes = 16 << 20
)

// hallMemo holds recent halls by their inputs (hallKeyOf), the least
// recently used let go past hallMemoCap halls or hallMemoBytes bytes.
var hallMemo = memo.NewWeighted(hallMemoCap, hallMemoBytes, (*hallResult).bytes)

// hallMemoOff makes every plan lay its hall out and walk its links
// afresh (the reference the memo is tested against, and the cold
// benchmarks).
var hallMemoOff atomic.Bool

// hallResult is what laying a plan out and walking its links produced.
// Everything in it is read-only once stored: plans share the hall and
// the cage sets.
type hallResult struct {
	hall  *hall.Hall
	notes []string  // the notes layOut added
	lines []BOMLine // the link BOM lines, in order
	// tiers are the link tiers after the walk (runs, media, modules).
	tiers                           []LinkTier
	serverTransceivers, switchAdded int // the plan's transceiver counts the walk set or added
	media                           *mediaChooser
}

// bytes is what r holds in the memo's budget: its hall's racks and its
// media chooser's cages.
func (r *hallResult) bytes() int { return keptBytes(r.hall, r.media) }

// keptBytes is the memory a laid-out hall h and its media chooser m
// hold: a Rack a rack and a byte (the tier) a cage.
func keptBytes(h *hall.Hall, m *mediaChooser) int {
	n := 0
	if h != nil {
		n += len(h.Racks) * int(unsafe.Sizeof(hall.Rack{}))
	}
	if m != nil && m.sets != nil {
		n += m.sets.grid.size
	}
	return n
}

// hallMemoRun is a plan's memo state between layOut and fillLinkBOM:
// the key to store its results under, or the results found.
type hallMemoRun struct {
	key   memo.Key
	found *hallResult
	notes []string
}

// hallKeyOf is the memo key of plan p's hall: its scenario whole by
// value (hallInputs), the catalog, the NIC, the switch and the quotes by
// identity (a catalog and the quotes given to Build are never changed
// afterwards; the NIC and switch are the catalog's), and where its
// storage ports went (one scenario is sized with each placement:
// cheapestStorage).
func hallKeyOf(p *Plan, cat *Catalog) memo.Key {
	s := &p.Scenario
	return memo.Of(memo.Same(cat), memo.Same(p.NIC), memo.Same(p.Switch), memo.Same(s.Quotes), hallInputs(s), p.storagePlaceKey())
}

// hallInputs is scenario s less the fields a hall never reads, the one
// list of them: any other field, there now or added later, is in the
// hall's key.
func hallInputs(s *Scenario) Scenario {
	in := *s
	in.Schema, in.Name, in.Workload, in.Reliability, in.Networks, in.Storage, in.Phases, in.Growth, in.flatLinks = 0, "", nil, nil, nil, nil, nil, nil, false
	in.Quotes = nil // by identity, beside
	return in
}

// recallHall starts plan p's memo run: with a hall kept for its inputs,
// p takes it (and the notes its layout gave) and true is returned.
func (p *Plan) recallHall(cat *Catalog) bool {
	if hallMemoOff.Load() {
		return false
	}
	run := &hallMemoRun{key: hallKeyOf(p, cat)}
	r, ok := hallMemo.Get(run.key)
	p.hallRun = run
	if !ok {
		return false
	}
	run.found = r
	p.Hall = r.hall
	p.Notes = append(p.Notes, r.notes...)
	return true
}

// replayLinks gives p the link results kept with its hall; false when
// none were found (the links must be walked).
func (p *Plan) replayLinks(add func(BOMLine)) bool {
	run := p.hallRun
	if run == nil || run.found == nil {
		return false
	}
	r := run.found
	p.hallRun = nil
	for _, l := range r.lines {
		add(l)
	}
	for i := range p.LinkTiers {
		p.LinkTiers[i] = r.tiers[i]
		p.LinkTiers[i].Runs = slices.Clone(r.tiers[i].Runs)
	}
	p.ServerTransceivers = r.serverTransceivers
	p.SwitchTransceivers += r.switchAdded
	m := *r.media
	m.p = p
	m.memo = map[withKey]linkChoice{}
	p.media = &m
	return true
}

// keepHall stores what p's layout and walk produced under its key.
// lines are the link BOM lines, switchAdded the switch transceivers the
// walk added.
func (p *Plan) keepHall(lines []BOMLine, switchAdded int) {
	run := p.hallRun
	p.hallRun = nil
	if run == nil || p.Hall == nil || p.media == nil || p.media.sets == nil {
		return
	}
	r := &hallResult{hall: p.Hall, notes: run.notes, lines: lines, serverTransceivers: p.ServerTransceivers, switchAdded: switchAdded}
	r.tiers = slices.Clone(p.LinkTiers)
	for i := range r.tiers {
		r.tiers[i].Runs = slices.Clone(r.tiers[i].Runs)
	}
	m := *p.media
	m.p, m.memo = nil, nil
	r.media = &m
	hallMemo.Put(run.key, r)
}
