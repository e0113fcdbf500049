package planner

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
	"fabricplan/planner/serve"
)

// SchemaVersion is the scenario file format this package reads and writes.
const SchemaVersion = 1

// Fabric is the back-end network technology.
type Fabric string

// The two RDMA fabrics.
const (
	InfiniBand Fabric = "infiniband"
	Ethernet   Fabric = "ethernet" // RoCEv2
)

// The fabrics' names as people read them (Fabric.Name).
const (
	InfiniBandName = "InfiniBand"
	EthernetName   = "Ethernet (RoCEv2)"
)

// Name is the fabric as people read it: "InfiniBand" or "Ethernet
// (RoCEv2)".
func (f Fabric) Name() string {
	if f == Ethernet {
		return EthernetName
	}
	return InfiniBandName
}

// Short is the fabric in a word, for labels: "IB" or "RoCE".
func (f Fabric) Short() string {
	if f == Ethernet {
		return "RoCE"
	}
	return "IB"
}

// Medium is how one tier's links are cabled.
type Medium string

// Cable media. Transceiver means a pluggable optic at each end and a fibre
// patch cord between them.
const (
	DAC    Medium = "dac"
	ACC    Medium = "acc"
	AOC    Medium = "aoc"
	Optics Medium = "transceiver"
)

const fiberKey = "fiber"

// Multimode is a link on multimode transceivers and OM4 fibre: chosen
// per link in a laid-out hall where it is the cheapest that reaches; a
// scenario cannot set it for a whole tier.
const Multimode Medium = "multimode"

const mmFiberKey = "fiber-mm"

// RoCEv2 load balancing. LBSpray is per-packet spraying over every
// path (Ultra Ethernet's packet spraying; Spectrum-X's adaptive routing
// with reordering at the SuperNIC): no flow is hashed onto one uplink,
// so it routes as adaptive (Network.routing), and the share of a link
// its packets reach crossing the spines is data/jct.toml [crossing]
// efficiency, which a sprayed fabric's measurement set (NVIDIA: 95%
// effective bandwidth for Spectrum-X at scale).
const (
	LBAdaptive = "adaptive"
	LBECMP     = "ecmp"
	LBSpray    = "spray"
)

// Auto asks the planner to choose (switch, NIC).
const Auto = "auto"

// Scenario is one plan's inputs, as saved in a TOML file.
type Scenario struct {
	Schema   int            `toml:"schema"`
	Name     string         `toml:"name,omitempty,omitzero"`
	Cluster  Cluster        `toml:"cluster"`
	Network  Network        `toml:"network"`
	Workload *perf.Workload `toml:"workload,omitempty,omitzero"`
	// Inference and RL are the serving and RL workloads of [workload]
	// kind = "inference" or "rl" (nil for training).
	Inference *serve.Inference   `toml:"inference,omitempty"`
	RL        *serve.RL          `toml:"rl,omitempty"`
	Prices    map[string]float64 `toml:"prices,omitempty,omitzero"`
	// Pricing chooses the price basis and a vendor quotes file.
	Pricing PriceSettings `toml:"pricing,omitempty,omitzero"`
	// Quotes are the quotes loaded from Pricing.Quotes (or a --quotes
	// flag) by the caller, who knows the file's directory and the date;
	// nil: none. Not saved: the file name is.
	Quotes *Quotes `toml:"-"`
	// Reliability overrides the failure rates and recovery times of
	// data/reliability.toml (nil: none).
	Reliability *ReliabilityInputs `toml:"reliability,omitempty,omitzero"`
	// Networks chooses the networks beside the back end (nil: the
	// system's defaults).
	Networks *NetworksInputs `toml:"networks,omitempty,omitzero"`
	// Storage describes the storage the checkpoints are written to (nil:
	// the system's defaults).
	Storage *StorageInputs `toml:"storage,omitempty,omitzero"`
	// Phases is the phased build-out, [[phase]] tables in order (none:
	// one build; see planner/phases); Growth its options (nil: defaults).
	Phases []Phase `toml:"phase,omitempty,omitzero"`
	Growth *Growth `toml:"growth,omitempty,omitzero"`
	// Facility describes the data hall the cluster is laid out in (nil:
	// the data defaults); every link's length, medium and part come
	// from the racks' positions unless its layout is "flat".
	Facility *hall.Facility `toml:"facility,omitempty"`
	// flatLinks lays no hall out: each tier's links at one length. Set
	// for scenarios that give their lengths (givesLengths) and by the
	// callers that read totals only (FlatLinks).
	flatLinks bool
	// countedLinks prices the hall's links by counting them by class
	// rather than walking each (CountedLinks).
	countedLinks bool
}

