package planner

import (
	"fmt"
	"slices"
	"strings"

	"fabricplan/internal/fielderr"
)

// CustomSystem is the system key for servers described by the scenario's
// own gpus_per_server and nics_per_server.
const CustomSystem = "custom"

// System is one catalog system: a server (DGX, HGX) or a rack-scale
// machine (NVL72) of Nodes compute nodes, each with NICsPerNode back-end
// NICs. NIC i of every node is rail i; the NVLink domain decides which
// traffic crosses the fabric.
type System struct {
	Key          string `toml:"-" json:"key"`
	Name         string `toml:"name" json:"name"`
	GPU          string `toml:"gpu" json:"gpu"` // JCT GPU preset (data/jct.toml)
	GPUs         int    `toml:"gpus" json:"gpus"`
	Nodes        int    `toml:"nodes" json:"nodes"`
	NICsPerNode  int    `toml:"nics_per_node" json:"nics_per_node"`
	NIC          string `toml:"nic" json:"nic"`
	NVLinkDomain int    `toml:"nvlink_domain" json:"nvlink_domain"`
	// Generation names the GPU generation an 8-GPU server and a
	// rack-scale system share though their GPU presets differ (HGX B200
	// and GB200 NVL72: "blackwell"); the serving comparison weighs one
	// against the other. Empty: the GPU preset alone pairs systems.
	Generation string `toml:"generation,omitempty" json:"generation,omitempty"`
	// RackNodes is the nodes of one rack that the reference design puts
	// on one leaf per rail (rack-aligned leaves); 0: no rack alignment.
	RackNodes int `toml:"rack_nodes" json:"rack_nodes"`
	// UnitNodes is the nodes of the vendor's scalable unit (0: a unit is
	// the nodes one group of leaves holds), and LayoutSource where the
	// reference layout is published.
	UnitNodes int `toml:"unit_nodes" json:"unit_nodes"`
	// PodLeaves is the leaves per plane under one set of spines in the
	// reference design's three tiers (GB200 SuperPOD: an SU's 8 leaves
	// of one rail under 6 spines); 0: as many whole units as fit.
	PodLeaves int `toml:"pod_leaves" json:"pod_leaves"`
	// ThreeTierUnits is the scalable units from which the reference
	// design joins them through such pods and core groups, three tiers,
	// even where two would hold the nodes (GB200 SuperPOD: from 2 SU,
	// RA-11338-001 Table 3); 0: the fewest tiers that fit.
	ThreeTierUnits int `toml:"three_tier_units" json:"three_tier_units"`
	// StrictSpinesOn is the switch (catalog key) on which the reference
	// design splits every full leaf's uplinks evenly over its spines
	// however many more spines that takes than the links need (the DGX
	// B300 XDR RA on Q3400: 4 SU on 18 spines where 16 carry the links,
	// 8 SU on 36 where 32 do); "" or another switch: strict balance may
	// add at most a unit's worth of spines.
	StrictSpinesOn string `toml:"strict_spines_on" json:"strict_spines_on,omitempty"`
	LayoutSource   string `toml:"layout_source" json:"layout_source"`
	ServerModule   string `toml:"server_module" json:"server_module"`       // transceiver key of the back-end cages
	ModulesPerNode int    `toml:"modules_per_node" json:"modules_per_node"` // of ServerModule
	NICsIncluded   bool   `toml:"nics_included" json:"nics_included"`       // the price includes the NICs
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	// RackUnits is the height of one node (a server, or a rack-scale
	// system's compute tray); Cooling "air" or "liquid"; SwitchTrays the
	// NVLink switch trays in a rack-scale system's rack.
	RackUnits   int    `toml:"rack_units" json:"rack_units"`
	Cooling     string `toml:"cooling" json:"cooling"`
	SwitchTrays int    `toml:"switch_trays" json:"switch_trays"`
	Provenance
}

// GPUsPerNode is the GPUs of one compute node (tray or server).
func (s *System) GPUsPerNode() int { return s.GPUs / s.Nodes }

