package planner

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/memo"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
	"fabricplan/planner/resilience"
	"fabricplan/planner/serve"
)

// Tier names used in plans, BOMs and charts.
const (
	TierLeaf  = fabric.TierLeaf
	TierSpine = fabric.TierSpine
	TierCore  = fabric.TierCore
)

// SwitchTier is one switching tier of the whole fabric (all planes).
type SwitchTier struct {
	Name     string // TierLeaf, TierSpine or TierCore
	Switches int    // switches in this tier, all planes
	// Per switch, worst case: ports used toward servers or the tier below,
	// and toward the tier above. Down+Up never exceeds Radix.
	DownPorts, UpPorts int
	// Links ending on this tier from below and from above, all switches.
	DownLinks, UpLinks int
	Radix              int
	// DownGbps and UpGbps are the speeds of the ports toward the tier
	// below and the tier above (they differ on a leaf with uplink_gbps).
	DownGbps, UpGbps int
}

// switchTier sums the loads of one tier over all planes.
func switchTier(name string, loads []fabric.Load, planes, radix int) SwitchTier {
	t := SwitchTier{Name: name, Radix: radix}
	for _, l := range loads {
		t.Switches += l.Switches * planes
		t.DownLinks += l.Switches * l.Down * planes
		t.UpLinks += l.Switches * l.Up * planes
		if l.Switches > 0 {
			t.DownPorts = max(t.DownPorts, l.Down)
			t.UpPorts = max(t.UpPorts, l.Up)
		}
	}
	return t
}

// LinkTier is one tier of links with its cabling.
type LinkTier struct {
	Name   string // "server_leaf", "leaf_spine" or "spine_core"
	Links  int
	Medium Medium
	Metres float64
	// Cable is the catalog key of each link's cable (the fibre with
	// transceivers); LowerModule and UpperModule the transceivers at the
	// server or lower switch end and at the upper switch end ("" for
	// copper and AOC).
	Cable, LowerModule, UpperModule string
	// LowerModules and UpperModules count those transceivers, all
	// planes (a twin-port module serves up to two links of its end).
	LowerModules, UpperModules int
	// LowerParts and UpperParts count those transceivers by part
	// (catalog key) when a hall lays the links out, as one tier may mix
	// multimode and single-mode modules; nil without a layout.
	LowerParts, UpperParts map[string]int
	// Runs groups the links by medium, part and length sold when the
	// plan is laid out in a hall (Metres is then the longest, Medium and
	// Cable the commonest); nil without a layout.
	Runs []LinkRun
}

// Links counts links (one cable each) per tier, all planes.
type Links struct {
	ServerLeaf int `json:"server_leaf"`
	LeafSpine  int `json:"leaf_spine"`
	SpineCore  int `json:"spine_core"`
	// Storage is the storage nodes' links to the compute leaves and Peer
	// the leaf pairs' peer links: cables the BOM buys and the cable map
	// lists beside the tiers' (SideLinks).
	Storage int `json:"storage,omitempty"`
	Peer    int `json:"peer,omitempty"`
	// Total is every cable: the tiers', storage and peer links.
	Total int `json:"total"`
}

// Fabric is the links of the fabric's tiers: Total less the storage and
// peer links, the links WalkCables walks.
func (l Links) Fabric() int { return l.ServerLeaf + l.LeafSpine + l.SpineCore }

// Sum is every link counted: the tiers', storage and peer links (what
// Total holds once set).
func (l Links) Sum() int { return l.Fabric() + l.Storage + l.Peer }

// Parts names the links of each kind: the tiers', then the storage and
// peer links where the plan has them.
func (l Links) Parts() string {
	s := fmt.Sprintf("server-leaf %s, leaf-spine %s, spine-core %s", textfmt.Int(l.ServerLeaf), textfmt.Int(l.LeafSpine), textfmt.Int(l.SpineCore))
	if l.Storage > 0 {
		s += ", storage " + textfmt.Int(l.Storage)
	}
	if l.Peer > 0 {
		s += ", peer " + textfmt.Int(l.Peer)
	}
	return s
}

// of points at the count of the link tier called name (server_leaf,
// leaf_spine or spine_core).
func (l *Links) of(name string) *int {
	switch name {
	case "server_leaf":
		return &l.ServerLeaf
	case "leaf_spine":
		return &l.LeafSpine
	}
	return &l.SpineCore
}

// Money is a cost breakdown in US dollars.
type Money struct {
	NICs         float64 `json:"nics"`
	Switches     float64 `json:"switches"`
	Transceivers float64 `json:"transceivers"`
	Cables       float64 `json:"cables"`
	Total        float64 `json:"total"`
	PerGPU       float64 `json:"per_gpu"` // per GPU bought (see Plan.GPUsBought)
	// FabricShare is the back-end fabric's share of cluster capex (fabric
	// plus servers), 0..1; 0 when no server price is given.
	FabricShare float64 `json:"fabric_share"`
	// LowUSD and HighUSD bound Total with every price at the low and at
	// the high end of its range.
	LowUSD  float64 `json:"low"`
	HighUSD float64 `json:"high"`
	// Drivers are the three prices whose ranges move Total most.
	Drivers []PriceDriver `json:"drivers"`
	// ComputeUSD is the servers' or systems' price without NICs already
	// counted in the fabric; 0 when no price is known.
	ComputeUSD float64 `json:"compute_usd"`
	// Basis is the price basis: "street" (third-party optics, retail
	// prices) or "list" (branded optics at the vendor premium).
	Basis string `json:"basis"`
}