// FlatLinks returns s priced without the data hall: each tier's links at
// one length (20/50/150 m unless network.media gives them), as sweeps
// and design searches price their many plans. Build measures every
// link in the hall otherwise.
func (s Scenario) FlatLinks() Scenario {
	s.flatLinks = true
	return s
}

// CountedLinks returns s laid out in the data hall as Build lays it out,
// its links priced by counting them by unit and by rack-pair class
// rather than walking each: the server links exactly, the leaf-spine
// and spine-core links approximately (within 0.5% of the walk's total
// cost; Plan.LinksCounted says so), as sweeps price their many sizes.
func (s Scenario) CountedLinks() Scenario {
	s.countedLinks = true
	return s
}

// PriceSettings choose how a plan is priced.
type PriceSettings struct {
	// Basis is "street" or "list" (empty: data/prices.toml's default).
	Basis string `toml:"basis,omitempty,omitzero"`
	// Quotes is a vendor quotes file (.csv or .toml), relative to the
	// scenario file's directory; empty: none.
	Quotes string `toml:"quotes,omitempty,omitzero"`
}

// Cluster describes the compute: how many GPUs and how they are packaged.
type Cluster struct {
	// System is a catalog system key (dgx-h100, gb200-nvl72, ...) that
	// fixes GPUs and NICs per node and the NIC, or "custom" (or empty)
	// for servers described by GPUsPerServer and the network's NICs.
	System        string `toml:"system,omitempty,omitzero"`
	GPUs          int    `toml:"gpus"`
	GPUsPerServer int    `toml:"gpus_per_server"`
	// ServerPriceUSD is the price of one server, or of one system when
	// System is set (default: the catalog's); 0 leaves capex out.
	ServerPriceUSD float64 `toml:"server_price_usd,omitempty,omitzero"`
}

