// Package model is the window's view model, without Fyne: it owns the
// scenario being edited (an immutable planner.Scenario replaced on every
// edit), the rules of the inputs (the choices that fit, what a change
// resets and the message that says so, validation in the words of the
// labels on screen), the plan state (current, planning, stale with the
// reason, none), undo and redo, pinned snapshots and the search results
// with the inputs they were run on. Widgets bind to it; it is used on one
// goroutine (the UI's) and hands background work its own snapshots.
package model

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// Model is the state of one window.
type Model struct {
	cat *planner.Catalog

	scenario planner.Scenario  // the inputs that parse; never changed in place
	typed    map[string]string // text typed that does not parse, by key
	typedErr map[string]string // why, by key
	gen      uint64            // bumped on every change of scenario

	path   string           // file the scenario came from or was saved to
	source string           // the file's text as last opened or saved, edited in place by Save
	saved  planner.Scenario // as last opened or saved
	stamp  FileStamp        // the file's time and size as last opened or saved

	undo, redo []planner.Scenario
	lastKey    string // the key of the last edit, to merge typing into one undo step

	plan    *planner.Plan // the last plan that built
	planGen uint64        // gen plan was built for
	planErr error         // why gen errGen does not plan
	errGen  uint64
	fits    map[string]bool // switches that fit the planned inputs

	pins   []Pin
	search searchState
}

// New returns a model holding s, untitled.
func New(cat *planner.Catalog, s planner.Scenario) *Model {
	m := &Model{cat: cat, search: searchState{sortCol: SortByCost, selected: -1}}
	m.Load(s, "", "")
	return m
}

// Catalog is the hardware catalog the model checks against.
func (m *Model) Catalog() *planner.Catalog { return m.cat }

// Load replaces the scenario (opened from path, "" for none, whose text
// is source) and forgets the history of the last one.
func (m *Model) Load(s planner.Scenario, path, source string) {
	m.scenario = s.Clone()
	m.saved = m.scenario
	m.path, m.source, m.stamp = path, source, FileStamp{}
	m.typed, m.typedErr = map[string]string{}, map[string]string{}
	m.undo, m.redo, m.lastKey = nil, nil, ""
	m.gen++
}

// Scenario is a snapshot of the inputs that parse; the caller may keep it.
func (m *Model) Scenario() planner.Scenario { return m.scenario.Clone() }

// Gen identifies the current inputs: it changes whenever they do.
func (m *Model) Gen() uint64 { return m.gen }

// Path is the scenario's file, "" when untitled.
func (m *Model) Path() string { return m.path }

// Source is the text of the scenario's file as last opened or saved
// ("" for none): Save edits it in place.
func (m *Model) Source() string { return m.source }

// Saved is the scenario as last opened or saved: what Source holds.
func (m *Model) Saved() planner.Scenario { return m.saved.Clone() }

// MarkSaved records that the current scenario was written to path as
// source.
func (m *Model) MarkSaved(path, source string) {
	m.path, m.source, m.stamp = path, source, FileStamp{}
	m.saved = m.scenario
}

// Dirty reports changes since the scenario was opened or saved.
func (m *Model) Dirty() bool { return !m.scenario.Equal(m.saved) }

// Name is what the window calls the scenario: its file's name, else the
// scenario's name, else "untitled".
func (m *Model) Name() string {
	switch {
	case m.path != "":
		return textfmt.DisplayName(filepath.Base(m.path))
	case m.scenario.Name != "":
		return textfmt.DisplayName(m.scenario.Name)
	}
	return "untitled"
}

// Title is the window title: Name, marked when there are unsaved changes.
func (m *Model) Title() string {
	name := m.Name()
	if m.Dirty() {
		name = "* " + name
	}
	return name + " — Fabric Planner"
}

// commit makes next the scenario after an edit of key. Successive edits of
// one text field merge into one undo step.
func (m *Model) commit(next planner.Scenario, key string, kind Kind) {
	if next.Equal(m.scenario) {
		return
	}
	if !(kind == Text && key != "" && key == m.lastKey) {
		m.undo = append(m.undo, m.scenario)
		if len(m.undo) > maxUndo {
			m.undo = m.undo[1:]
		}
	}
	m.redo = nil
	m.lastKey = key
	if kind != Text {
		m.lastKey = ""
	}
	m.scenario = next
	m.gen++
}

// maxUndo bounds the undo history.
const maxUndo = 200

// Undo goes back one edit; typing that did not parse is dropped.
func (m *Model) Undo() bool { return m.jump(&m.undo, &m.redo) }

