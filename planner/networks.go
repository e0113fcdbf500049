package planner

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
	"fabricplan/planner/sidenet"
)

// How a network beside the back end is built ([networks] frontend,
// storage, oob).
const (
	NetSeparate  = sidenet.Separate  // its own ports, switches and links
	NetConverged = sidenet.Converged // carried on the front end (storage only)
	NetNone      = sidenet.None      // not built
)

// Network names, as Networks.List and the JSON name them.
const (
	NetBackEnd  = "back end (compute)"
	NetFrontEnd = "front end (in-band)"
	NetStorage  = "storage"
	NetOOB      = "out-of-band"
	NetMgmt     = "management servers"
)

// NetworksInputs is the scenario's [networks] table: which networks beside
// the back end the cluster has and how they are built. A zero field takes
// the system's default (catalog side_defaults; docs/scenario.md).
type NetworksInputs struct {
	FrontEnd      string `toml:"frontend,omitempty,omitzero" json:"frontend,omitempty"` // separate or none
	FrontEndPorts int    `toml:"frontend_ports,omitempty,omitzero" json:"frontend_ports,omitempty"`
	FrontEndGbps  int    `toml:"frontend_gbps,omitempty,omitzero" json:"frontend_gbps,omitempty"`
	// FrontEndOversubscription is the front-end leaf's down:up ratio.
	FrontEndOversubscription string `toml:"frontend_oversubscription,omitempty,omitzero" json:"frontend_oversubscription,omitempty"`
	Storage                  string `toml:"storage,omitempty,omitzero" json:"storage,omitempty"` // separate, converged or none
	StorageFabric            Fabric `toml:"storage_fabric,omitempty,omitzero" json:"storage_fabric,omitempty"`
	StoragePorts             int    `toml:"storage_ports,omitempty,omitzero" json:"storage_ports,omitempty"` // per server, separate storage only
	StorageGbps              int    `toml:"storage_gbps,omitempty,omitzero" json:"storage_gbps,omitempty"`
	// StorageOversubscription is the down:up ratio of the storage leaves
	// that serve compute servers (storage servers' leaves are 1:1).
	StorageOversubscription string `toml:"storage_oversubscription,omitempty,omitzero" json:"storage_oversubscription,omitempty"`
	// StorageGBsPerGPU is the read bandwidth the storage delivers per GPU,
	// GB/s; it sizes the switch ports to storage servers.
	StorageGBsPerGPU float64 `toml:"storage_gbs_per_gpu,omitempty,omitzero" json:"storage_gbs_per_gpu,omitempty"`
	// StorageServerPorts overrides that: the switch ports the storage
	// servers take (at the storage port speed).
	StorageServerPorts int    `toml:"storage_server_ports,omitempty,omitzero" json:"storage_server_ports,omitempty"`
	OOB                string `toml:"oob,omitempty,omitzero" json:"oob,omitempty"` // separate or none
	// ManagementServers is the head and control nodes, without the UFM
	// hosts each InfiniBand fabric adds.
	ManagementServers int `toml:"management_servers,omitempty,omitzero" json:"management_servers,omitempty"`
}