// Network describes the back-end fabric. Zero values of NICsPerServer and
// PortsPerNIC, and empty media, mean "the default" (see Resolve).
type Network struct {
	Fabric           Fabric `toml:"fabric"`
	NICGbps          int    `toml:"nic_gbps"`
	NIC              string `toml:"nic"`
	NICsPerServer    int    `toml:"nics_per_server,omitempty,omitzero"`
	PortsPerNIC      int    `toml:"ports_per_nic,omitempty,omitzero"`
	Planes           int    `toml:"planes"`
	Switch           string `toml:"switch"`
	Oversubscription string `toml:"oversubscription"`
	Tiers            int    `toml:"tiers"`
	RailOptimized    bool   `toml:"rail_optimized"`
	// SpineOversubscription is the spines' down:up ratio in a three-tier
	// fabric (pod spines toward the cores, as Meta's 1:7 above its
	// 3,072-GPU pods); empty: "1:1". The core, the top tier, has no
	// uplinks, so with at most three tiers these two ratios are every
	// tier's.
	SpineOversubscription string `toml:"spine_oversubscription,omitempty,omitzero"`
	// ServersPerToR is a top-of-rack design's ToR size: the servers one
	// leaf in their rack serves (Meta's Llama 3 RTSW: 2 servers, 16
	// GPUs); 0: as many as the leaf's down ports hold. Only with
	// rail_optimized = false.
	ServersPerToR int `toml:"servers_per_tor,omitempty,omitzero"`
	// Topology is the design style: TopoRailOptimized, TopoToR,
	// TopoRailOnly or "" (rail_optimized decides between the first two).
	// It overrides rail_optimized.
	Topology string `toml:"topology,omitempty,omitzero"`
	// PodGPUs is the GPUs of one three-tier pod (Meta's AI zone: 3,072);
	// 0: as many whole units as a spine's down ports serve.
	PodGPUs int `toml:"pod_gpus,omitempty,omitzero"`
	// ServersPerLeaf is the servers a rail leaf (rail-optimized,
	// rail-only or dual-plane) takes one port of: the leaf keeps that
	// many server ports and the uplinks the leaf ratio asks for them,
	// its other ports idle (losslessnetwork's 32 servers a 64-port leaf
	// at 2:1); 0: as many as the leaf's down ports hold. A top-of-rack
	// leaf's is ServersPerToR. See planner/leafshape.go.
	ServersPerLeaf int `toml:"servers_per_leaf,omitempty,omitzero"`
	// MinSpines is the fewest spines of each plane's two-tier fabric (of
	// each pod, with three tiers), as designs built for growth keep
	// (Juniper's AI data center designs: at least 4); 0: as many as the
	// links need.
	MinSpines int `toml:"min_spines,omitempty,omitzero"`
	// StorageNodes is the storage nodes cabled to the compute leaves (a
	// converged back end: storage on the compute fabric rather than its
	// own network), StorageNodePorts each node's back-end ports at the
	// server port speed (0: one a plane), spread over the planes and the
	// full units' leaves, which keep those ports before their uplinks
	// are sized (planner/leafstorage.go); 0: none.
	StorageNodes     int `toml:"storage_nodes,omitempty,omitzero"`
	StorageNodePorts int `toml:"storage_node_ports,omitempty,omitzero"`
	// LeafPairs dual-homes an Ethernet top-of-rack design's servers to
	// pairs of leaves (MLAG or ESI-LAG): each server's ports a plane
	// split over its pair, PeerLinkPorts of each leaf's ports on the link
	// joining the pair (0: none, ESI-LAG), the rest split at the leaf
	// ratio (planner/leafpairs.go).
	LeafPairs     bool `toml:"leaf_pairs,omitempty,omitzero"`
	PeerLinkPorts int  `toml:"peer_link_ports,omitempty,omitzero"`
	// UplinkGbps is the speed of the switch-to-switch ports (leaf to
	// spine, spine to core unless core_uplink_gbps says) in Gb/s, a speed
	// the switch offers, faster or slower than the server ports (a Q3400 leaf with 400G server ports and
	// 800G uplinks; Alibaba HPN's 200G down, 400G up); 0: the server
	// port speed on every tier.
	UplinkGbps int `toml:"uplink_gbps,omitempty,omitzero"`
	// CoreUplinkGbps is the speed of the spine-to-core ports in a
	// three-tier fabric, a speed the switch offers (800G cores above
	// 400G leaf-to-spine links); 0: the uplink speed.
	CoreUplinkGbps int `toml:"core_uplink_gbps,omitempty,omitzero"`
	// SpineSwitch and CoreSwitch are the switch models of the spine and
	// core tiers (catalog keys, as Meta's 7800R3 chassis spines above
	// fixed leaves); "": the leaf's switch.
	SpineSwitch string `toml:"spine_switch,omitempty,omitzero"`
	CoreSwitch  string `toml:"core_switch,omitempty,omitzero"`
	// LeafAlignment is how nodes map to leaves: AlignRack (a leaf takes
	// whole racks of one rail, as the system's reference design does),
	// AlignPacked (a leaf takes as many nodes as it has ports) or ""
	// (the system's reference layout: rack for rack-scale systems).
	LeafAlignment string `toml:"leaf_alignment,omitempty"`
	// LoadBalancing is how a RoCEv2 fabric spreads flows: "adaptive"
	// (adaptive routing or enhanced ECMP with QP scaling), "ecmp" or
	// "spray" (per-packet spraying over every path).
	LoadBalancing string `toml:"load_balancing"`
	// Routing is how flows find their path above the leaves on either
	// fabric: "adaptive" (InfiniBand adaptive routing, Spectrum-X, DLB)
	// or "static" (ECMP hashing, subnet-manager routes); "" takes
	// load_balancing's for Ethernet, adaptive for InfiniBand.
	Routing string `toml:"routing,omitempty"`
	// InNetworkReduction runs all-reduces on the switches' SHARP where
	// the InfiniBand switch has it.
	InNetworkReduction bool  `toml:"in_network_reduction,omitempty"`
	Media              Media `toml:"media"`
}

// Media chooses the cable medium and length of each tier's links.
type Media struct {
	ServerLeaf  Medium  `toml:"server_leaf,omitempty,omitzero"`
	LeafSpine   Medium  `toml:"leaf_spine,omitempty,omitzero"`
	SpineCore   Medium  `toml:"spine_core,omitempty,omitzero"`
	ServerLeafM float64 `toml:"server_leaf_m,omitempty,omitzero"`
	LeafSpineM  float64 `toml:"leaf_spine_m,omitempty,omitzero"`
	SpineCoreM  float64 `toml:"spine_core_m,omitempty,omitzero"`
}

// Limits on inputs; larger values are certainly typing mistakes, and the
// limits keep every product the planner forms far inside int64 and
// float64 (docs/scenario.md lists them).
const (
	MaxGPUs          = 10_000_000
	maxGPUsPerServer = 1024
	maxNICsPerServer = 1024
	maxPortsPerNIC   = 8
	maxPlanes        = 64
	maxRatio         = 64
	maxCableM        = 2000
	// MaxPriceUSD bounds any one price: a whole rack-scale system lists
	// at a few million dollars.
	MaxPriceUSD = 100e6
	// minPriceUSD is the lowest price but 0 (a part already owned): one
	// cent, the smallest amount a price list carries, as for quotes
	// (planner/quotes); 1e-300 priced a $30k switch at $0.
	minPriceUSD = 0.01
)