// RackScale reports whether the system is more than one node.
func (s *System) RackScale() bool { return s.Nodes > 1 }

// check validates a catalog system against the rest of the catalog.
func (s *System) check(c *Catalog) error {
	if err := s.checkParts(c); err != nil {
		return err
	}
	return s.checkLayout()
}

// checkParts checks the system's GPUs, nodes, NICs and modules, and that
// its NIC and server module are in the catalog.
func (s *System) checkParts(c *Catalog) error {
	switch {
	case s.GPUs < 1 || s.Nodes < 1 || s.GPUs%s.Nodes != 0:
		return fmt.Errorf("system %s: gpus %d must split evenly over %d nodes", s.Key, s.GPUs, s.Nodes)
	case s.NICsPerNode < 1 || s.NVLinkDomain < 1 || s.ModulesPerNode < 1:
		return fmt.Errorf("system %s: needs nics_per_node, nvlink_domain and modules_per_node", s.Key)
	case c.NICs[s.NIC] == nil:
		return fmt.Errorf("system %s: unknown nic %q", s.Key, s.NIC)
	case c.Transceivers[s.ServerModule] == nil:
		return fmt.Errorf("system %s: unknown server_module %q", s.Key, s.ServerModule)
	}
	return nil
}

// checkLayout checks the system's reference layout: rack and unit sizes
// in whole systems, the three-tier units and the layout's source.
func (s *System) checkLayout() error {
	switch {
	case s.RackNodes < 0 || s.RackNodes > 0 && s.Nodes%s.RackNodes != 0 && s.RackNodes%s.Nodes != 0:
		return fmt.Errorf("system %s: rack_nodes %d must be a whole number of systems (%d nodes each)", s.Key, s.RackNodes, s.Nodes)
	case s.UnitNodes < 0 || s.UnitNodes > 0 && s.UnitNodes%s.Nodes != 0:
		return fmt.Errorf("system %s: unit_nodes %d must be whole systems of %d nodes", s.Key, s.UnitNodes, s.Nodes)
	case s.ThreeTierUnits < 0 || s.ThreeTierUnits > 0 && (s.PodLeaves == 0 || s.UnitNodes == 0):
		return fmt.Errorf("system %s: three_tier_units %d needs the reference pod (pod_leaves) and unit (unit_nodes)", s.Key, s.ThreeTierUnits)
	case (s.RackNodes > 0 || s.UnitNodes > 0) && s.LayoutSource == "":
		return fmt.Errorf("system %s: a reference layout (rack_nodes, unit_nodes) needs its layout_source", s.Key)
	}
	return nil
}

// SystemKeys lists the catalog systems, sorted, with "custom" last.
func (c *Catalog) SystemKeys() []string { return append(SortedKeys(c.Systems), CustomSystem) }

// system is the scenario's catalog system, nil for custom servers.
func (s *Scenario) system(cat *Catalog) *System {
	k := s.Cluster.System
	if k == "" || k == CustomSystem {
		return nil
	}
	return cat.Systems[k]
}

// WithSystem returns the scenario with the packaging its system fixes:
// GPUs and NICs per node (a tray of a rack-scale system), the NIC and its
// speed. A custom scenario is returned as is.
func (s Scenario) WithSystem(cat *Catalog) Scenario {
	sys := s.system(cat)
	if sys == nil {
		return s
	}
	s.Cluster.GPUsPerServer = sys.GPUsPerNode()
	s.Network.NICsPerServer = sys.NICsPerNode
	s.Network.NIC = sys.NIC
	s.Network.NICGbps = cat.NICs[sys.NIC].Gbps
	return s
}

// validateSystem checks the system key.
func (s *Scenario) validateSystem(cat *Catalog) []error {
	k := s.Cluster.System
	if k == "" || k == CustomSystem || cat.Systems[k] != nil {
		return nil
	}
	return []error{fielderr.New("cluster.system", "use one of "+strings.Join(cat.SystemKeys(), ", "), "unknown system %q", k)}
}