// Watts is a power breakdown in watts.
type Watts struct {
	NICs         float64 `json:"nics"`
	Switches     float64 `json:"switches"`
	Transceivers float64 `json:"transceivers"`
	Cables       float64 `json:"cables"`
	Total        float64 `json:"total"`
}

// Plan is the sized back-end fabric of one scenario: counts, bill of
// materials, cost and power. Counts cover all planes.
type Plan struct {
	Scenario Scenario // the inputs with every default filled in
	NIC      *NIC
	Switch   *Switch // the leaves' model (every tier's unless named below)
	// SpineSwitch and CoreSwitch are the spines' and cores' models where
	// the scenario names another than the leaves' (nil: the leaves'); read
	// a tier's model with SwitchOf.
	SpineSwitch, CoreSwitch *Switch
	// System is the catalog system (nil: custom servers); Systems is how
	// many hold the GPUs (whole racks for rack-scale systems), and
	// Servers the compute nodes (servers or trays) the fabric connects.
	System  *System
	Systems int
	// volume is the price data a plan on the volume basis prices its
	// systems by (nil: another basis), set when the plan is priced.
	volume *PriceData
	// SanityBands put the plan's cost per GPU and capex share beside the
	// published analyst bands (data/prices.toml).
	SanityBands []SanityCheck

	GPUs, Servers int
	ServerPorts   int // back-end ports per server
	PortGbps      int // speed of each NIC port and switch port
	// UplinkGbps is the speed of the switch-to-switch ports (PortGbps
	// unless the scenario's uplink_gbps asks another).
	UplinkGbps int
	// CoreGbps is the speed of the spine-to-core ports (UplinkGbps
	// unless the scenario's core_uplink_gbps asks another).
	CoreGbps      int
	LaneGbps      int // SerDes lane rate every link runs (NIC, switch and modules share it)
	Planes        int
	RailsPerPlane int // server ports per plane
	NICs          int
	NICPorts      int // back-end NIC ports added by the fabric
	Tiers         int
	Pods          int // per plane; 1 below three tiers
	// ServersPerUnit is the servers of one scalable unit (leaf group).
	ServersPerUnit int
	// Unit is the scalable unit the per-SU table uses (the system's
	// reference unit where it publishes one) and the leaf alignment.
	Unit  UnitLayout
	Units int // scalable units per plane, partial ones counted

	SwitchTiers []SwitchTier // leaf first
	// Wiring says, per upper tier, whether its links are balanced or
	// near-balanced (WiringBalanced, WiringNear).
	SpineWiring, CoreWiring string
	// Headroom lists what a reference design provisions beyond this
	// minimal plan, with the reason; never included in the counts.
	Headroom []Headroom
	// StrictSpines is the spines (all planes) the system's reference
	// design adds by keeping strict balance at any count, over the
	// fewest that carry the links; included in the counts.
	StrictSpines int
	LinkTiers    []LinkTier // server_leaf first
	Links        Links
	PortsUsed    int // switch ports with a link
	PortsTotal   int // switch ports installed
	// LeafStorage is the storage nodes cabled to the compute leaves
	// (network.storage_nodes); nil: none.
	LeafStorage *LeafStorage
	// LeafPairs is the top-of-rack leaves' pairs and peer links
	// (network.leaf_pairs); nil: none.
	LeafPairs *LeafPairs

	ServerTransceivers, SwitchTransceivers int
	// Spares are the spare parts the BOM holds beside those in use.
	Spares SpareParts
	BOM    []BOMLine
	Cost   Money
	Power  Watts
	Notes  []string
	// Cheaper lists designs from the search's own candidates (leaf
	// alignment, planes, port split, tiers, switch) that give the same
	// ports and ratio for less; see CheckCheaper.
	Cheaper []Cheaper
	// JCT is the job-time estimate for the scenario's workload (or the
	// default one); nil when the workload does not fit the cluster.
	JCT *perf.JCT
	// NoJCT says why the scenario's own workload has no estimate on this
	// cluster (its parallelism or batch does not fit the GPUs; field
	// errors name the input and the fix); the fabric is planned all the
	// same. Nil when JCT is set.
	NoJCT error
	// Inference and RL are the serving and RL estimates of a scenario of
	// that workload kind (nil otherwise, or without
	// data/inference.toml).
	Inference *serve.Result
	RL        *serve.RLResult
	// Resilience is the failure what-if and goodput (nil without
	// reliability data in the catalog).
	Resilience *resilience.Resilience
	// Networks is the whole cluster's networks beside the back end and
	// what the back end adds (nil without side_defaults in the catalog).
	Networks *Networks

	layout fabric.Layout // one plane's wiring, for the cable map and diagram
	// tierLoads is one plane's switches by ports used, per SwitchTiers.
	tierLoads [][]fabric.Load
	// Hall is the data-hall layout (nil without a [facility] table);
	// media picks each link's medium in it.
	Hall  *hall.Hall
	media *mediaChooser
	// linksCounted: the upper tiers' links were counted by class, not
	// walked (LinksCounted).
	linksCounted bool
	// hallRun carries the hall memo's key or find from layOut to the
	// link walk (hallmemo.go).
	hallRun *hallMemoRun
	// fabricView is the back end as the JCT model sees it (perfNetwork),
	// worked out once a build and read by its job estimate, front-end
	// step and what-if: nil on every plan handed out, whose
	// fields a caller may change. A back end kept in the memo holds its
	// own (never written once set), so a plan that takes it works out
	// none.
	fabricView *perf.Network
}