// inRange reports whether v is a finite number from lo to hi; NaN fails
// both comparisons and so is out of range.
func inRange(v, lo, hi float64) bool { return v >= lo && v <= hi }

// Default cable lengths by tier, in metres: rail-optimized leaves stand at
// the end of the row, so their server links are longer than a rack's.
const (
	defaultServerLeafRailM = 20
	defaultServerLeafToRM  = 2
	defaultLeafSpineM      = 50
	defaultSpineCoreM      = 150
)

// NewScenario returns a scenario holding every default: 1,024 GPUs in
// eight-GPU servers on 400G InfiniBand, auto switch, non-blocking,
// rail-optimized.
func NewScenario() Scenario {
	return Scenario{
		Schema:  SchemaVersion,
		Cluster: Cluster{GPUs: 1024, GPUsPerServer: 8},
		Network: Network{
			Fabric:           InfiniBand,
			NICGbps:          400,
			NIC:              Auto,
			Planes:           1,
			Switch:           Auto,
			Oversubscription: "1:1",
			RailOptimized:    true,
			LoadBalancing:    LBAdaptive,
		},
	}
}

// Ratio parses an oversubscription "D:U" (down:up) that has no more
// uplinks than downlinks: a spine's, a front end's or storage's.
func Ratio(s string) (down, up int, err error) {
	return parseRatio(s, false)
}

// LeafRatio parses the leaf's oversubscription "D:U", which may have
// more uplinks than downlinks: an under-subscribed leaf, as Meta's rack
// switches (RTSW to CTSW under-subscribed 2:1, Lockwood's reading of the
// Llama 3 clusters, research/facility.md) are "1:2".
func LeafRatio(s string) (down, up int, err error) {
	return parseRatio(s, true)
}

// parseRatio parses "D:U", both sides 1 to maxRatio; under allows U > D.
func parseRatio(s string, under bool) (down, up int, err error) {
	d, u, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not D:U", s)
	}
	down, err1 := strconv.Atoi(strings.TrimSpace(d))
	up, err2 := strconv.Atoi(strings.TrimSpace(u))
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("%q is not two whole numbers D:U", s)
	}
	if down < 1 || up < 1 || down > maxRatio || up > maxRatio {
		return 0, 0, fmt.Errorf("%q: both sides must be 1 to %d", s, maxRatio)
	}
	if up > down && !under {
		return 0, 0, fmt.Errorf("%q has more uplinks than downlinks", s)
	}
	return down, up, nil
}

// ServerPorts is the number of back-end ports on one server.
func (n Network) serverPorts(gpusPerServer int) int {
	nics := n.NICsPerServer
	if nics == 0 {
		nics = gpusPerServer
	}
	ppn := n.PortsPerNIC
	if ppn == 0 {
		ppn = 1
	}
	return nics * ppn
}

// Validate checks every field against the catalog and returns all the
// problems found, joined; each is a *fielderr.FieldError.
func (s *Scenario) Validate(cat *Catalog) error {
	if errs := s.validateSystem(cat); len(errs) > 0 {
		return errs[0]
	}
	ws := s.WithSystem(cat)
	ws.Network = ws.Network.withStyle()
	return ws.validate(cat)
}

// validate checks a scenario whose system is applied.
func (s *Scenario) validate(cat *Catalog) error {
	return s.validateWith(s.fixedChecks(cat))
}

// fixedChecks are validate's findings that do not read the cluster's GPU
// count, in validate's order: mid those between validateCluster and
// validatePhases (the two that read it), tail those after. A sweep,
// whose points differ only in the GPU count, finds them once
// (sweepCheck).
type fixedChecks struct{ mid, tail []error }

// fixedChecks runs validate's checks that do not read Cluster.GPUs.
func (s *Scenario) fixedChecks(cat *Catalog) fixedChecks {
	var f fixedChecks
	f.mid = append(f.mid, s.validatePorts()...)
	f.mid = append(f.mid, s.validateShape()...)
	f.mid = append(f.mid, s.validateLayout()...)
	if s.Workload != nil {
		f.mid = append(f.mid, validateWorkload(s.Workload, cat.JCT)...)
	}
	f.mid = append(f.mid, s.validateServing()...)
	f.mid = append(f.mid, s.Reliability.validate()...)
	f.mid = append(f.mid, s.validateNetworks(cat)...)
	f.mid = append(f.mid, s.Storage.validate()...)
	f.tail = append(f.tail, s.Facility.Validate()...)
	f.tail = append(f.tail, s.validateHardware(cat)...)
	f.tail = append(f.tail, s.validateUplink(cat)...)
	f.tail = append(f.tail, s.validateCoreUplink(cat)...)
	f.tail = append(f.tail, s.validateMedia()...)
	f.tail = append(f.tail, s.validatePricing(cat)...)
	f.tail = append(f.tail, s.validatePrices(cat)...)
	return f
}