// SideDefaults is one system's default networks (catalog side_defaults):
// the [networks] fields and the rack facts the out-of-band network needs.
type SideDefaults struct {
	NetworksInputs
	OOBPortsPerNode int `toml:"oob_ports_per_node" json:"oob_ports_per_node"`
	NodesPerRack    int `toml:"nodes_per_rack" json:"nodes_per_rack"`
	PDUsPerRack     int `toml:"pdus_per_rack" json:"pdus_per_rack"`
	RackOOBPorts    int `toml:"rack_oob_ports" json:"rack_oob_ports"`       // other devices a rack puts on the OOB network
	RackOOBSwitches int `toml:"rack_oob_switches" json:"rack_oob_switches"` // OOB switches built into each rack
	UFMPerFabric    int `toml:"ufm_per_fabric" json:"ufm_per_fabric"`       // UFM hosts per InfiniBand fabric
	// UFMNodeSlots is the node slots of the last scalable unit an
	// InfiniBand back end leaves for UFM connectivity: their leaf ports
	// are cabled to the UFM hosts (0: none reserved).
	UFMNodeSlots int `toml:"ufm_node_slots,omitempty" json:"ufm_node_slots,omitempty"`
	// NetworkRackDevices is the switches and management servers one
	// network rack holds (switches built into compute racks aside), and
	// NetworkRackPDUs its PDUs, each on the OOB network.
	NetworkRackDevices int  `toml:"network_rack_devices" json:"network_rack_devices"`
	NetworkRackPDUs    int  `toml:"network_rack_pdus" json:"network_rack_pdus"`
	NICsIncluded       bool `toml:"nics_included" json:"nics_included"` // the system carries its front-end and storage ports
	// StorageWriteShare is the storage's write bandwidth over its read
	// bandwidth (StorageGBsPerGPU); it bounds the checkpoint write.
	StorageWriteShare float64 `toml:"storage_write_share" json:"storage_write_share"`
	// StorageWriteMaxGBs is the most the storage writes, GB/s for the
	// whole cluster, however many GPUs: per-GPU guidance scaled to 100,000
	// GPUs is storage no one has published (0: no ceiling).
	StorageWriteMaxGBs float64 `toml:"storage_write_max_gbs" json:"storage_write_max_gbs"`
	Source             string  `toml:"source" json:"source"`
	// Management is the head and control nodes by the cluster's size,
	// smallest first: the first rule whose MaxNodes holds the cluster's
	// compute servers (0: any size) gives ManagementServers, with its
	// source, unless the scenario sets management_servers. None:
	// ManagementServers for every size.
	Management []ManagementRule `toml:"management,omitempty" json:"management,omitempty"`
	// mgmtSource is where the resolved ManagementServers come from (empty:
	// Source).
	mgmtSource string
	// Reference is the switch counts of the system's published design
	// beside its back end (nil: the planner's sizing alone).
	Reference *SideReference `toml:"reference,omitempty" json:"reference,omitempty"`
}

// SideReference is a system's published design beside the back end
// (catalog side_defaults.<system>.reference): the storage, front-end
// (in-band) and out-of-band switches of a design of Units scalable units
// of UnitNodes node slots, with a BackEnd back end. A zero count is not
// published: the planner sizes that network. A cluster gets the counts
// per unit it begins, rounded up (sidenet.Reference), while the scenario
// leaves the network's [networks] fields and the back-end fabric as the
// design has them.
type SideReference struct {
	UnitNodes        int    `toml:"unit_nodes" json:"unit_nodes"`
	Units            int    `toml:"units" json:"units"`
	BackEnd          Fabric `toml:"backend" json:"backend"`
	StorageSwitches  int    `toml:"storage_switches" json:"storage_switches,omitempty"`
	FrontEndSwitches int    `toml:"frontend_switches" json:"frontend_switches,omitempty"`
	OOBSwitches      int    `toml:"oob_switches" json:"oob_switches,omitempty"`
	Source           string `toml:"source" json:"source"`
}

// ManagementRule is the head and control nodes (UFM hosts aside) of a
// cluster of at most MaxNodes compute servers (0: any size), from Source.
type ManagementRule struct {
	MaxNodes int    `toml:"max_nodes" json:"max_nodes,omitempty"`
	Servers  int    `toml:"servers" json:"servers"`
	Source   string `toml:"source" json:"source"`
}

// clusterNetworks is the networks a cluster of nodes compute servers
// gets: the scenario's [networks] over the system's defaults, with the
// management servers of its size.
func (s *Scenario) clusterNetworks(cat *Catalog, nodes int) SideDefaults {
	return s.resolveNetworks(cat).forSize(nodes, s.Networks != nil && s.Networks.ManagementServers != 0)
}