// Switches returns the switch count of a tier (0 when absent).
func (p *Plan) Switches(tier string) int {
	for _, t := range p.SwitchTiers {
		if t.Name == tier {
			return t.Switches
		}
	}
	return 0
}

// TotalSwitches is the number of switches in all tiers and planes.
func (p *Plan) TotalSwitches() int {
	n := 0
	for _, t := range p.SwitchTiers {
		n += t.Switches
	}
	return n
}

// Resolve fills the scenario's defaults that depend on other fields: NICs
// per server, NIC, ports per NIC and media. It assumes Validate passed.
func (s Scenario) Resolve(cat *Catalog) (Scenario, []string) {
	var notes []string
	n := &s.Network
	if n.NICsPerServer == 0 {
		n.NICsPerServer = s.Cluster.GPUsPerServer
	}
	nic := s.chooseNIC(cat)
	if n.PortsPerNIC == 0 && nic != nil {
		n.PortsPerNIC = defaultSplit(nic, n.Fabric)
		if n.PortsPerNIC != 1 {
			notes = append(notes, fmt.Sprintf("ports_per_nic is %d: %s runs %s only as %d x %dG",
				n.PortsPerNIC, nic.Name, n.Fabric, n.PortsPerNIC, n.NICGbps/n.PortsPerNIC))
		}
	}
	// Media left out are chosen per switch when the fabric is sized: the
	// cheapest offered that reaches (see chooseMedia). Lengths are the
	// hall's, or one per tier without one.
	if s.laysHall(cat) {
		return s, notes
	}
	n.flatLengths()
	return s, notes
}

// flatLengths gives each tier left without a length its default one:
// 2 m (top of rack) or 20 m server-leaf, 50 m leaf-spine, 150 m
// spine-core.
func (n *Network) flatLengths() {
	m := &n.Media
	if m.ServerLeafM == 0 {
		m.ServerLeafM = defaultServerLeafRailM
		if !n.RailOptimized {
			m.ServerLeafM = defaultServerLeafToRM
		}
	}
	if m.LeafSpineM == 0 {
		m.LeafSpineM = defaultLeafSpineM
	}
	if m.SpineCoreM == 0 {
		m.SpineCoreM = defaultSpineCoreM
	}
}

// resolvedFlat is a resolved scenario priced at one length per tier
// (FlatLinks), with the default lengths a hall would have measured.
func (s Scenario) resolvedFlat() Scenario {
	s = s.FlatLinks()
	s.Network.flatLengths()
	return s
}

// Build validates the scenario and sizes its fabric. With switch "auto" it
// tries every switch of the fabric that has ports at the needed speed and
// keeps the cheapest fabric; with NIC "auto" the cheapest matching NIC.
// The plan carries its JCT estimate and its failure what-if.
func Build(s Scenario, cat *Catalog) (*Plan, error) {
	return build(s, cat, needAll)
}

// Builds reports whether s plans: Build's error, from a lean build that
// leaves out what only a shown plan needs (failure what-if, networks
// beside the back end, packed alternative, the job's memory fix and
// breakdown).
func Builds(s Scenario, cat *Catalog) error {
	_, err := build(s, cat, needLean)
	return err
}

// BuildOptions say what a build computes besides what every plan has:
// the back end's sizing, bill, cost and power, and the job's planned and
// baseline step with its memory verdict. A caller asks only for what it
// reads; what a build leaves out stays nil. The zero value is the
// leanest build (Builds'); Build asks for everything.
type BuildOptions struct {
	// Packed prices the packed alternative of a rack-aligned plan
	// (Plan.Cheaper).
	Packed bool
	// Networks sizes the networks beside the back end (Plan.Networks)
	// and times the job on the front end.
	Networks bool
	// Resilience runs the failure what-if and goodput (Plan.Resilience),
	// with the checkpoint write time the storage network allows when
	// Networks sizes it.
	Resilience bool
	// JCT is what the job-time estimate holds beyond its steps: the
	// memory fix, the breakdown and findings, and a memo of the
	// workload's own figures shared by many builds of one workload.
	JCT perf.Parts
	// Bands puts the cost beside the analysts' bands and ranks the prices
	// that move it most (Plan.SanityBands, Cost.Drivers).
	Bands bool
	// Recall takes the back end and its side networks from the memo of
	// recent shown plans when the inputs match, and keeps them otherwise.
	Recall bool
	// Check, when set, validates the scenario in place of
	// Scenario.Validate, given its GPU count: GPUCountCheck's check of
	// a base the scenario differs from only in that count (a sweep's
	// points).
	Check func(gpus int) error
}

// BuildWith is Build computing only what o asks for; what it leaves out
// stays nil (Plan.Resilience, Plan.Networks, Plan.Cheaper, JCT.Fix,
// JCT.Effects, JCT.Findings) and adds no notes. Build(s, cat) is
// BuildWith with every option set.
func BuildWith(s Scenario, cat *Catalog, o BuildOptions) (*Plan, error) {
	return build(s, cat, o)
}