// validateWith is validate with its GPU-free findings f given: it runs
// the checks that read the GPU count and joins every finding in order.
func (s *Scenario) validateWith(f fixedChecks) error {
	errs := s.validateCluster()
	errs = append(errs, f.mid...)
	errs = append(errs, s.validatePhases()...)
	errs = append(errs, f.tail...)
	if len(errs) > fielderr.MaxListed {
		return fielderr.JoinCapped(errs[:fielderr.MaxListed], len(errs)-fielderr.MaxListed)
	}
	return errors.Join(errs...)
}

// validateCluster checks the schema version and the [cluster] table.
func (s *Scenario) validateCluster() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	if s.Schema != SchemaVersion {
		add(fielderr.New("schema", "write schema = 1", "version %d is not supported", s.Schema))
	}
	c := s.Cluster
	if c.GPUs < 1 || c.GPUs > MaxGPUs {
		add(fielderr.New("cluster.gpus", fmt.Sprintf("give a whole number from 1 to %d", MaxGPUs), "%d GPUs is not a cluster", c.GPUs))
	}
	if c.GPUsPerServer < 1 || c.GPUsPerServer > maxGPUsPerServer {
		add(fielderr.New("cluster.gpus_per_server", "typical values are 4, 8, 16, 32 or 72", "%d is not a server size", c.GPUsPerServer))
	}
	if !validPrice(c.ServerPriceUSD) {
		add(fielderr.New("cluster.server_price_usd", priceFix, "%g is not a price", c.ServerPriceUSD))
	}
	return errs
}

// validatePorts checks the fabric and the back-end ports of a server:
// NICs, ports per NIC and the planes they are dealt over.
func (s *Scenario) validatePorts() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	c, n := s.Cluster, s.Network
	if n.Fabric != InfiniBand && n.Fabric != Ethernet {
		add(fielderr.New("network.fabric", `write "infiniband" or "ethernet"`, "unknown fabric %q", n.Fabric))
	}
	if n.NICsPerServer < 0 || n.NICsPerServer > maxNICsPerServer {
		add(fielderr.New("network.nics_per_server", "give 1 or more, or leave it out for one NIC per GPU", "%d NICs per server", n.NICsPerServer))
	}
	if n.PortsPerNIC < 0 || n.PortsPerNIC > maxPortsPerNIC {
		add(fielderr.New("network.ports_per_nic", "give 1 or 2, or leave it out", "%d ports per NIC", n.PortsPerNIC))
	}
	if n.Planes < 1 || n.Planes > maxPlanes {
		add(fielderr.New("network.planes", fmt.Sprintf("give 1 to %d", maxPlanes), "%d planes", n.Planes))
	} else if c.GPUsPerServer > 0 && n.NICsPerServer >= 0 && n.PortsPerNIC >= 0 {
		if sp := n.serverPorts(c.GPUsPerServer); sp%n.Planes != 0 {
			add(fielderr.New("network.planes", fmt.Sprintf("choose planes that divide %d, e.g. %s", sp, divisorList(sp)),
				"%d planes do not divide the %d back-end ports of a server", n.Planes, sp))
		}
	}
	return errs
}

// validateShape checks the fabric's shape: ratios, topology, style and
// ToR size.
func (s *Scenario) validateShape() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	n := s.Network
	if _, _, err := LeafRatio(n.Oversubscription); err != nil {
		add(fielderr.New("network.oversubscription", `write down:up such as "1:1", "2:1" or "1:2"`, "%v", err))
	}
	if r := n.SpineOversubscription; r != "" {
		if _, _, err := Ratio(r); err != nil {
			add(fielderr.New("network.spine_oversubscription", `write down:up such as "1:1" or "7:1", or leave it out for non-blocking spines`, "%v", err))
		}
	}
	if !slices.Contains(Topologies, n.Style()) {
		add(fielderr.New("network.topology", `write "`+strings.Join(Topologies, `", "`)+`" (or leave it out: rail_optimized decides)`, "unknown topology %q", n.Topology))
	}
	if e := n.validateStyle(); e != nil {
		add(e)
	}
	if n.ServersPerToR < 0 || n.ServersPerToR > MaxServersPerToR {
		add(fielderr.New("network.servers_per_tor", "give the servers one top-of-rack leaf serves, e.g. 2, or leave it out", "%d servers per ToR", n.ServersPerToR))
	} else if n.ServersPerToR > 0 && n.Style() != TopoToR {
		add(fielderr.New("network.servers_per_tor", "set rail_optimized = false for a top-of-rack design, or leave servers_per_tor out", "a ToR size needs top-of-rack leaves"))
	}
	errs = append(errs, n.validateLeafShape()...)
	errs = append(errs, s.validateLeafPairs()...)
	return errs
}

