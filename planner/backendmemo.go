package planner

import (
	"slices"
	"sync"

	"fabricplan/internal/memo"
)

// A plan's back end (its sizing, hall, bill, cost, power and sanity
// bands: what buildOn gives) and the networks beside it (their sizing)
// depend on the catalog, the NIC and the resolved scenario's cluster,
// network, facility, prices, spares and side networks, never on the
// workload or the phases. The window replans after every edit, most of which (the
// workload, failures, side networks) touch none of these, so the back
// ends of recent shown plans are kept, and a plan whose inputs match
// one takes a copy of it instead of sizing and pricing again; its job
// time, side networks and failure what-if are worked out afresh.
// Sweeps and the search, whose plans are all different, keep nothing.

// backEndMemoCap bounds the back ends kept. Each holds its plan's hall,
// so they also count in a budget of the hall memo's size
// (hallMemoBytes).
const backEndMemoCap = 8

// backEndMemo holds recent back ends by their inputs (backEndKeyOf),
// the least recently used let go past backEndMemoCap back ends or
// hallMemoBytes bytes. The plans in it are never handed out: a plan
// that matches gets a copy (copyBackEnd).
var backEndMemo = memo.NewWeighted(backEndMemoCap, hallMemoBytes, (*Plan).keptBytes)

// keptBytes is the memory back end p's hall and media chooser hold.
func (p *Plan) keptBytes() int { return keptBytes(p.Hall, p.media) }

// backEndNeed is what of a back end a build asks for: the sanity bands
// (BuildOptions.Bands) and the side networks sized (BuildOptions.Networks).
type backEndNeed struct{ bands, networks bool }

// backEndKeyOf is the memo key of rs's back end on nic: the resolved
// scenario whole by value (backEndInputs), what is asked of it, and the
// catalog, NIC and quotes by identity (never changed once loaded, as in
// hallKeyOf).
func backEndKeyOf(rs *Scenario, cat *Catalog, nic *NIC, n backEndNeed) memo.Key {
	return memo.Of(memo.Same(cat), memo.Same(nic), memo.Same(rs.Quotes), n, backEndInputs(rs))
}

// backEndInputs is scenario rs less the fields the back end never reads
// (buildOn and sizeNetworks), the one list of them, which takeInputs
// hands to a copy: any other field, there now or added later, is in the
// back end's key.
func backEndInputs(rs *Scenario) Scenario {
	in := *rs
	in.Name, in.Workload, in.Phases, in.Growth, in.Storage = "", nil, nil, nil, nil
	in.Quotes = nil // by identity, beside
	return in
}

// backEnd builds rs's back end on nic, through the memo when n.Recall
// asks (with the side networks when n.Networks asks).
func (n BuildOptions) backEnd(rs Scenario, cat *Catalog, nic *NIC) (*Plan, bool, error) {
	if n.Recall {
		return buildBackEnd(rs, cat, nic, backEndNeed{bands: n.Bands, networks: n.Networks})
	}
	return buildOn(rs, cat, nic, n.Bands)
}

// buildBackEnd is buildOn, then the side networks sized when n asks for
// them, through the memo: a back end kept for the same inputs is
// copied, with the inputs it never reads taken from rs; otherwise it is
// built, and kept when it plans.
func buildBackEnd(rs Scenario, cat *Catalog, nic *NIC, n backEndNeed) (*Plan, bool, error) {
	if hallMemoOff.Load() {
		return buildBackEndFresh(rs, cat, nic, n)
	}
	key := backEndKeyOf(&rs, cat, nic, n)
	if kept, ok := backEndMemo.Get(key); ok {
		p := kept.copyBackEnd()
		p.takeInputs(&rs)
		return p, true, nil
	}
	p, ok, err := buildBackEndFresh(rs, cat, nic, n)
	if ok {
		kept := p.copyBackEnd()
		kept.viewFabric() // its copies take the view with the rest
		backEndMemo.Put(key, kept)
	}
	return p, ok, err
}

// buildBackEndFresh is buildBackEnd without the memo.
func buildBackEndFresh(rs Scenario, cat *Catalog, nic *NIC, n backEndNeed) (*Plan, bool, error) {
	p, ok, err := buildOn(rs, cat, nic, n.bands)
	if ok && n.networks {
		p.Networks = p.sizeNetworks(cat)
	}
	return p, ok, err
}

// forgetBackEnds empties the memo.
func forgetBackEnds() { backEndMemo.Forget() }