// validate is s.Validate(cat), by n.Check where a sweep gives one.
func (n BuildOptions) validate(s *Scenario, cat *Catalog) error {
	if n.Check != nil {
		return n.Check(s.Cluster.GPUs)
	}
	return s.Validate(cat)
}

// What builds ask for: a shown plan everything; a check that a scenario
// plans only the back end and the job's steps. (A sweep, the search and
// the style comparison ask through BuildWith.)
var (
	needAll  = BuildOptions{Packed: true, Networks: true, Resilience: true, JCT: jctParts{Fix: true, Detail: true}, Bands: true, Recall: true}
	needLean = BuildOptions{}
)

// build is Build computing only what n asks for; what it leaves out
// stays nil (Plan.Resilience, Plan.Networks, JCT.Fix, JCT.Effects,
// JCT.Findings) and adds no notes.
func build(s Scenario, cat *Catalog, n BuildOptions) (*Plan, error) {
	s = s.Clone() // the plan keeps its own inputs: later edits of s never change it
	s.Network = s.Network.withStyle()
	if err := n.validate(&s, cat); err != nil {
		return nil, err
	}
	if s.givesLengths() {
		s.flatLinks = true // the lengths given stand: no hall
	}
	rs, notes := s.WithSystem(cat).Resolve(cat)
	nic := rs.chooseNIC(cat)
	if nic == nil {
		return nil, fielderr.New("network.nic_gbps", "choose another NIC speed or port split",
			"no %dG %s NIC with %d ports in the catalog", rs.Network.NICGbps, rs.Network.Fabric, rs.Network.PortsPerNIC)
	}
	best, ok, err := n.backEnd(rs, cat, nic)
	// NIC auto: where the cheapest NIC joins no switch (its lanes or
	// modules do not match), the next one that does is used.
	if !ok && s.Network.NIC == Auto && s.system(cat) == nil {
		var alt nicBuild
		if alt, ok, err = buildOtherNIC(s, cat, nic, n.Bands, err); ok {
			best, rs, notes = alt.plan, alt.rs, alt.notes
		}
	}
	if !ok {
		return nil, err
	}
	best.Notes = withNotes(notes, best.Notes)
	best.Notes = append(best.Notes, rackScaleHint(rs, cat)...)
	best.viewFabric()
	if err := best.estimateJCT(cat, n.JCT); err != nil {
		return nil, err
	}
	rel := best.sideNetworks(cat, n)
	if n.Packed { // after the side networks: its note is written in the plan's money scale
		best.comparePacked(rs, cat)
	}
	best.estimateServing(cat)
	if err := best.checkFinite(); err != nil {
		return nil, err
	}
	if n.Resilience {
		best.analyseResilience(rel, cat.JCT)
	}
	best.fabricView = nil // the caller may change the plan's fabric
	return best, nil
}

// laterNotes is how many notes a build's plan has room for beyond the
// resolved scenario's and the back end's: those added after them (a
// rack-scale hint, the default workload's two, the checkpoint's), so
// that they do not grow the slice one by one.
const laterNotes = 4

// withNotes is notes then the back end's, in a slice of their own with
// room for the notes a build adds later; nil when both are empty, as
// append gave (a plan without notes writes them as null).
func withNotes(notes, backEnd []string) []string {
	if len(notes)+len(backEnd) == 0 {
		return nil
	}
	all := make([]string, 0, len(notes)+len(backEnd)+laterNotes)
	return append(append(all, notes...), backEnd...)
}

// nicBuild is a plan built on another NIC than the cheapest, with the
// scenario resolved for it and its notes.
type nicBuild struct {
	plan  *Plan
	rs    Scenario
	notes []string
}

// buildOtherNIC builds on the NIC candidates after nic, the cheapest,
// which joined no switch, and returns the first that does. err is
// nic's error, replaced by a later NIC's when that NIC joins a fabric
// that is too large.
func buildOtherNIC(s Scenario, cat *Catalog, nic *NIC, bands bool, err error) (nicBuild, bool, error) {
	for _, alt := range s.nicCandidates(cat) {
		if alt == nic {
			continue
		}
		as := s
		as.Network.NIC = alt.Key
		ars, anotes := as.Resolve(cat)
		p, aok, aerr := buildOn(ars, cat, alt, bands)
		if errors.Is(aerr, ErrTooLarge) {
			err = aerr // a NIC that joins, on a fabric too large: say that
		}
		if aok {
			notes := append(anotes, fmt.Sprintf("NIC auto: %s, the cheapest %dG NIC that joins %s (%s does not)", alt.Key, alt.Gbps, p.Switch.Key, nic.Key))
			return nicBuild{plan: p, rs: ars, notes: notes}, true, err
		}
	}
	return nicBuild{}, false, err
}

// sideNetworks sizes the networks beside the back end when n asks for
// them, and returns the reliability data the failure what-if uses: with
// the checkpoint write time the storage network allows (sized alone when
// only the what-if is asked for).
func (p *Plan) sideNetworks(cat *Catalog, n BuildOptions) *resilience.Reliability {
	switch {
	case n.Networks:
		if p.Networks == nil { // else sized with the back end (buildBackEnd)
			p.Networks = p.sizeNetworks(cat)
		}
		return p.networksJCT(cat)
	case n.Resilience:
		return p.storageCheckpoint(cat)
	}
	return cat.Reliability
}