// validateLayout checks the pod size, tiers, leaf alignment, load
// balancing and routing.
func (s *Scenario) validateLayout() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	n := s.Network
	if n.PodGPUs < 0 || n.PodGPUs > MaxGPUs {
		add(fielderr.New("network.pod_gpus", "give the GPUs of one pod, e.g. 3072, or leave it out", "%d GPUs per pod", n.PodGPUs))
	}
	if n.Tiers < 0 || n.Tiers > MaxTiers {
		add(fielderr.New("network.tiers", "give 0 (fewest that fit), 1, 2 or 3", "%d tiers", n.Tiers))
	}
	if n.LeafAlignment != "" && n.LeafAlignment != AlignRack && n.LeafAlignment != AlignPacked {
		add(fielderr.New("network.leaf_alignment", `write "rack" or "packed" (or leave it out for the system's reference layout)`, "unknown leaf alignment %q", n.LeafAlignment))
	}
	if n.LoadBalancing != LBAdaptive && n.LoadBalancing != LBECMP && n.LoadBalancing != LBSpray {
		add(fielderr.New("network.load_balancing", `write "adaptive", "ecmp" or "spray"`, "unknown load balancing %q", n.LoadBalancing))
	}
	if err := n.validateRouting(); err != nil {
		add(err)
	}
	return errs
}

// validatePrices checks the [prices] overrides: catalog keys and prices.
func (s *Scenario) validatePrices(cat *Catalog) []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	for _, k := range SortedKeys(s.Prices) {
		switch {
		case !cat.HasPriceKey(k):
			add(fielderr.New("prices."+k, "use a catalog key (fabricplan catalog lists them)", "no catalog item %q", k))
		case !validPrice(s.Prices[k]):
			add(fielderr.New("prices."+k, priceFix, "%g is not a price", s.Prices[k]))
		}
	}
	return errs
}

var priceFix = fmt.Sprintf("give a price in US dollars, 0 or from %g to %.0f, or leave it out", minPriceUSD, MaxPriceUSD)

// validPrice says whether v is a price: 0, or minPriceUSD to
// MaxPriceUSD (NaN is not).
func validPrice(v float64) bool { return v == 0 || inRange(v, minPriceUSD, MaxPriceUSD) }

// validateHardware checks the NIC speed, NIC, port split and switch.
func (s *Scenario) validateHardware(cat *Catalog) []error {
	n := s.Network
	if n.Fabric != InfiniBand && n.Fabric != Ethernet {
		// The fabric is reported; the speed is still checked, against
		// every fabric, so one mistake does not hide another.
		speeds := slices.Sorted(slices.Values(append(cat.NICSpeeds(InfiniBand), cat.NICSpeeds(Ethernet)...)))
		if speeds = slices.Compact(speeds); !slices.Contains(speeds, n.NICGbps) {
			return []error{fielderr.New("network.nic_gbps", "choose one of "+intList(speeds), "no NIC at %d Gb/s in the catalog, for any fabric", n.NICGbps)}
		}
		return nil
	}
	var errs []error
	// Chosen once: the NIC speed and the switches' port speed read it.
	nic := s.chooseNIC(cat)
	if !s.offersNICSpeedOn(cat, nic) { // the list only for the message: every plan asks
		return append(errs, fielderr.New("network.nic_gbps", "choose one of "+intList(cat.NICSpeeds(n.Fabric)),
			"no %s NIC at %d Gb/s in the catalog", n.Fabric, n.NICGbps))
	}
	errs = append(errs, s.validateNIC(cat)...)
	port := s.portGbpsOn(nic)
	errs = append(errs, s.validateSwitch(cat, port)...)
	return append(errs, s.validateTierSwitches(cat, port)...)
}

// offersNICSpeed is cat.hasNICSpeed at the scenario's fabric and NIC
// speed: with NIC auto, a NIC chosen (chooseNIC, memoised) runs the
// fabric at that speed, and answers without a walk of the catalog's NICs.
func (s *Scenario) offersNICSpeed(cat *Catalog) bool {
	return s.offersNICSpeedOn(cat, s.chooseNIC(cat))
}

// offersNICSpeedOn is offersNICSpeed with the scenario's NIC chosen
// (chooseNIC's nic).
func (s *Scenario) offersNICSpeedOn(cat *Catalog, nic *NIC) bool {
	n := &s.Network
	if n.NIC == Auto && nic != nil {
		return true
	}
	return cat.hasNICSpeed(n.Fabric, n.NICGbps)
}