// forSize is d with the management servers of a cluster of nodes compute
// servers: the first rule that holds it, unless set (the scenario gives
// them); none holds it, d's own.
func (d SideDefaults) forSize(nodes int, set bool) SideDefaults {
	if set {
		d.mgmtSource = "the scenario's management_servers"
		return d
	}
	for _, r := range d.Management {
		if r.MaxNodes == 0 || nodes <= r.MaxNodes {
			d.ManagementServers, d.mgmtSource = r.Servers, r.Source
			break
		}
	}
	return d
}

// checkManagement says what is wrong with the management rules: each
// needs its source and 0 to maxSideServers servers, their sizes rising,
// an any-size rule (0) only last.
func (d *SideDefaults) checkManagement() error {
	last := 0
	for i, r := range d.Management {
		if r.Source == "" || r.Servers < 0 || r.Servers > maxSideServers || r.MaxNodes < 0 {
			return fmt.Errorf("management rule %d: needs a source, 0 to %d servers and max_nodes 0 or more", i+1, maxSideServers)
		}
		if (i > 0 && last == 0) || (r.MaxNodes != 0 && r.MaxNodes <= last) {
			return fmt.Errorf("management rule %d: max_nodes must rise, any size (0) last", i+1)
		}
		last = r.MaxNodes
	}
	return nil
}

// check says what is wrong with the reference, nil when nothing.
func (r *SideReference) check() error {
	if r.UnitNodes < 1 || r.Units < 1 || r.Source == "" || (r.BackEnd != InfiniBand && r.BackEnd != Ethernet) {
		return errors.New("reference: needs unit_nodes, units, backend and source")
	}
	if r.StorageSwitches < 0 || r.FrontEndSwitches < 0 || r.OOBSwitches < 0 {
		return errors.New("reference: switch counts must be 0 or more")
	}
	return nil
}

// SideNIC is a front-end or storage adapter (catalog side_nics).
type SideNIC struct {
	Key   string `toml:"-" json:"key"`
	Name  string `toml:"name" json:"name"`
	Gbps  int    `toml:"gbps" json:"gbps"`
	Ports int    `toml:"ports" json:"ports"`
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	Provenance
}

// SideLink is one link of a network beside the back end, both ends
// included (catalog side_links); Modules is the transceivers it takes.
type SideLink struct {
	Key     string `toml:"-" json:"key"`
	Name    string `toml:"name" json:"name"`
	Gbps    int    `toml:"gbps" json:"gbps"`
	Modules int    `toml:"modules" json:"modules"`
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	Provenance
}

// SideServer is a management server (catalog side_servers).
type SideServer struct {
	Key  string `toml:"-" json:"key"`
	Name string `toml:"name" json:"name"`
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	Provenance
}

// mgmtServerKey is the catalog key of the management server.
const mgmtServerKey = "mgmt"

// SideNetwork is one network of the cluster, sized.
type SideNetwork struct {
	Name string `json:"name"`
	// Kind is how it is built: separate, converged (carried on the front
	// end), none; for the back end its fabric.
	Kind           string `json:"kind"`
	Fabric         Fabric `json:"fabric,omitempty"`
	PortsPerServer int    `json:"ports_per_server"`
	PortGbps       int    `json:"port_gbps"`
	// Ports is every device port the network connects: servers', storage
	// servers', management servers', other switches' and PDUs'.
	Ports int `json:"ports"`
	// Carried is the storage-server ports a converged storage network
	// puts on the front end (counted there, in its Ports).
	Carried      int     `json:"carried_ports,omitempty"`
	Leaves       int     `json:"leaves"`
	Spines       int     `json:"spines"`
	Switches     int     `json:"switches"`
	Switch       string  `json:"switch,omitempty"` // catalog key of its switch; the back end's names each tier's where they differ (Plan.SwitchesText)
	Links        int     `json:"links"`
	Transceivers int     `json:"transceivers"`
	CostUSD      float64 `json:"cost_usd"`
	PowerW       float64 `json:"power_w"`
	// LowUSD and HighUSD bound CostUSD with every price at its range ends.
	LowUSD  float64 `json:"low_usd"`
	HighUSD float64 `json:"high_usd"`
	Source  string  `json:"source,omitempty"`
	// SwitchesSource is the published design its switch count comes from
	// (the system's reference), when one gives it; its note says how.
	SwitchesSource string   `json:"switches_source,omitempty"`
	Notes          []string `json:"notes,omitempty"`
}

