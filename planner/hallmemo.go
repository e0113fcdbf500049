package planner

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"fabricplan/planner/hall"
)

// A plan's hall (its racks, every link's length, medium and parts, the
// modules its cages take) depends only on the catalog, the NIC and
// switch the plan runs on, and the scenario's cluster, network,
// facility and prices. The window replans after every edit, most of
// which (workload, failures, networks beside the back end) touch none
// of these, so recent halls are kept and a plan whose inputs match one
// takes its results instead of walking every link again.

// hallMemoCap bounds the halls kept, hallMemoCages their transceiver
// cages: about 10 bytes are kept per cage, and a million-GPU hall has
// 3.5 million (Tomahawk 6, 400G ports), so at most about 85 MB: two
// million-GPU halls, or the window's pins and a comparison's scenarios
// at 100,000 GPUs (350,000 cages each). The plans that hold a hall
// share it with the memo.
const (
	hallMemoCap   = 8
	hallMemoCages = 8 << 20
)

// hallMemo holds recent halls by their inputs.
var hallMemo struct {
	sync.Mutex
	halls map[hallKey]*hallResult
	cages int
}

// hallMemoOff makes every plan lay its hall out and walk its links
// afresh (the reference the memo is tested against, and the cold
// benchmarks).
var hallMemoOff atomic.Bool

// hallKey is everything a plan's hall results depend on. The catalog,
// NIC, switch and quotes count by identity: a catalog and the quotes
// given to Build are never changed afterwards (plans point into them).
type hallKey struct {
	cat      *Catalog
	nic      *NIC
	sw       *Switch
	cluster  Cluster
	network  Network
	facility hall.Facility
	// hasFacility tells a [facility] table of defaults from none (the
	// default leaf placement falls back only when none was asked).
	hasFacility bool
	pricing     PriceSettings
	prices      string // the price overrides, key=value sorted
	quotes      *Quotes
}

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

// hallMemoRun is a plan's memo state between layOut and fillLinkBOM:
// the key to store its results under, or the results found.
type hallMemoRun struct {
	key   hallKey
	found *hallResult
	notes []string
}

// hallKeyOf is the memo key of plan p's hall.
func hallKeyOf(p *Plan, cat *Catalog) hallKey {
	s := &p.Scenario
	k := hallKey{cat: cat, nic: p.NIC, sw: p.Switch, cluster: s.Cluster, network: s.Network, pricing: s.Pricing, quotes: s.Quotes}
	if s.Facility != nil {
		k.facility, k.hasFacility = *s.Facility, true
	}
	k.prices = pricesKey(s.Prices)
	return k
}

// pricesKey is price overrides as key=value, sorted by key ("" for none).
func pricesKey(prices map[string]float64) string {
	if len(prices) == 0 {
		return ""
	}
	var b strings.Builder
	for _, key := range SortedKeys(prices) {
		b.WriteString(key)
		b.WriteByte('=')
		b.WriteString(strconv.FormatFloat(prices[key], 'g', -1, 64))
		b.WriteByte(';')
	}
	return b.String()
}

// recallHall starts plan p's memo run: with a hall kept for its inputs,
// p takes it (and the notes its layout gave) and true is returned.
func (p *Plan) recallHall(cat *Catalog) bool {
	if hallMemoOff.Load() {
		return false
	}
	run := &hallMemoRun{key: hallKeyOf(p, cat)}
	hallMemo.Lock()
	r := hallMemo.halls[run.key]
	hallMemo.Unlock()
	p.hallRun = run
	if r == nil {
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
	cages := len(m.sets.parent)
	hallMemo.Lock()
	defer hallMemo.Unlock()
	if hallMemo.halls == nil || len(hallMemo.halls) >= hallMemoCap || hallMemo.cages+cages > hallMemoCages {
		hallMemo.halls, hallMemo.cages = make(map[hallKey]*hallResult, hallMemoCap), 0 // full: start again
	}
	if _, there := hallMemo.halls[run.key]; !there {
		hallMemo.halls[run.key] = r
		hallMemo.cages += cages
	}
}