// cheapestOn builds on each candidate switch and returns the cheapest
// plan (see better) with the errors of those that do not fit. Several
// candidates laid out in a hall are compared at one length per tier
// (FlatLinks: a hall walk per switch would cost seconds at 100,000
// GPUs); the cheapest there is then laid out, or the next one when its
// hall cannot be cabled.
func cheapestOn(rs Scenario, cat *Catalog, nic *NIC, candidates []*Switch) (*Plan, []error) {
	cmp := rs
	if len(candidates) > 1 && rs.laysHall(cat) {
		cmp = rs.resolvedFlat()
	}
	var built []*Plan
	var errs []error
	for _, sw := range candidates {
		p, err := buildWith(cmp, cat, nic, sw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		built = append(built, p)
	}
	slices.SortStableFunc(built, comparePlans)
	if cmp.flatLinks == rs.flatLinks || len(built) == 0 {
		if len(built) == 0 {
			return nil, errs
		}
		return built[0], errs
	}
	var hallErrs []error
	for _, f := range built {
		p, err := buildWith(rs, cat, nic, f.Switch)
		if err == nil {
			return p, errs
		}
		hallErrs = append(hallErrs, err)
	}
	return nil, append(errs, hallErrs...)
}

// better orders auto-chosen plans: cheaper, then fewer switches, then key.
func better(a, b *Plan) bool {
	if a.Cost.Total != b.Cost.Total {
		return a.Cost.Total < b.Cost.Total
	}
	if a.TotalSwitches() != b.TotalSwitches() {
		return a.TotalSwitches() < b.TotalSwitches()
	}
	return a.Switch.Key < b.Switch.Key
}

// comparePlans is better as a sort's comparison: the better plan first.
func comparePlans(a, b *Plan) int {
	switch {
	case better(a, b):
		return -1
	case better(b, a):
		return 1
	}
	return 0
}

func switchSpeeds(cat *Catalog, f Fabric) []int {
	seen := map[int]bool{}
	var out []int
	for _, k := range cat.SwitchKeys() {
		if s := cat.Switches[k]; s.Fabric == f {
			for _, g := range s.Speeds() {
				if !seen[g] {
					seen[g] = true
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// buildWith sizes the fabric on one switch model. A hall laid out by
// default (no [facility] table) that cannot be cabled (a run beyond
// every medium) leaves the plan at one length per tier, with a note
// naming why; a hall the scenario asks for keeps its error.
func buildWith(s Scenario, cat *Catalog, nic *NIC, sw *Switch) (*Plan, error) {
	p, err := sizeWith(s, cat, nic, sw)
	if err == nil || s.Facility != nil || !s.laysHall(cat) {
		return p, err
	}
	flat, ferr := sizeWith(s.resolvedFlat(), cat, nic, sw)
	if ferr != nil {
		return nil, err
	}
	flat.Notes = append(flat.Notes, fmt.Sprintf("no hall layout (each tier's links at one length, network.media): the default hall cannot be cabled: %v", err))
	return flat, nil
}

// sizeWith is buildWith without the fallback: with storage nodes on the
// leaves, the cheapest of their placements (cheapestStorage).
func sizeWith(s Scenario, cat *Catalog, nic *NIC, sw *Switch) (*Plan, error) {
	z, err := sizePlane(s, cat, nic, sw)
	if err != nil {
		return nil, err
	}
	p, err := z.plan(s, cat, nic, sw)
	if err != nil || s.Network.StorageNodes == 0 {
		return p, err
	}
	return cheapestStorage(p, s, cat, nic, sw)
}

// planeSizing is a fabric sized on one switch model before it is built:
// its plane as fabric.Size gives it and what went into its spec.
type planeSizing struct {
	spec                            fabricSpec
	pl                              fabric.Plane
	port, radix, lane, uplink, core int
	systems, servers, serverPorts   int
	networks, rails                 int
	spineSw, coreSw                 *Switch
	unit                            UnitLayout
	alignNote                       string
}

// sizePlane sizes s's plane on sw (fabric.Size on its spec): the cheap
// first half of sizeWith, with no hall, links or BOM. A plane too large
// for three tiers is a tooLarge error.
func sizePlane(s Scenario, cat *Catalog, nic *NIC, sw *Switch) (planeSizing, error) {
	return sizePlaneAt(s, cat, nic, sw, placeFirst)
}

// sizePlaneAt is sizePlane with the storage nodes on the leaves where
// place says (errNoPlace where that does not apply).
func sizePlaneAt(s Scenario, cat *Catalog, nic *NIC, sw *Switch, place storagePlace) (planeSizing, error) {
	var z planeSizing
	n := s.Network
	port := n.NICGbps / n.PortsPerNIC
	lane, err := joinLanes(cat, nic, sw, port)
	if err != nil {
		return z, err
	}
	radix := sw.Radix(port)
	uplink := n.UplinkSpeed(port)
	core := n.CoreSpeed(uplink)
	leafW := fabric.WeightsOf(port, uplink)
	down, up, _ := LeafRatio(n.Oversubscription)
	leafDown, leafUp := fabric.SplitPorts(radix, leafW, down, up)
	if leafDown == 0 {
		return z, fielderr.New("network.oversubscription", fmt.Sprintf("use a ratio whose parts add up to at most %d", radix/leafW.Up),
			"%s needs %d ports per leaf; %s has %d at %dG", n.Oversubscription, down+up, sw.Key, radix, port)
	}
	systems, servers := s.nodes(cat)
	serverPorts := n.NICsPerServer * n.PortsPerNIC
	networks, rails := railNetworks(n, serverPorts/n.Planes)
	spineSw, coreSw := s.tierSwitches(cat, sw)
	spec := fabricSpec{Spec: fabric.Spec{Servers: servers, Rails: rails, Radix: radix, Down: leafDown, Up: leafUp, RatioD: down, RatioU: up,
		RailOptimized: n.RailOptimized, Tiers: n.Tiers, UpRadix: orSwitch(spineSw, sw).Radix(uplink), CoreRadixAt: orSwitch(coreSw, sw).Radix(core),
		LeafW: leafW, SpineW: fabric.WeightsOf(uplink, core), ReservedSlots: s.ufmNodeSlots(cat),
		CoreCage: orSwitch(coreSw, sw).LinksPerCage(core)}}
	spec.StrictSpines = strictSpinesOn(s.system(cat), sw, spineSw)
	unit, alignNote, err := spec.shape(s, cat, sw, port, servers, place)
	if err != nil {
		return z, err
	}
	pl, err := fabric.Size(spec.Spec)
	if err != nil {
		var nf fabric.NoFitError
		if errors.As(err, &nf) {
			return z, tooLarge(s, cat, nic, sw, port, radix, spec.Spec, nf.Tiers)
		}
		return z, fielderr.New("network.rail_optimized", "", "%s: %v", sw.Key, err)
	}
	return planeSizing{spec: spec, pl: spec.pairedPlane(pl, rails), port: port, radix: radix, lane: lane, uplink: uplink, core: core,
		systems: systems, servers: servers, serverPorts: serverPorts, networks: networks, rails: rails,
		spineSw: spineSw, coreSw: coreSw, unit: unit, alignNote: alignNote}, nil
}

// plan builds the sized plane z into s's plan: its tiers, notes, links,
// hall and BOM (the second half of sizeWith).
func (z planeSizing) plan(s Scenario, cat *Catalog, nic *NIC, sw *Switch) (*Plan, error) {
	n, spec, pl := s.Network, z.spec, z.pl
	port, radix, lane, uplink, core := z.port, z.radix, z.lane, z.uplink, z.core
	systems, servers, serverPorts, networks, rails := z.systems, z.servers, z.serverPorts, z.networks, z.rails
	spineSw, coreSw, unit, alignNote := z.spineSw, z.coreSw, z.unit, z.alignNote
	p := &Plan{
		Scenario: s, NIC: nic, Switch: sw, SpineSwitch: spineSw, CoreSwitch: coreSw, System: s.system(cat), Systems: systems,
		GPUs: s.Cluster.GPUs, Servers: servers, ServerPorts: serverPorts,
		PortGbps: port, UplinkGbps: uplink, CoreGbps: core, LaneGbps: lane, Planes: n.Planes * networks, RailsPerPlane: rails,
		NICs: servers * n.NICsPerServer, NICPorts: servers * serverPorts,
		Tiers: pl.Tiers, Pods: pl.Pods, ServersPerUnit: pl.ServersPerGroup,
		Units: ceilDiv(servers, pl.ServersPerGroup),
	}
	p.Unit = unit.withGroup(pl.ServersPerGroup, s.Cluster.GPUsPerServer)
	if alignNote != "" {
		p.Notes = append(p.Notes, alignNote)
	}
	if p.Pods == 0 {
		p.Pods = 1
	}
	p.addTiers(pl, n.Media, radix)
	p.unitHeadroom()
	if sys := p.System; sys != nil {
		if held := systems * sys.GPUs; held != s.Cluster.GPUs {
			p.Notes = append(p.Notes, fmt.Sprintf("%s GPUs need %d %s (%s GPUs, %s more than asked): the fabric connects all %s nodes",
				textfmt.Int(s.Cluster.GPUs), systems, sys.Name, textfmt.Int(held), textfmt.Int(held-s.Cluster.GPUs), textfmt.Int(servers)))
		}
	}
	p.Notes = append(p.Notes, wiringNotes(p, pl)...)
	p.Notes = append(p.Notes, p.unitWords(fabric.PartialLeafNote(pl, spec.Up, n.Oversubscription))...)
	p.Notes = append(p.Notes, ufmSlotNote(spec.Spec, pl.ServersPerGroup, pl.Tiers)...)
	p.Notes = append(p.Notes, leafServersNote(n, spec.Spec, pl.Tiers)...)
	p.Notes = append(p.Notes, minSpinesNote(n, spec.Spec, pl)...)
	p.Notes = append(p.Notes, spineRatioNote(n, pl.Tiers)...)
	p.Notes = append(p.Notes, railOnlyNote(p, networks)...)
	p.Notes = append(p.Notes, dualPlaneNote(n)...)
	p.Notes = append(p.Notes, coreSpeedNote(n, pl.Tiers)...)
	p.Notes = append(p.Notes, slowUplinkNote(p)...)
	P := p.Planes
	p.Links = Links{ServerLeaf: pl.ServerLeaf * P, LeafSpine: pl.LeafSpine * P, SpineCore: pl.SpineCore * P}
	p.PortsUsed = p.Links.ServerLeaf + 2*p.Links.LeafSpine + 2*p.Links.SpineCore
	p.PortsTotal = p.TotalSwitches() * radix
	p.addLeafStorage(spec)
	p.addLeafPairs(spec)
	p.Links.Total = p.Links.Sum()
	p.setTierSpeeds(spec)
	if err := p.checkTierLanes(cat); err != nil {
		return nil, err
	}
	if err := p.layOut(cat); err != nil {
		return nil, err
	}
	if err := p.fillBOM(cat, pl); err != nil {
		return nil, err
	}
	return p, nil
}

// partialUnitPrefix opens the leaf headroom of a partial scalable unit
// (fabric's, in its leaf groups).
const partialUnitPrefix = fabric.PartialUnitPrefix

// unitHeadroom says the partial scalable unit's leaf headroom in the
// plan's units where a unit is several leaf groups (a rack-scale
// system's reference SU, p.Unit): its nodes of the unit's, then its last
// leaf group's, which hold the empty ports; as fabric said it otherwise.
func (p *Plan) unitHeadroom() {
	if p.ServersPerUnit <= 0 || p.Unit.Servers <= p.ServersPerUnit {
		return
	}
	for i, h := range p.Headroom {
		if h.Tier != TierLeaf || !strings.HasPrefix(h.Reason, partialUnitPrefix) {
			continue
		}
		_, rest, _ := strings.Cut(h.Reason[len(partialUnitPrefix):], " servers")
		last := p.Servers - (p.UnitCount()-1)*p.Unit.Servers
		p.Headroom[i].Reason = fmt.Sprintf("%s%s of %s nodes, its last leaf group %s of %s%s", partialUnitPrefix, textfmt.Int(last), textfmt.Int(p.Unit.Servers),
			textfmt.Int(p.Servers%p.ServersPerUnit), textfmt.Int(p.ServersPerUnit), rest)
	}
}

// unitWords names the partial scalable unit's leaves in notes as its
// last leaf group's where a unit is several leaf groups (unitHeadroom):
// the unit's first groups are full.
func (p *Plan) unitWords(notes []string) []string {
	if p.ServersPerUnit <= 0 || p.Unit.Servers <= p.ServersPerUnit {
		return notes
	}
	for i, n := range notes {
		notes[i] = strings.Replace(n, "the partial scalable unit's leaves", "the partial scalable unit's last leaf group's leaves", 1)
	}
	return notes
}

// addTiers adds the plane's switch and link tiers, times the planes, to
// the plan, with their wiring, layout, loads and headroom.
func (p *Plan) addTiers(pl fabric.Plane, m Media, radix int) {
	P := p.Planes
	p.SwitchTiers, p.LinkTiers = make([]SwitchTier, 0, pl.Tiers), make([]LinkTier, 0, pl.Tiers)
	p.SwitchTiers = append(p.SwitchTiers, switchTier(TierLeaf, pl.LeafLoads, P, radix))
	p.LinkTiers = append(p.LinkTiers, LinkTier{Name: "server_leaf", Links: pl.ServerLeaf * P, Medium: m.ServerLeaf, Metres: m.ServerLeafM})
	if pl.Tiers >= 2 {
		p.SwitchTiers = append(p.SwitchTiers, switchTier(TierSpine, pl.SpineLoads, P, radix))
		p.LinkTiers = append(p.LinkTiers, LinkTier{Name: "leaf_spine", Links: pl.LeafSpine * P, Medium: m.LeafSpine, Metres: m.LeafSpineM})
	}
	if pl.Tiers == 3 {
		p.SwitchTiers = append(p.SwitchTiers, switchTier(TierCore, pl.CoreLoads, P, radix))
		p.LinkTiers = append(p.LinkTiers, LinkTier{Name: "spine_core", Links: pl.SpineCore * P, Medium: m.SpineCore, Metres: m.SpineCoreM})
	}
	p.SpineWiring, p.CoreWiring = pl.SpineWiring, pl.CoreWiring
	p.StrictSpines = pl.StrictAdded * P
	p.layout = pl.Layout
	p.tierLoads = [][]fabric.Load{pl.LeafLoads, pl.SpineLoads, pl.CoreLoads}[:len(p.SwitchTiers)]
	for _, h := range pl.Headroom {
		h.Switches *= P
		h.Ports *= P
		p.Headroom = append(p.Headroom, h)
	}
}

// strictSpinesOn reports whether the system's reference design keeps
// strict spine balance at any count for this fabric: its leaves and
// spines both the reference's switch (System.StrictSpinesOn).
func strictSpinesOn(sys *System, leaf, spine *Switch) bool {
	return sys != nil && sys.StrictSpinesOn != "" && leaf.Key == sys.StrictSpinesOn && orSwitch(spine, leaf).Key == sys.StrictSpinesOn
}

// wiringNotes says how the upper tiers are wired where it is not
// strict balance at the fewest switches: near-balanced (strict balance
// listed as headroom), or strict balance at any count as the system's
// reference design keeps it (the spines that adds, in the counts).
func wiringNotes(p *Plan, pl fabric.Plane) []string {
	var notes []string
	if pl.SpineWiring == WiringNear || pl.CoreWiring == WiringNear {
		notes = append(notes, nearNote(pl.Layout))
	}
	if p.StrictSpines > 0 && p.System != nil {
		notes = append(notes, fmt.Sprintf("spines strictly balanced as the %s reference design: every full leaf sends each spine the same number of links, which takes %s more than the fewest that carry the links (near-balanced wiring; the reference's own tables keep strict balance at any size)",
			p.System.Key, textfmt.Plural(p.StrictSpines, "spine switch")))
	}
	return notes
}

// threeTierReach is the most server ports a plane of spec holds in at
// most three tiers as fabric.Size builds them (its leaf groups, their
// alignment to racks or units, its ratios and reserved ports), found by
// bisection over the servers up to radix³; 0 when not even one server
// fits. It is what a planner can enter, where radix³/4 is the ideal fat
// tree's. It does not depend on spec.Servers, and a sweep past it asks
// for it at every size: it is kept by the rest of spec.
func threeTierReach(spec fabric.Spec) int {
	spec.Servers = 0
	k := memo.Of(spec)
	if r, ok := reachMemo.Get(k); ok {
		return r
	}
	fits := func(servers int) bool {
		spec.Servers = servers
		_, err := fabric.Size(spec)
		return err == nil
	}
	lo, hi := 0, spec.Radix*spec.Radix*spec.Radix // lo fits (none trivially); hi is past any fabric of radix
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	r := lo * spec.Rails
	reachMemo.Put(k, r)
	return r
}

// reachMemo keeps threeTierReach by its spec.
var reachMemo = memo.New[int](16)

// estimateJCT fills p.JCT for the scenario's workload, or for the default
// workload when the scenario has none. A default workload too large for
// a small cluster leaves JCT nil with a note; the scenario's own workload
// must have the GPUs its parallelism asks. A job that does not fit in
// memory keeps its JCT, with the finding and the cheapest fix.
func (p *Plan) estimateJCT(cat *Catalog, parts jctParts) error {
	if cat.JCT == nil {
		return nil
	}
	w, own := p.defaultWorkload(cat.JCT), p.Scenario.Workload != nil
	if own {
		w = *p.Scenario.Workload
	}
	j, err := estimateJCTWith(p, w, cat.JCT, parts)
	switch {
	case err == nil:
		p.JCT = j
		if !own {
			p.Notes = append(p.Notes, "JCT for the default workload ("+j.ModelName+", tp 8, pp 4): add a [workload] table for your job")
		}
		if j.IdleGPUs > 0 {
			groups := "whole tp x cp x pp model replicas"
			if j.Workload.EP > 1 {
				groups += ", each stage whole ep x etp expert groups"
			}
			p.Notes = append(p.Notes, fmt.Sprintf("JCT: %d GPUs stay idle (the job takes %s: dp %d)", j.IdleGPUs, groups, j.DP))
		}
		return nil
	case !own && errors.Is(err, perf.ErrNoJCT):
		p.Notes = append(p.Notes, "no JCT estimate: the default workload needs at least 32 GPUs")
		return nil
	case errors.Is(err, perf.ErrNoJCT):
		// The fabric does not depend on the job: a job that cannot run
		// on these GPUs is a finding beside the planned fabric, not a
		// refusal to plan it.
		p.NoJCT = err
		p.Notes = append(p.Notes, "no JCT estimate: "+err.Error())
		return nil
	}
	return err
}

// buildOn sizes the fabric with the given NIC on the scenario's switch,
// or on every switch of the fabric at the port speed with switch auto
// (the cheapest plan wins); ok is false with the reason when none fits.
// bands asks for the cost's sanity bands and drivers (BuildOptions.Bands).
func buildOn(rs Scenario, cat *Catalog, nic *NIC, bands bool) (*Plan, bool, error) {
	if n := rs.Network; n.SpineSwitch == Auto || n.CoreSwitch == Auto {
		return buildTierAuto(rs, cat, nic, bands) // spine or core auto: one build per candidate
	}
	port := rs.Network.NICGbps / rs.Network.PortsPerNIC
	var candidates []*Switch
	if rs.Network.Switch == Auto {
		candidates = cat.autoSwitches(rs.Network.Fabric, port)
		if g := rs.Network.UplinkGbps; g > 0 {
			candidates = uplinkCandidates(candidates, g)
		}
		if g := rs.Network.CoreUplinkGbps; g > 0 {
			candidates = uplinkCandidates(candidates, g)
		}
		if j := laneJoined(candidates, nic, port); len(j) > 0 {
			candidates = j // a switch the NIC cannot join is no candidate (Q3400 at 400G to a 100G-lane NIC)
		}
		if len(candidates) == 0 {
			return nil, false, fielderr.New("network.nic_gbps", splitFix(cat, rs.Network.Fabric, rs.Network.NICGbps),
				"no %s switch in the catalog has %dG ports", rs.Network.Fabric, port)
		}
	} else {
		candidates = []*Switch{cat.Switches[rs.Network.Switch]}
	}
	best, errs := cheapestOn(rs, cat, nic, candidates)
	switch {
	case best == nil && len(candidates) == 1:
		return nil, false, errs[0]
	case best == nil:
		return nil, false, fmt.Errorf("no %s switch fits: %w", rs.Network.Fabric, errors.Join(errs...))
	}
	best.priceFindings(cat, bands)
	if rs.Network.Switch == Auto {
		best.Notes = append(best.Notes, fmt.Sprintf("switch auto: %s is the cheapest of %d that fit", best.Switch.Key, len(candidates)-len(errs)))
	}
	return best, true, nil
}