// Increment is what one part of the cluster adds: device ports, switches,
// transceivers, cost and power.
type Increment struct {
	Ports        int     `json:"ports"`
	Switches     int     `json:"switches"`
	Transceivers int     `json:"transceivers"`
	CostUSD      float64 `json:"cost_usd"`
	PowerW       float64 `json:"power_w"`
}

// Beside is what the back end adds to the other networks, beyond its
// own switches and transceivers: out-of-band ports for its switches,
// the uplinks they take, its management hosts' links (BackEndAdds less
// the back end's own); zero without a back end listed.
func (n *Networks) Beside() Increment {
	if n == nil {
		return Increment{}
	}
	be := n.Net(NetBackEnd)
	if be == nil {
		return Increment{}
	}
	return Increment{Switches: n.BackEndAdds.Switches - be.Switches, Transceivers: n.BackEndAdds.Transceivers - be.Transceivers}
}

// BesideText says how many of the switches and transceivers (optics:
// the word for them) the back end adds are in the other networks that
// serve it, "" when none are: a page listing the back end's own counts
// beside the whole-cluster ones would otherwise read as two answers
// (the 100k example: 3,562 switches added, 3,480 in the back end).
func (n *Networks) BesideText(optics string) string {
	b := n.Beside()
	var parts []string
	if b.Switches != 0 {
		parts = append(parts, textfmt.Plural(b.Switches, "switch"))
	}
	if b.Transceivers != 0 {
		parts = append(parts, textfmt.Int(b.Transceivers)+" "+optics)
	}
	if len(parts) == 0 {
		return ""
	}
	return textfmt.JoinAnd(parts) + " of them in the other networks that serve it"
}

func (a Increment) minus(b Increment) Increment {
	return Increment{Ports: a.Ports - b.Ports, Switches: a.Switches - b.Switches, Transceivers: a.Transceivers - b.Transceivers,
		CostUSD: a.CostUSD - b.CostUSD, PowerW: a.PowerW - b.PowerW}
}

// Networks is the whole cluster's networks: the back end beside the
// front-end, storage and out-of-band networks and the management servers.
type Networks struct {
	// List holds the back end first, then the front end, storage,
	// out-of-band and the management servers (ports and switches 0).
	List []SideNetwork `json:"networks"`
	// Total sums List; WithoutBackEnd is the same cluster without a back
	// end (the job on the front end); BackEndAdds = Total - WithoutBackEnd.
	Total          Increment `json:"total"`
	WithoutBackEnd Increment `json:"without_backend"`
	BackEndAdds    Increment `json:"backend_adds"`
	Racks          int       `json:"racks"`
	// FrontEndJCT is the job on the front end alone (TCP over its NICs
	// and links); nil without a front end or a JCT estimate.
	FrontEndJCT *FrontEndJCT `json:"frontend_jct,omitempty"`
	// Checkpoint is the checkpoint write time the storage network allows
	// (nil without storage or a JCT estimate).
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
	Source     string      `json:"source"`

	// defaults are the side-network values the networks were sized with
	// and frontEndLS the front end's leaves and spines, for timing the job
	// on the front end without sizing it again.
	defaults   SideDefaults
	frontEndLS sidenet.LeafSpine
}

// Net returns the network called name, nil when absent.
func (n *Networks) Net(name string) *SideNetwork {
	if n == nil {
		return nil
	}
	for i := range n.List {
		if n.List[i].Name == name {
			return &n.List[i]
		}
	}
	return nil
}