// validateNIC checks the chosen NIC, or with "auto" that some NIC of the
// speed splits into the asked ports.
func (s *Scenario) validateNIC(cat *Catalog) []error {
	var errs []error
	n := s.Network
	if n.NIC != Auto {
		nic := cat.NICs[n.NIC]
		switch {
		case nic == nil:
			errs = append(errs, fielderr.New("network.nic", `use "auto" or a key from fabricplan catalog`, "unknown NIC %q", n.NIC))
		case nic.Gbps != n.NICGbps:
			errs = append(errs, fielderr.New("network.nic", fmt.Sprintf("set nic_gbps = %d or pick a %dG NIC", nic.Gbps, n.NICGbps),
				"%s is a %dG NIC, not %dG", nic.Key, nic.Gbps, n.NICGbps))
		case len(nic.PortSplits(n.Fabric)) == 0:
			errs = append(errs, fielderr.New("network.nic", "pick a NIC that supports "+string(n.Fabric), "%s does not run %s", nic.Key, n.Fabric))
		case n.PortsPerNIC > 0 && !slices.Contains(nic.PortSplits(n.Fabric), n.PortsPerNIC):
			errs = append(errs, fielderr.New("network.ports_per_nic", "choose one of "+intList(nic.PortSplits(n.Fabric)),
				"%s runs %s with %s, not %d", nic.Key, n.Fabric, portsList(nic.PortSplits(n.Fabric)), n.PortsPerNIC))
		}
	} else if n.PortsPerNIC > 0 && len(s.nicCandidates(cat)) == 0 {
		errs = append(errs, fielderr.New("network.ports_per_nic", "choose another split or NIC speed",
			"no %dG %s NIC splits into %d ports", n.NICGbps, n.Fabric, n.PortsPerNIC))
	}
	return errs
}

// validateSwitch checks the chosen switch against the fabric and the
// port speed (portGbps).
func (s *Scenario) validateSwitch(cat *Catalog, port int) []error {
	var errs []error
	n := s.Network
	if n.Switch != Auto {
		sw := cat.Switches[n.Switch]
		switch {
		case sw == nil:
			errs = append(errs, fielderr.New("network.switch", `use "auto" or one of `+strings.Join(cat.SwitchKeys(), ", "), "unknown switch %q", n.Switch))
		case sw.Fabric != n.Fabric:
			errs = append(errs, fielderr.New("network.switch", "pick a "+string(n.Fabric)+" switch: "+switchList(cat.SwitchesFor(n.Fabric, port)),
				"%s is an %s switch, the fabric is %s", sw.Key, sw.Fabric, n.Fabric))
		case port > 0 && sw.Radix(port) == 0 && n.PortsPerNIC == 0 && len(cat.SwitchesFor(n.Fabric, port)) == 0:
			// No switch at all has the ports: the NIC speed is what
			// to change, not the switch (--nic-gbps 1600 on qm9700).
			errs = append(errs, fielderr.New("network.nic_gbps", splitFix(cat, n.Fabric, n.NICGbps),
				"no %s switch in the catalog has %dG ports (%s has %s)", n.Fabric, port, sw.Key, gbpsList(sw.Speeds())))
		case port > 0 && sw.Radix(port) == 0:
			errs = append(errs, fielderr.New("network.switch", "pick one with "+strconv.Itoa(port)+"G ports: "+switchList(cat.SwitchesFor(n.Fabric, port)),
				"%s has no %dG ports (it has %s)", sw.Key, port, gbpsList(sw.Speeds())))
		}
	}
	return errs
}

func (s *Scenario) validateMedia() []error {
	var errs []error
	m := s.Network.Media
	for _, f := range []struct {
		name   string
		medium Medium
		metres float64
	}{
		{"server_leaf", m.ServerLeaf, m.ServerLeafM},
		{"leaf_spine", m.LeafSpine, m.LeafSpineM},
		{"spine_core", m.SpineCore, m.SpineCoreM},
	} {
		switch f.medium {
		case "", DAC, ACC, AOC, Optics:
		default:
			errs = append(errs, fielderr.New("network.media."+f.name, `write "dac", "acc", "aoc" or "transceiver", or leave it out`, "unknown medium %q", f.medium))
		}
		if !inRange(f.metres, 0, maxCableM) {
			errs = append(errs, fielderr.New("network.media."+f.name+"_m", fmt.Sprintf("give a length from 0.5 to %d m, or leave it out", maxCableM), "%g m", f.metres))
		}
	}
	return errs
}