// takeInputs gives back end p, copied from a plan of equal keyed
// inputs, the inputs of rs the key leaves out (or keeps by value): its
// name, workload, side networks, phases, storage, and its own copies
// of the keyed tables. A fresh build's plan holds rs's very pointers.
func (p *Plan) takeInputs(rs *Scenario) {
	s := &p.Scenario
	s.Name, s.Workload, s.Networks, s.Phases, s.Growth, s.Storage = rs.Name, rs.Workload, rs.Networks, rs.Phases, rs.Growth, rs.Storage
	s.Reliability, s.Facility, s.Prices, s.Quotes = rs.Reliability, rs.Facility, rs.Prices, rs.Quotes
}

// copyBackEnd copies back end p so that neither copy's edits show in
// the other: every slice a plan's later steps or its caller may change
// is its own. The catalog entries, the hall, the layout, the tier loads,
// the link tiers' parts maps and the cage sets are shared: nothing
// changes them after the plan is built (the hall memo shares them
// likewise; cloning the parts maps was a quarter of the copy).
func (p *Plan) copyBackEnd() *Plan {
	q := *p
	q.SanityBands = slices.Clone(p.SanityBands)
	q.SwitchTiers = slices.Clone(p.SwitchTiers)
	q.Headroom = slices.Clone(p.Headroom)
	q.LinkTiers = slices.Clone(p.LinkTiers)
	cloneRuns(q.LinkTiers)
	q.BOM = slices.Clone(p.BOM)
	q.Cost.Drivers = slices.Clone(p.Cost.Drivers)
	q.Notes = slices.Clone(p.Notes)
	q.Cheaper = slices.Clone(p.Cheaper)
	if n := p.Networks; n != nil {
		c := *n
		c.List = slices.Clone(n.List)
		cloneNotes(c.List)
		q.Networks = &c
	}
	if p.media != nil {
		m := *p.media
		m.p, m.memo = &q, nil // made on its first choice: a re-plan seldom chooses
		q.media = &m
	}
	q.hallRun = nil
	return &q
}

// cloneRuns gives each tier its own copy of its runs, all in one
// allocation: each tier's slice is capped at its length, so an append to
// one tier's runs moves them and never writes over the next tier's.
func cloneRuns(tiers []LinkTier) {
	n := 0
	for i := range tiers {
		n += len(tiers[i].Runs)
	}
	buf := make([]LinkRun, 0, n)
	for i := range tiers {
		r := tiers[i].Runs
		if r == nil {
			continue // nil stays nil
		}
		at := len(buf)
		buf = append(buf, r...)
		tiers[i].Runs = buf[at:len(buf):len(buf)]
	}
}

// cloneNotes gives each network its own copy of its notes, all in one
// allocation, each capped at its length as in cloneRuns.
func cloneNotes(list []SideNetwork) {
	n := 0
	for i := range list {
		n += len(list[i].Notes)
	}
	buf := make([]string, 0, n)
	for i := range list {
		r := list[i].Notes
		if r == nil {
			continue // nil stays nil
		}
		at := len(buf)
		buf = append(buf, r...)
		list[i].Notes = buf[at:len(buf):len(buf)]
	}
}

// keptBufferMaxBytes bounds a walk buffer kept between builds (keep):
// those of a plan of about 250,000 GPUs, as recordLinksMax bounds the
// records.
const keptBufferMaxBytes = 16 << 20

// keep holds a released walk buffer (the survey's records, the
// union-find's memory, a tally's cages) for the next build. A sync.Pool
// alone lets go of what it holds at every other garbage collection, and
// the window, whose heap is large, collects during most re-plans: a
// 100,000-GPU edit made its 9 MB of buffers again nearly every time,
// and the collector ran the more often for it. One buffer up to
// keptBufferMaxBytes stays; others (a larger one, or one of builds
// running at once) go to the pool as before.
type keep[T any] struct {
	mu   sync.Mutex
	kept *T
	pool sync.Pool
}

// get is a kept buffer, or a new one.
func (k *keep[T]) get() *T {
	k.mu.Lock()
	x := k.kept
	k.kept = nil
	k.mu.Unlock()
	if x != nil {
		return x
	}
	if x, ok := k.pool.Get().(*T); ok {
		return x
	}
	return new(T)
}

// put gives buffer x, holding bytes bytes, back for another build; x
// must not be used after.
func (k *keep[T]) put(x *T, bytes int) {
	if bytes <= keptBufferMaxBytes {
		k.mu.Lock()
		if k.kept == nil {
			k.kept = x
			k.mu.Unlock()
			return
		}
		k.mu.Unlock()
	}
	k.pool.Put(x)
}