// FrontEndJCTOrNil is n.FrontEndJCT, nil when n is nil.
func (n *Networks) FrontEndJCTOrNil() *FrontEndJCT {
	if n == nil {
		return nil
	}
	return n.FrontEndJCT
}

// PortsPerServer is the network ports on one compute server, all networks.
func (n *Networks) PortsPerServer() int {
	t := 0
	for _, s := range n.List {
		t += s.PortsPerServer
	}
	return t
}

// NetworkDefaults is the networks the scenario gets: its [networks]
// table over its system's defaults.
func (s Scenario) NetworkDefaults(cat *Catalog) SideDefaults { return s.resolveNetworks(cat) }

// resolveNetworks overlays the scenario's [networks] on the system's
// defaults.
func (s *Scenario) resolveNetworks(cat *Catalog) SideDefaults {
	key := s.Cluster.System
	if key == "" {
		key = CustomSystem
	}
	d, ok := cat.SideDefaults[key]
	if !ok {
		d = cat.SideDefaults[CustomSystem]
	}
	if d == nil {
		return SideDefaults{}
	}
	out := *d
	if in := s.Networks; in != nil {
		o := &out.NetworksInputs
		setS := func(dst *string, v string) {
			if v != "" {
				*dst = v
			}
		}
		setI := func(dst *int, v int) {
			if v != 0 {
				*dst = v
			}
		}
		setS(&o.FrontEnd, in.FrontEnd)
		setI(&o.FrontEndPorts, in.FrontEndPorts)
		setI(&o.FrontEndGbps, in.FrontEndGbps)
		setS(&o.FrontEndOversubscription, in.FrontEndOversubscription)
		setS(&o.Storage, in.Storage)
		if in.StorageFabric != "" {
			o.StorageFabric = in.StorageFabric
		}
		setI(&o.StoragePorts, in.StoragePorts)
		setI(&o.StorageGbps, in.StorageGbps)
		setS(&o.StorageOversubscription, in.StorageOversubscription)
		if in.StorageGBsPerGPU != 0 {
			o.StorageGBsPerGPU = in.StorageGBsPerGPU
		}
		setI(&o.StorageServerPorts, in.StorageServerPorts)
		setS(&o.OOB, in.OOB)
		setI(&o.ManagementServers, in.ManagementServers)
	}
	return out
}

// sideReference is the published design's counts the scenario's networks
// take (nil: none): the system's reference, with the back end on its
// fabric, each network's count kept only while the scenario's
// [networks] leaves that network's fields unset (storage's: its own;
// the front end's: its own, and storage's when storage converges onto it;
// the OOB network's: its own and the management servers).
func (s *Scenario) sideReference(cat *Catalog) *sidenet.Reference {
	d := s.resolveNetworks(cat)
	r := d.Reference
	if r == nil || s.Network.Fabric != r.BackEnd {
		return nil
	}
	ref := sidenet.Reference{UnitNodes: r.UnitNodes, Units: r.Units, Storage: r.StorageSwitches, FrontEnd: r.FrontEndSwitches, OOB: r.OOBSwitches}
	if in := s.Networks; in != nil {
		if in.setsStorage() {
			ref.Storage = 0
			if d.Storage == NetConverged {
				ref.FrontEnd = 0
			}
		}
		if in.setsFrontEnd() {
			ref.FrontEnd = 0
		}
		if in.OOB != "" || in.ManagementServers != 0 {
			ref.OOB = 0
		}
	}
	if ref.Storage == 0 && ref.FrontEnd == 0 && ref.OOB == 0 {
		return nil
	}
	return &ref
}

// setsStorage says the [networks] table sets a field of the storage
// network.
func (in *NetworksInputs) setsStorage() bool {
	return in.Storage != "" || in.StorageFabric != "" || in.StoragePorts != 0 || in.StorageGbps != 0 ||
		in.StorageOversubscription != "" || in.StorageGBsPerGPU != 0 || in.StorageServerPorts != 0
}