// Redo takes again the last edit undone.
func (m *Model) Redo() bool { return m.jump(&m.redo, &m.undo) }

// jump makes the last scenario of from current, keeping the current one
// on to; false when from is empty.
func (m *Model) jump(from, to *[]planner.Scenario) bool {
	if len(*from) == 0 {
		return false
	}
	*to = append(*to, m.scenario)
	m.scenario = (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	m.typed, m.typedErr = map[string]string{}, map[string]string{}
	m.lastKey = ""
	m.gen++
	return true
}

// Replace makes s the scenario as one undoable edit (a design chosen in
// the search, say), keeping the file.
func (m *Model) Replace(s planner.Scenario) {
	m.typed, m.typedErr = map[string]string{}, map[string]string{}
	m.commit(s.Clone(), "", Choice)
}

// Text is what the input key shows: the typed text when it does not
// parse, else the scenario's value.
func (m *Model) Text(key string) string {
	if t, ok := m.typed[key]; ok {
		return t
	}
	return m.textOf(&m.scenario, key)
}

// textOf is the display text of key in scenario s: the planner's value
// in the window's words. s is read, never changed: by pointer, as a
// copy of the whole scenario for each of some 170 inputs was a quarter
// of an edit's garbage besides the plan's.
func (m *Model) textOf(s *planner.Scenario, key string) string {
	if show := shownOf[key]; show != nil {
		return show(m, *s)
	}
	f, ok := planner.FieldByKey(key)
	if !ok {
		return ""
	}
	return shown(key, f.Get(s))
}

// shownOf are the inputs whose text depends on the catalog: what a
// catalog system fixes, the resolved NIC and the switch's ports.
var shownOf = map[string]func(m *Model, s planner.Scenario) string{
	"cluster.gpus_per_server": func(m *Model, s planner.Scenario) string {
		return strconv.Itoa(s.WithSystem(m.cat).Cluster.GPUsPerServer)
	},
	"network.nic_gbps": func(m *Model, s planner.Scenario) string { return speedLabel(s.WithSystem(m.cat).Network.NICGbps) },
	"network.switch":   func(m *Model, s planner.Scenario) string { return m.switchLabel(s, s.Network.Switch) },
	"network.ports_per_nic": func(m *Model, s planner.Scenario) string {
		return strconv.Itoa(m.portsPerNIC(s))
	},
	"network.nics_per_server": func(m *Model, s planner.Scenario) string {
		if m.systemFixed(s) {
			return strconv.Itoa(s.WithSystem(m.cat).Network.NICsPerServer)
		}
		f, _ := planner.FieldByKey("network.nics_per_server")
		return f.Get(&s)
	},
	"pricing.basis": func(m *Model, s planner.Scenario) string { return basisLabels[s.PriceBasis(m.cat)] },
	"workload.model": func(m *Model, s planner.Scenario) string {
		if s.Workload == nil {
			return WorkloadNone
		}
		return s.Workload.Model
	},
}

// systemFixed says whether s names a catalog system, which fixes GPUs and
// NICs per node and the NIC speed.
func (m *Model) systemFixed(s planner.Scenario) bool {
	return s.Cluster.System != "" && m.cat.Systems[s.Cluster.System] != nil
}

// portsPerNIC is the scenario's port split, or the default of the NIC it
// resolves to.
func (m *Model) portsPerNIC(s planner.Scenario) int {
	if s.Network.PortsPerNIC != 0 {
		return s.Network.PortsPerNIC
	}
	if err := s.Validate(m.cat); err != nil {
		return 1
	}
	rs, _ := s.WithSystem(m.cat).Resolve(m.cat)
	return max(rs.Network.PortsPerNIC, 1)
}

// portGbps is the speed of one switch-facing port.
func (m *Model) portGbps(s planner.Scenario) int {
	return s.WithSystem(m.cat).Network.NICGbps / m.portsPerNIC(s)
}

func (m *Model) switchLabel(s planner.Scenario, key string) string {
	sw := m.cat.Switches[key]
	if key == planner.Auto || sw == nil {
		if key != planner.Auto {
			return key
		}
		return SwitchAuto
	}
	g := m.portGbps(s)
	if r := sw.Radix(g); r > 0 {
		return fmt.Sprintf("%s (%d x %dG)", key, r, g)
	}
	return key
}

// Enabled says whether the input key can be edited: a catalog system
// fixes GPUs per server, NIC speed and NICs per server.
func (m *Model) Enabled(key string) bool {
	switch key {
	case "cluster.gpus_per_server", "network.nic_gbps", "network.nics_per_server":
		return !m.systemFixed(m.scenario)
	case "network.servers_per_tor":
		return m.scenario.Network.Style() == planner.TopoToR
	case "network.servers_per_leaf":
		return m.scenario.Network.Style() != planner.TopoToR
	case "network.leaf_pairs":
		return m.scenario.Network.Fabric == planner.Ethernet // MLAG and ESI-LAG are Ethernet
	case "network.peer_link_ports":
		return m.scenario.Network.LeafPairs
	case "network.storage_node_ports":
		return m.scenario.Network.StorageNodes > 0
	}
	return m.scenario.KindAllows(key) // an [inference] or [rl] input under its own kind only
}

// Hint is the text an empty entry shows.
func (m *Model) Hint(key string) string {
	if key == "cluster.server_price_usd" && m.systemFixed(m.scenario) {
		return "US$ per system (default: catalog)"
	}
	if item, ok := strings.CutPrefix(key, "prices."); ok {
		p, _ := m.cat.ItemPrice(item)
		return "catalog: " + textfmt.USDExact(p.USD)
	}
	if k, ok := strings.CutPrefix(key, "networks."); ok {
		if h := networksHint(m.cat, m.scenario, k); h != "" {
			return h
		}
	}
	if f, ok := strings.CutPrefix(key, "facility."); ok {
		if h, ok := m.facilityHint(f); ok {
			return h
		}
	}
	if h, ok := m.reliabilityHint(key); ok {
		return h
	}
	f, _ := FieldOf(key)
	return f.Hint
}

// Options lists the choices of a Choice or Radio input that fit the
// current inputs: derived from the catalog where it decides them, else
// the planner's choices in the window's words.
func (m *Model) Options(key string) []string {
	if opts := optionsOf[key]; opts != nil {
		return opts(m, m.scenario)
	}
	f, ok := planner.FieldByKey(key)
	if !ok || f.Kind != planner.FieldChoice {
		return nil
	}
	var out []string
	for _, c := range f.Choices {
		if _, named := screens[key].labels[c]; c != "" || named {
			out = append(out, shown(key, c))
		}
	}
	return withCurrent(out, m.Text(key))
}

// optionsOf are the choices the catalog and the other inputs decide.
var optionsOf = map[string]func(m *Model, s planner.Scenario) []string{
	"cluster.system": func(m *Model, _ planner.Scenario) []string { return m.cat.SystemKeys() },
	"cluster.gpus_per_server": func(m *Model, _ planner.Scenario) []string {
		return withCurrent([]string{"4", "8", "16", "32", "72"}, m.Text("cluster.gpus_per_server"))
	},
	"network.nic_gbps": func(m *Model, s planner.Scenario) []string {
		var out []string
		for _, g := range m.cat.NICSpeeds(s.Network.Fabric) {
			out = append(out, speedLabel(g))
		}
		return withCurrent(out, m.Text("network.nic_gbps"))
	},
	"network.switch": func(m *Model, s planner.Scenario) []string {
		out := []string{SwitchAuto}
		for _, sw := range m.cat.SwitchesFor(s.Network.Fabric, m.portGbps(s)) {
			if m.fits == nil || m.fits[sw.Key] || sw.Key == s.Network.Switch {
				out = append(out, m.switchLabel(s, sw.Key))
			}
		}
		return withCurrent(out, m.Text("network.switch"))
	},
	"network.spine_switch": func(m *Model, s planner.Scenario) []string {
		return m.tierSwitchOptions(s, "network.spine_switch", SwitchAsLeaf, s.Network.UplinkSpeed(m.portGbps(s)))
	},
	"network.core_switch": func(m *Model, s planner.Scenario) []string {
		return m.tierSwitchOptions(s, "network.core_switch", SwitchAsSpine, s.Network.CoreSpeed(s.Network.UplinkSpeed(m.portGbps(s))))
	},
	"network.planes": func(m *Model, s planner.Scenario) []string {
		ws := s.WithSystem(m.cat)
		ports := ws.Network.NICsPerServer
		if ports == 0 {
			ports = ws.Cluster.GPUsPerServer
		}
		ports *= m.portsPerNIC(s)
		var out []string
		for d := 1; d <= ports && d <= planner.MaxPlanes; d++ {
			if ports%d == 0 {
				out = append(out, strconv.Itoa(d))
			}
		}
		return withCurrent(out, m.Text("network.planes"))
	},
	"network.ports_per_nic": (*Model).portSplits,
	"workload.model": func(m *Model, _ planner.Scenario) []string {
		return append([]string{WorkloadNone}, planner.SortedKeys(m.cat.JCT.Models)...)
	},
	"workload.gpu": func(m *Model, _ planner.Scenario) []string { return planner.SortedKeys(m.cat.JCT.GPUs) },
	"workload.precision": func(m *Model, _ planner.Scenario) []string {
		if g := m.cat.JCT.GPUs[m.Text("workload.gpu")]; g != nil {
			return withCurrent(g.Precisions(), m.Text("workload.precision"))
		}
		return []string{perf.PrecisionBF16}
	},
}

// portSplits are the port splits of the NICs at the scenario's speed.
func (m *Model) portSplits(s planner.Scenario) []string {
	ws := s.WithSystem(m.cat)
	seen := map[int]bool{}
	var splits []int
	for _, k := range m.cat.NICKeys() {
		nic := m.cat.NICs[k]
		if nic.Gbps != ws.Network.NICGbps || (s.Network.NIC != planner.Auto && s.Network.NIC != k) {
			continue
		}
		for _, p := range nic.PortSplits(s.Network.Fabric) {
			if !seen[p] {
				seen[p] = true
				splits = append(splits, p)
			}
		}
	}
	var out []string
	slices.Sort(splits)
	for _, p := range splits {
		out = append(out, strconv.Itoa(p))
	}
	return withCurrent(out, m.Text("network.ports_per_nic"))
}

func withCurrent(opts []string, cur string) []string {
	for _, o := range opts {
		if o == cur {
			return opts
		}
	}
	if cur == "" {
		return opts
	}
	return append(opts, cur)
}

// PriceKeys lists the catalog items whose price can be overridden.
func (m *Model) PriceKeys() []string { return m.cat.PriceKeys() }

// PriceOverrides describes the prices in force that differ from the
// catalog's, sorted by item.
func (m *Model) PriceOverrides() string {
	if len(m.scenario.Prices) == 0 {
		return "No overrides: every price is the catalog's."
	}
	var parts []string
	for _, k := range planner.SortedKeys(m.scenario.Prices) {
		parts = append(parts, k+" "+textfmt.USDExact(m.scenario.Prices[k]))
	}
	return "Overrides: " + strings.Join(parts, ", ")
}

// ResetPrices drops every price override, as one undoable edit.
func (m *Model) ResetPrices() {
	next := m.scenario.Clone()
	next.Prices = nil
	for k := range m.typed {
		if strings.HasPrefix(k, "prices.") {
			delete(m.typed, k)
			delete(m.typedErr, k)
		}
	}
	m.commit(next, "", Choice)
}

// SetQuotes prices the scenario at vendor quotes qs (nil drops them), as
// one undoable edit; the scenario keeps the file's path, so a save and
// a later open read the same quotes.
func (m *Model) SetQuotes(qs *planner.Quotes) {
	next := m.scenario.Clone()
	next.Quotes, next.Pricing.Quotes = qs, ""
	if qs != nil {
		next.Pricing.Quotes = qs.Path
	}
	m.commit(next, "", Choice)
}

// QuotesSummary says which quotes are in force: how many, from which
// file, and how many have expired.
func (m *Model) QuotesSummary() string {
	qs := m.scenario.Quotes
	if qs == nil {
		if m.scenario.Pricing.Quotes != "" {
			return "Quotes file " + m.scenario.Pricing.Quotes + " was not read: catalog prices."
		}
		return "No quotes: catalog prices."
	}
	expired := 0
	for i := range qs.Quotes {
		if qs.Quotes[i].Expired(qs.Today) {
			expired++
		}
	}
	s := fmt.Sprintf("%s from %s", textfmt.Plural(len(qs.Quotes), "quote"), filepath.Base(qs.Path))
	if expired > 0 {
		s += fmt.Sprintf(", %d expired (still used, flagged in the BOM)", expired)
	}
	return s + "."
}

// tierSwitchOptions are the choices of a spine's or core's switch: the
// tier below's (blank, shown as same) and every switch of the fabric with
// ports at the tier's speed gbps.
func (m *Model) tierSwitchOptions(s planner.Scenario, key, same string, gbps int) []string {
	out := []string{same, SwitchAuto}
	for _, sw := range m.cat.SwitchesFor(s.Network.Fabric, gbps) {
		out = append(out, sw.Key)
	}
	return withCurrent(out, m.Text(key))
}