// nicCandidates lists the NICs that match the scenario's speed, fabric and
// port split (or all splits when PortsPerNIC is 0, leaving out cards of
// several cages, whose ports only a split design uses), in cmpNIC's
// order: cheapest first.
func (s *Scenario) nicCandidates(cat *Catalog) []*NIC {
	var out []*NIC
	for _, nic := range cat.NICs { // ordered below: sorting every key first cost a sweep 6%
		if s.nicFits(nic) {
			out = append(out, nic)
		}
	}
	slices.SortFunc(out, func(a, b *NIC) int { return cmpNIC(a, s.nicPrice(a), b, s.nicPrice(b)) })
	return out
}

// nicFits says whether nic is one of the scenario's candidates (see
// nicCandidates).
func (s *Scenario) nicFits(nic *NIC) bool {
	n := &s.Network
	splits := nic.PortSplits(n.Fabric)
	switch {
	case nic.Gbps != n.NICGbps || len(splits) == 0:
		return false
	case n.PortsPerNIC > 0 && !slices.Contains(splits, n.PortsPerNIC):
		return false
	case n.PortsPerNIC == 0 && nic.Cages > 1:
		return false // a card of several cages only where the design splits NIC ports
	}
	return true
}

// nicPrice is nic's point price under the scenario's prices.
func (s *Scenario) nicPrice(nic *NIC) float64 {
	return s.pointPrice(nic.Key, nic.PriceUSD, nic.PriceRangeUSD).USD
}

// cmpNIC orders candidates a and b, priced pa and pb: cheaper first, then
// the one running more lane rates (a ConnectX-7 joins 100G- and 50G-lane
// switches where a ConnectX-6 of the same price joins only the second),
// then by key.
func cmpNIC(a *NIC, pa float64, b *NIC, pb float64) int {
	if c := cmpFloat(pa, pb); c != 0 {
		return c
	}
	if c := len(b.LaneGbps) - len(a.LaneGbps); c != 0 {
		return c
	}
	return strings.Compare(a.Key, b.Key)
}

// portGbps is the per-port speed: the NIC speed over the ports per NIC.
func (s *Scenario) portGbps(cat *Catalog) int {
	if s.Network.PortsPerNIC == 0 {
		return s.portGbpsOn(s.chooseNIC(cat))
	}
	return s.portGbpsOn(nil) // the NIC is not read
}

// portGbpsOn is portGbps with the scenario's NIC chosen (chooseNIC's
// nic, nil when none matches).
func (s *Scenario) portGbpsOn(nic *NIC) int {
	ppn := s.Network.PortsPerNIC
	if ppn == 0 {
		if nic != nil {
			ppn = defaultSplit(nic, s.Network.Fabric)
		} else {
			ppn = 1
		}
	}
	return s.Network.NICGbps / ppn
}

// chooseNIC is the scenario's NIC: the one it names, or with NIC auto
// the cheapest candidate (nicCandidates' first); nil when none matches.
func (s *Scenario) chooseNIC(cat *Catalog) *NIC {
	if s.Network.NIC != Auto {
		return cat.NICs[s.Network.NIC]
	}
	return s.cheapestNIC(cat)
}

// cheapestNIC is chooseNIC with NIC auto.
func (s *Scenario) cheapestNIC(cat *Catalog) *NIC {
	// nicCandidates' first, without listing and sorting them all: a
	// build asks three to five times (a sweep's 5%).
	var best *NIC
	bestUSD := 0.0
	for _, nic := range cat.NICs {
		if !s.nicFits(nic) {
			continue
		}
		if usd := s.nicPrice(nic); best == nil || cmpNIC(nic, usd, best, bestUSD) < 0 {
			best, bestUSD = nic, usd
		}
	}
	return best
}

// defaultSplit is 1 where the NIC supports a single port, else its
// smallest split (a ConnectX-8 runs Ethernet only as 2 x 400G).
func defaultSplit(nic *NIC, f Fabric) int {
	splits := nic.PortSplits(f)
	if len(splits) == 0 || slices.Contains(splits, 1) {
		return 1
	}
	return slices.Min(splits)
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func intList(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}

// portsList is a NIC's port splits with their noun: "1 port", "1, 2
// ports".
func portsList(v []int) string {
	if len(v) == 1 && v[0] == 1 {
		return "1 port"
	}
	return intList(v) + " ports"
}

func gbpsList(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x) + "G"
	}
	return strings.Join(parts, ", ")
}

func switchList(sw []*Switch) string {
	if len(sw) == 0 {
		return "(none in the catalog)"
	}
	parts := make([]string, len(sw))
	for i, s := range sw {
		parts[i] = s.Key
	}
	return strings.Join(parts, ", ")
}

func divisorList(n int) string {
	var d []int
	for i := 1; i <= n && len(d) < 6; i++ {
		if n%i == 0 {
			d = append(d, i)
		}
	}
	return intList(d)
}