// setsFrontEnd says the [networks] table sets a field of the front end.
func (in *NetworksInputs) setsFrontEnd() bool {
	return in.FrontEnd != "" || in.FrontEndPorts != 0 || in.FrontEndGbps != 0 || in.FrontEndOversubscription != ""
}

// Limits on [networks] inputs.
const (
	maxSidePorts     = 16
	maxStorageGBsGPU = 100
	maxSideServers   = 100_000
	// minStorageGBsGPU is the least storage read bandwidth per GPU taken
	// (the fix text has always said so): a twentieth of the least system
	// default in data/catalog.toml (0.217 GB/s), so only a slip of the
	// decimal point is refused. Below it the derived checkpoint write
	// runs to hundreds of digits of hours and goodput's JSON to +Inf.
	minStorageGBsGPU = 0.01
)

// validStorageGBs says whether v is a storage read bandwidth per GPU:
// 0 (the system's default) or minStorageGBsGPU to maxStorageGBsGPU.
func validStorageGBs(v float64) bool {
	return v == 0 || inRange(v, minStorageGBsGPU, maxStorageGBsGPU)
}

// validateNetworks checks the [networks] table, naming each bad field.
func (s *Scenario) validateNetworks(cat *Catalog) []error {
	in := s.Networks
	if in == nil {
		return nil
	}
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	kind := func(field, v string, allowed ...string) {
		if v != "" && !slices.Contains(allowed, v) {
			add(fielderr.New("networks."+field, "write "+quotedOr(allowed), "unknown choice %q", v))
		}
	}
	kind("frontend", in.FrontEnd, NetSeparate, NetNone)
	kind("storage", in.Storage, NetSeparate, NetConverged, NetNone)
	kind("oob", in.OOB, NetSeparate, NetNone)
	if in.StorageFabric != "" && in.StorageFabric != InfiniBand && in.StorageFabric != Ethernet {
		add(fielderr.New("networks.storage_fabric", `write "infiniband" or "ethernet"`, "unknown fabric %q", in.StorageFabric))
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"frontend_ports", in.FrontEndPorts}, {"storage_ports", in.StoragePorts}} {
		if f.v < 0 || f.v > maxSidePorts {
			add(fielderr.New("networks."+f.name, fmt.Sprintf("give 1 to %d ports per server, or leave it out", maxSidePorts), "%d ports", f.v))
		}
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"storage_server_ports", in.StorageServerPorts}, {"management_servers", in.ManagementServers}} {
		if f.v < 0 || f.v > maxSideServers {
			add(fielderr.New("networks."+f.name, fmt.Sprintf("give 0 to %d, or leave it out", maxSideServers), "%d", f.v))
		}
	}
	if !validStorageGBs(in.StorageGBsPerGPU) {
		add(fielderr.New("networks.storage_gbs_per_gpu", fmt.Sprintf("give GB/s per GPU from %g to %d, or leave it out", minStorageGBsGPU, maxStorageGBsGPU), "%g GB/s", in.StorageGBsPerGPU))
	}
	for _, f := range []struct{ name, v string }{{"frontend_oversubscription", in.FrontEndOversubscription}, {"storage_oversubscription", in.StorageOversubscription}} {
		if f.v == "" {
			continue
		}
		if _, _, err := Ratio(f.v); err != nil {
			add(fielderr.New("networks."+f.name, `write down:up such as "1:1" or "3:1"`, "%v", err))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	r := s.resolveNetworks(cat)
	if r.FrontEnd == NetSeparate || r.Storage == NetConverged {
		if g := r.FrontEndGbps; cat.sideSwitch(Ethernet, g) == nil {
			add(fielderr.New("networks.frontend_gbps", "choose one of "+gbpsList(cat.sideSpeeds(Ethernet)), "no Ethernet switch in the catalog has %dG ports", g))
		}
	}
	if r.Storage == NetConverged && r.FrontEnd == NetNone {
		add(fielderr.New("networks.storage", `write "separate" or "none", or build the front end (frontend = "separate")`, "storage cannot converge onto a front end that is not built"))
	}
	if r.Storage == NetSeparate && cat.sideSwitch(r.StorageFabric, r.StorageGbps) == nil {
		add(fielderr.New("networks.storage_gbps", "choose one of "+gbpsList(cat.sideSpeeds(r.StorageFabric)), "no %s switch in the catalog has %dG ports", r.StorageFabric, r.StorageGbps))
	}
	return errs
}

func quotedOr(v []string) string {
	q := make([]string, len(v))
	for i, s := range v {
		q[i] = strconv.Quote(s)
	}
	return textfmt.JoinAnd(q[:len(q)-1]) + " or " + q[len(q)-1]
}

// sideSwitch is the cheapest switch per port of fabric f with ports at
// gbps, from the back-end and side switches; nil when none has them.
func (c *Catalog) sideSwitch(f Fabric, gbps int) *Switch {
	s, _ := cheapest(func(s *Switch) bool { return s.Fabric == f && s.Radix(gbps) > 0 },
		func(s *Switch) float64 { return s.PriceUSD / float64(s.Radix(gbps)) }, c.Switches, c.SideSwitches)
	return s
}

// cheapest is the entry of the maps ms that ok accepts at the least cost;
// a tie goes to the earlier map, then to the smaller key (what a walk in
// key order keeping only a strictly cheaper entry gives), so the choice
// never depends on map order. found is false when ok accepts none.
func cheapest[V any](ok func(V) bool, cost func(V) float64, ms ...map[string]V) (best V, found bool) {
	bestCost, bestMap, bestKey := 0.0, 0, ""
	for i, m := range ms {
		for k, v := range m {
			if !ok(v) {
				continue
			}
			c := cost(v)
			if !found || c < bestCost || c == bestCost && (i < bestMap || i == bestMap && k < bestKey) {
				best, bestCost, bestMap, bestKey, found = v, c, i, k, true
			}
		}
	}
	return best, found
}

// sideSpeeds lists the port speeds of fabric f's switches.
func (c *Catalog) sideSpeeds(f Fabric) []int {
	seen := map[int]bool{}
	var out []int
	for _, m := range []map[string]*Switch{c.Switches, c.SideSwitches} {
		for _, s := range m {
			if s.Fabric != f {
				continue
			}
			for _, g := range s.Speeds() {
				if !seen[g] {
					seen[g] = true
					out = append(out, g)
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// sideLink is the cheapest link part at gbps (nil: none).
func (c *Catalog) sideLink(gbps int) *SideLink {
	l, _ := cheapest(func(l *SideLink) bool { return l.Gbps == gbps }, func(l *SideLink) float64 { return l.PriceUSD }, c.SideLinks)
	return l
}

// sideNIC is the cheapest adapter at gbps (nil: none).
func (c *Catalog) sideNIC(gbps int) *SideNIC {
	n, _ := cheapest(func(n *SideNIC) bool { return n.Gbps == gbps }, func(n *SideNIC) float64 { return n.PriceUSD }, c.SideNICs)
	return n
}

// indexSide keys and checks the catalog's side parts and defaults
// (checkPrices checks their prices).
func (c *Catalog) indexSide() error {
	for k, s := range c.SideSwitches {
		s.Key = k
		if c.Switches[k] != nil {
			return fmt.Errorf("side switch %s: the key is a back-end switch too", k)
		}
		if len(s.Ports) == 0 || s.Watts < 0 || (s.Fabric != InfiniBand && s.Fabric != Ethernet) {
			return fmt.Errorf("side switch %s: needs fabric, ports and watts", k)
		}
	}
	for k, n := range c.SideNICs {
		n.Key = k
		if n.Gbps <= 0 || n.Ports <= 0 {
			return fmt.Errorf("side nic %s: needs gbps and ports", k)
		}
	}
	for k, l := range c.SideLinks {
		l.Key = k
		if l.Gbps <= 0 || l.Modules < 0 {
			return fmt.Errorf("side link %s: needs gbps", k)
		}
	}
	for k, sv := range c.SideServers {
		sv.Key = k
	}
	return c.checkSideDefaults()
}

// checkSideDefaults checks each system's default networks beside the
// back end, and that the scenario's own servers have them.
func (c *Catalog) checkSideDefaults() error {
	if len(c.SideDefaults) > 0 && c.SideDefaults[CustomSystem] == nil {
		return fmt.Errorf("side_defaults: %q missing", CustomSystem)
	}
	for k, d := range c.SideDefaults {
		if d.NodesPerRack < 1 || d.FrontEndPorts < 1 || d.FrontEndGbps < 1 || d.StoragePorts < 1 || d.StorageGbps < 1 {
			return fmt.Errorf("side_defaults %s: needs nodes_per_rack, frontend and storage ports and speeds", k)
		}
		for _, r := range []string{d.FrontEndOversubscription, d.StorageOversubscription} {
			if _, _, err := Ratio(r); err != nil {
				return fmt.Errorf("side_defaults %s: %w", k, err)
			}
		}
		if !inRange(d.StorageWriteShare, 0, 1) || !inRange(d.StorageWriteMaxGBs, 0, maxStorageWriteGBs) {
			return fmt.Errorf("side_defaults %s: storage_write_share must be 0 to 1 and storage_write_max_gbs 0 to %g GB/s", k, maxStorageWriteGBs)
		}
		if err := d.checkUnits(); err != nil {
			return fmt.Errorf("side_defaults %s: %w", k, err)
		}
	}
	return nil
}

// checkUnits checks the defaults' scalable-unit facts: the node slots
// left for UFM and the published design's reference.
func (d *SideDefaults) checkUnits() error {
	if d.UFMNodeSlots < 0 || d.UFMNodeSlots > maxUFMNodeSlots {
		return fmt.Errorf("ufm_node_slots must be 0 to %d (node slots a unit leaves for UFM)", maxUFMNodeSlots)
	}
	if err := d.checkManagement(); err != nil {
		return err
	}
	if d.Reference != nil {
		return d.Reference.check()
	}
	return nil
}

// maxUFMNodeSlots bounds side_defaults ufm_node_slots: NVIDIA's
// SuperPODs leave one; a handful would be a different design, more a
// typo (a negative count would take uplinks away).
const maxUFMNodeSlots = 4

// ufmNodeSlots is the node slots the back end's last scalable unit keeps
// for UFM connectivity: the system's default on an InfiniBand back end,
// none on Ethernet (no UFM hosts).
func (s *Scenario) ufmNodeSlots(cat *Catalog) int {
	if s.Network.Fabric != InfiniBand {
		return 0
	}
	return s.resolveNetworks(cat).UFMNodeSlots
}

// ufmSlotNote says where the UFM hosts meet the back end: in the slots a
// partial last unit keeps for them, or, when every unit is full, that
// they need leaf ports the design has not left.
func ufmSlotNote(spec fabric.Spec, spg, tiers int) []string {
	if spec.ReservedSlots == 0 || tiers < 2 || spg == 0 {
		return nil
	}
	slots := textfmt.Plural(spec.ReservedSlots, "node slot")
	if spec.Servers%spg == 0 {
		return []string{fmt.Sprintf("every scalable unit is full: the UFM hosts need the leaf ports of %s (NVIDIA's SuperPOD leaves them free in its last unit, 127 DGX H100 in 4 SU): plan one node fewer, or give them ports elsewhere", slots)}
	}
	return []string{fmt.Sprintf("the last scalable unit keeps %s for UFM connectivity: its leaves keep those ports and their uplinks, as in NVIDIA's SuperPOD (the UFM hosts' own cables and optics are not in this bill)", slots)}
}