// ConflictsWithSystem reports keys a file sets that its system fixes, with
// values that differ: the system wins, so the file would be misread.
// defined says whether a dotted key is in the file.
func (s *Scenario) ConflictsWithSystem(cat *Catalog, defined func(key string) bool) []error {
	sys := s.system(cat)
	if sys == nil {
		return nil
	}
	var errs []error
	nic := cat.NICs[sys.NIC]
	for _, c := range []struct {
		key       string
		got, want string
	}{
		{"cluster.gpus_per_server", fmt.Sprint(s.Cluster.GPUsPerServer), fmt.Sprint(sys.GPUsPerNode())},
		{"network.nics_per_server", fmt.Sprint(s.Network.NICsPerServer), fmt.Sprint(sys.NICsPerNode)},
		{"network.nic", s.Network.NIC, sys.NIC},
		{"network.nic_gbps", fmt.Sprint(s.Network.NICGbps), fmt.Sprint(nic.Gbps)},
	} {
		if defined(c.key) && c.got != c.want && !(c.key == "network.nic" && c.got == Auto) {
			errs = append(errs, fielderr.New(c.key, fmt.Sprintf("remove it (the system gives %s) or set cluster.system = %q", c.want, CustomSystem),
				"%s is fixed by system %s at %s", c.got, sys.Key, c.want))
		}
	}
	if s.Workload != nil && defined("workload.gpu") && s.Workload.GPU != sys.GPU && !isVariantOf(cat, s.Workload.GPU, sys.GPU) {
		fix := fmt.Sprintf("remove it or write %q", sys.GPU)
		if v := variantList(cat, sys.GPU); v != "" {
			fix += " (or a variant of it: " + v + ")"
		}
		errs = append(errs, fielderr.New("workload.gpu", fix,
			"%s is not the GPU of %s (%s)", s.Workload.GPU, sys.Key, sys.GPU))
	}
	return errs
}

// isVariantOf says whether GPU key is a variant of base in the JCT data
// (data/jct.toml variant_of): an H800 may stand in a DGX H100's place.
func isVariantOf(cat *Catalog, key, base string) bool {
	if cat.JCT == nil {
		return false
	}
	g := cat.JCT.GPUs[key]
	return g != nil && g.VariantOf == base
}

// variantList lists base's variants, "" where it has none.
func variantList(cat *Catalog, base string) string {
	var out []string
	if cat.JCT != nil {
		for k, g := range cat.JCT.GPUs {
			if g.VariantOf == base {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// nodes is how many catalog systems hold the scenario's GPUs (whole
// systems: a rack-scale system is bought by the rack) and the nodes they
// bring; for custom servers, the servers twice.
func (s *Scenario) nodes(cat *Catalog) (systems, nodes int) {
	if sys := s.system(cat); sys != nil {
		systems = ceilDiv(s.Cluster.GPUs, sys.GPUs)
		return systems, systems * sys.Nodes
	}
	n := ceilDiv(s.Cluster.GPUs, s.Cluster.GPUsPerServer)
	return n, n
}

// domain is the system's NVLink domain, 0 for nil (custom servers).
func (s *System) domain() int {
	if s == nil {
		return 0
	}
	return s.NVLinkDomain
}

// Leaf alignments (network.leaf_alignment).
const (
	// AlignRack: a leaf takes the nodes of whole racks on its rail, and
	// leaves ports empty rather than split a rack over two leaves (NVIDIA's
	// GB200 SuperPOD: one QM9700 leaf per rack per rail, 18 down, 18 up).
	AlignRack = "rack"
	// AlignPacked: a leaf takes as many nodes as it has ports for.
	AlignPacked = "packed"
)

// leafAlignment is the alignment the scenario asks for, or the system's
// reference layout: rack-aligned where the system records its racks.
func (s *Scenario) leafAlignment(sys *System) string {
	if a := s.Network.LeafAlignment; a != "" {
		return a
	}
	if sys != nil && sys.RackNodes > 0 {
		return AlignRack
	}
	return AlignPacked
}
