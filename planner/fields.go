package planner

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
	"fabricplan/planner/serve"
)

// FieldKind is how an input's text is read.
type FieldKind int

// Field kinds.
const (
	FieldText   FieldKind = iota // free text (a name, a catalog key)
	FieldCount                   // a whole number: 1024, 1,024, 1_024, 16k
	FieldNumber                  // a number with decimals: 2.5, 1e12, 1.5k
	FieldMoney                   // US dollars: 300000, $300,000, 4.6M
	FieldChoice                  // one of Choices (or, with no Choices, of the catalog's keys)
	FieldToggle                  // "true" or "false"
)

// Limits of the inputs the field table reads. Larger values are typing
// mistakes, and these keep every product the JCT model forms inside
// float64; the scenario's validation and the search use the same ones.
const (
	MaxTP            = 1 << 16 // tensor-parallel ranks
	MaxPP            = 1 << 16 // pipeline stages
	MaxVPP           = 1 << 10 // virtual stages per pipeline stage
	MaxEP            = 1 << 16 // expert-parallel ranks
	MaxCP            = 1 << 16 // context-parallel ranks
	MaxMicroBatch    = 1 << 12 // sequences per micro-batch
	MaxJobs          = 1 << 12 // jobs sharing the cluster
	MaxQueuePairs    = 128     // queue pairs per connection
	MaxHeads         = 1 << 16 // attention (and KV) heads
	MaxRouteNodes    = 1 << 12 // nodes a token's experts may span
	MaxTokensTotal   = 1e16    // a token budget
	MaxNICGbps       = 100_000 // a NIC speed in Gb/s (the catalog lists those that exist)
	MaxZeROStage     = 3
	MaxTiers         = 3
	MaxGPUsPerServer = maxGPUsPerServer
	MaxServersPerToR = maxGPUsPerServer // a ToR serves at most as many servers as a server has GPUs (a generous bound)
	MaxNICsPerServer = maxNICsPerServer
	MaxPortsPerNIC   = maxPortsPerNIC
	MaxPlanes        = maxPlanes
	MaxCableM        = maxCableM
)

// RatioChoices are the leaf oversubscriptions the window offers and the
// design search tries: non-blocking to 4:1, the range vendors' reference
// designs for AI back ends publish. Any D:U up to 64:64 can be typed.
var RatioChoices = []string{"1:1", "2:1", "3:1", "4:1"}

// Field is one input of a scenario: its file key, the label the window
// shows (and errors use), how its text is read, its limits and choices,
// and how to read it from and write it to a scenario. Get never changes
// the scenario; Set changes only what the key names (and what the key's
// rule resets, as a new model preset resets the model's shape) and
// leaves the scenario unchanged on error.
type Field struct {
	Key      string
	Label    string
	Kind     FieldKind
	Min, Max float64  // the range of a number; Max 0: checked by validation only
	Optional bool     // blank text sets the default
	Choices  []string // the values a choice may take (nil: catalog keys)
	Unit     string   // of a number: "m", "US$", "hours"
	Help     string   // what the input means, for usage text and hints
	// Also names the other inputs a Set may change or whose value it
	// decides (a ToR size makes the design top-of-rack).
	Also []string
	Get  func(*Scenario) string
	Set  func(*Scenario, string) error
}

// Fields lists every input of a scenario, in the order the window
// shows them. Prices are edited through "prices.ITEM" (PriceField).
func Fields() []Field { return slices.Clone(fieldTable) }

// FieldByKey returns the input with key; ok is false for an unknown key.
func FieldByKey(key string) (Field, bool) {
	if i, ok := fieldIndex[key]; ok {
		return fieldTable[i], true
	}
	if item, ok := strings.CutPrefix(key, "prices."); ok && item != "" {
		return PriceField(item), true
	}
	return Field{}, false
}

// PriceField is the override of one catalog item's price; blank drops it.
// Whether item is in the catalog is checked by the caller (or Validate).
func PriceField(item string) Field {
	key := "prices." + item
	return Field{Key: key, Label: "Price of " + item, Kind: FieldMoney, Max: MaxPriceUSD, Optional: true, Unit: "US$",
		Get: func(s *Scenario) string {
			if v, ok := s.Prices[item]; ok {
				return formatNumber(v)
			}
			return ""
		},
		Set: func(s *Scenario, text string) error {
			if strings.TrimSpace(text) == "" {
				s.Prices = cloneMap(s.Prices)
				delete(s.Prices, item)
				return nil
			}
			v, err := textfmt.ParseMoney(text)
			if err != nil {
				return err
			}
			s.Prices = cloneMap(s.Prices)
			if s.Prices == nil {
				s.Prices = map[string]float64{}
			}
			s.Prices[item] = v
			return nil
		}}
}

func cloneMap(m map[string]float64) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ParseToggle reads "true"/"false" (also on/off, yes/no).
func ParseToggle(text string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(text)) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off: write true or false", strings.TrimSpace(text))
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Parse reads text as the field's value would be, without a scenario:
// the error is what Set returns.
func (f Field) Parse(text string) error {
	s := NewScenario()
	return f.Set(&s, text)
}

// ---- builders ----

// countField is a whole number from lo to hi at *at(s); optional
// fields take blank (and show 0) as the default.
func countField(key, label string, lo, hi int, optional bool, help string, at func(*Scenario) *int) Field {
	return Field{Key: key, Label: label, Kind: FieldCount, Min: float64(lo), Max: float64(hi), Optional: optional, Help: help,
		Get: func(s *Scenario) string {
			c := *s
			v := *at(&c)
			if optional && v == 0 {
				return ""
			}
			return strconv.Itoa(v)
		},
		Set: func(s *Scenario, text string) error {
			if optional && strings.TrimSpace(text) == "" {
				*at(s) = 0
				return nil
			}
			v, err := textfmt.ParseInt(text, lo, hi)
			if err != nil {
				return err
			}
			*at(s) = v
			return nil
		}}
}

// numberField is a number from lo to hi (hi 0: any the validation
// allows) at *at(s), with an optional unit suffix the user may type.
func numberField(key, label, unit string, lo, hi float64, optional bool, at func(*Scenario) *float64) Field {
	max := hi
	if max == 0 {
		max = math.MaxFloat64
	}
	return Field{Key: key, Label: label, Kind: FieldNumber, Min: lo, Max: hi, Optional: optional, Unit: unit,
		Get: func(s *Scenario) string {
			c := *s
			v := *at(&c)
			if optional && v == 0 {
				return ""
			}
			return formatNumber(v)
		},
		Set: func(s *Scenario, text string) error {
			t := strings.TrimSpace(text)
			if unit != "" {
				t = strings.TrimSpace(strings.TrimSuffix(t, unit))
			}
			if optional && t == "" {
				*at(s) = 0
				return nil
			}
			v, err := textfmt.ParseNumber(t, lo, max)
			if err != nil {
				return err
			}
			*at(s) = v
			return nil
		}}
}

// optionalNumberField is a number from lo to hi at *at(s) that may be
// left out: blank stores nil (the data's default), so 0 stays a value.
// Set stores a new number, never writing through a pointer a copy of
// the scenario shares.
func optionalNumberField(key, label string, lo, hi float64, help string, at func(*Scenario) **float64) Field {
	return Field{Key: key, Label: label, Kind: FieldNumber, Min: lo, Max: hi, Optional: true, Help: help,
		Get: func(s *Scenario) string {
			c := *s
			if v := *at(&c); v != nil {
				return formatNumber(*v)
			}
			return ""
		},
		Set: func(s *Scenario, text string) error {
			t := strings.TrimSpace(text)
			if t == "" {
				*at(s) = nil
				return nil
			}
			v, err := textfmt.ParseNumber(t, lo, hi)
			if err != nil {
				return err
			}
			*at(s) = &v
			return nil
		}}
}

// choiceField is one of choices at *at(s) (choices nil: any text, which
// validation checks against the catalog); blank, when it is a choice,
// is the default the file leaves out.
func choiceField(key, label string, choices []string, at func(*Scenario) *string) Field {
	return Field{Key: key, Label: label, Kind: FieldChoice, Choices: choices, Optional: slices.Contains(choices, ""),
		Get: func(s *Scenario) string {
			c := *s
			return *at(&c)
		},
		Set: func(s *Scenario, text string) error {
			t := strings.TrimSpace(text)
			if choices != nil && !slices.Contains(choices, t) {
				return fmt.Errorf("%q is not a choice: %s", t, choiceList(choices))
			}
			*at(s) = t
			return nil
		}}
}

func choiceList(choices []string) string {
	var named []string
	for _, c := range choices {
		if c == "" {
			c = `"" (default)`
		}
		named = append(named, c)
	}
	if len(named) == 1 {
		return "choose " + named[0]
	}
	return "choose " + strings.Join(named[:len(named)-1], ", ") + " or " + named[len(named)-1]
}

func toggleField(key, label string, at func(*Scenario) *bool) Field {
	return Field{Key: key, Label: label, Kind: FieldToggle, Choices: []string{"false", "true"},
		Get: func(s *Scenario) string {
			c := *s
			return strconv.FormatBool(*at(&c))
		},
		Set: func(s *Scenario, text string) error {
			v, err := ParseToggle(text)
			if err != nil {
				return err
			}
			*at(s) = v
			return nil
		}}
}

// workload is the scenario's [workload] table, made from the default job
// when the scenario has none.
func workload(s *Scenario) *perf.Workload {
	if s.Workload == nil {
		w := perf.NewWorkload()
		s.Workload = &w
	} else {
		w := *s.Workload // never write through a snapshot's pointer
		s.Workload = &w
	}
	return s.Workload
}

// ownTable gives *p a table of its own to edit: a copy of the one it
// points to (never written through: a snapshot of the scenario may share
// it), or an empty one where there is none.
func ownTable[T any](p **T) *T {
	var t T
	if *p != nil {
		t = **p
	}
	*p = &t
	return *p
}

// facility is the scenario's [facility] table (ownTable).
func facility(s *Scenario) *hall.Facility { return ownTable(&s.Facility) }

// networks is the scenario's [networks] table; tidyNetworks drops it
// again when every key is back to its default.
func networks(s *Scenario) *NetworksInputs { return ownTable(&s.Networks) }

func tidyNetworks(f Field) Field {
	set := f.Set
	f.Set = func(s *Scenario, text string) error {
		if err := set(s, text); err != nil {
			return err
		}
		if s.Networks != nil && *s.Networks == (NetworksInputs{}) {
			s.Networks = nil
		}
		return nil
	}
	return f
}

// reliabilityField is an optional override of a [reliability] figure:
// blank drops it (the data file's value); a table with no override left
// is dropped.
func reliabilityField(key, label, unit string, at func(*ReliabilityInputs) **float64) Field {
	return Field{Key: "reliability." + key, Label: label, Kind: FieldNumber, Optional: true, Unit: unit,
		Get: func(s *Scenario) string {
			if s.Reliability == nil {
				return ""
			}
			in := *s.Reliability
			if v := *at(&in); v != nil {
				return formatNumber(*v)
			}
			return ""
		},
		Set: func(s *Scenario, text string) error {
			in := ReliabilityInputs{}
			if s.Reliability != nil {
				in = *s.Reliability
			}
			*at(&in) = nil
			if t := strings.TrimSpace(text); t != "" {
				v, err := textfmt.ParseNumber(t, 0, math.MaxFloat64)
				if err != nil {
					return fmt.Errorf("%w: write e.g. 5 or 2.5", err)
				}
				*at(&in) = &v
			}
			s.Reliability = &in
			if in == (ReliabilityInputs{}) {
				s.Reliability = nil
			}
			return nil
		}}
}

// ---- the table ----

var fieldTable = buildFieldTable()

var fieldIndex = func() map[string]int {
	idx := make(map[string]int, len(fieldTable))
	for i, f := range fieldTable {
		if _, dup := idx[f.Key]; dup {
			panic("planner: two fields named " + f.Key)
		}
		idx[f.Key] = i
	}
	return idx
}()

func buildFieldTable() []Field {
	fs := clusterFields()
	fs = append(fs, mediaFields()...)
	fs = append(fs, workloadFields()...)
	fs = append(fs, servingFields()...)
	fs = append(fs, reliabilityFields()...)
	fs = append(fs, networksFields()...)
	return append(fs, facilityFields()...)
}

func clusterFields() []Field {
	system := Field{Key: "cluster.system", Label: "System", Kind: FieldChoice, Help: "catalog system or custom",
		Get: func(s *Scenario) string {
			if s.Cluster.System == "" {
				return CustomSystem
			}
			return s.Cluster.System
		},
		Set: func(s *Scenario, text string) error {
			t := strings.ToLower(strings.TrimSpace(text))
			if t == CustomSystem {
				t = ""
			}
			s.Cluster.System = t
			return nil
		}}
	fabric := choiceField("network.fabric", "Fabric", []string{string(InfiniBand), string(Ethernet)},
		func(s *Scenario) *string { return (*string)(&s.Network.Fabric) })
	fabricSet := fabric.Set
	fabric.Set = func(s *Scenario, text string) error { return fabricSet(s, strings.ToLower(text)) }
	ratio := Field{Key: "network.oversubscription", Label: "Leaf oversubscription", Kind: FieldChoice, Choices: RatioChoices,
		Help: "leaf down:up ratio, e.g. 1:1 or 2:1; 1:2 under-subscribes (more uplinks than downlinks)",
		Get:  func(s *Scenario) string { return s.Network.Oversubscription },
		Set: func(s *Scenario, text string) error {
			t := strings.TrimSpace(text)
			if _, _, err := LeafRatio(t); err != nil {
				return err
			}
			s.Network.Oversubscription = t
			return nil
		}}
	railOptimized := toggleField("network.rail_optimized", "Rail-optimized (one leaf per rail)", func(s *Scenario) *bool { return &s.Network.RailOptimized })
	railOptimized.Also = []string{"network.topology"} // the style reads it
	return append([]Field{
		{Key: "name", Label: "Scenario name", Kind: FieldText,
			Get: func(s *Scenario) string { return s.Name },
			Set: func(s *Scenario, text string) error { s.Name = strings.TrimSpace(text); return nil }},
		system,
		countField("cluster.gpus", "GPUs", 1, MaxGPUs, false, "GPU count", func(s *Scenario) *int { return &s.Cluster.GPUs }),
		countField("cluster.gpus_per_server", "GPUs per server", 1, MaxGPUsPerServer, false, "", func(s *Scenario) *int { return &s.Cluster.GPUsPerServer }),
		countField("network.nic_gbps", "NIC speed", 1, MaxNICGbps, false, "Gb/s", func(s *Scenario) *int { return &s.Network.NICGbps }),
		fabric,
		{Key: "network.switch", Label: "Switch", Kind: FieldChoice, Help: "switch catalog key or auto",
			Get: func(s *Scenario) string { return s.Network.Switch },
			Set: func(s *Scenario, text string) error {
				t := strings.TrimSpace(text)
				if t == "" {
					t = Auto
				}
				s.Network.Switch = t
				return nil
			}},
		ratio,
		countField("network.planes", "Planes", 1, MaxPlanes, false, "independent fabric planes", func(s *Scenario) *int { return &s.Network.Planes }),
		countField("network.ports_per_nic", "Ports per NIC", 1, MaxPortsPerNIC, true, "blank: the NIC's default split", func(s *Scenario) *int { return &s.Network.PortsPerNIC }),
		{Key: "network.tiers", Label: "Tiers", Kind: FieldChoice, Choices: []string{"0", "1", "2", "3"}, Help: "0: the fewest that fit",
			Get: func(s *Scenario) string { return strconv.Itoa(s.Network.Tiers) },
			Set: func(s *Scenario, text string) error {
				v, err := textfmt.ParseInt(text, 0, MaxTiers)
				if err != nil {
					return errors.New("choose 1, 2 or 3 tiers, or 0 for the fewest that fit")
				}
				s.Network.Tiers = v
				return nil
			}},
		railOptimized,
		countField("network.nics_per_server", "NICs per server", 1, MaxNICsPerServer, true, "blank: one per GPU", func(s *Scenario) *int { return &s.Network.NICsPerServer }),
		choiceField("network.load_balancing", "RoCE load balancing", []string{LBAdaptive, LBECMP, LBSpray}, func(s *Scenario) *string { return &s.Network.LoadBalancing }),
		choiceField("network.leaf_alignment", "Leaf alignment", []string{"", AlignRack, AlignPacked}, func(s *Scenario) *string { return &s.Network.LeafAlignment }),
		choiceField("network.routing", "Routing (both fabrics)", []string{"", RouteStatic, RouteAdaptive}, func(s *Scenario) *string { return &s.Network.Routing }),
		toggleField("network.in_network_reduction", "In-network reduction (SHARP)", func(s *Scenario) *bool { return &s.Network.InNetworkReduction }),
		numberField("cluster.server_price_usd", "Server price", "", 0, MaxPriceUSD, true, func(s *Scenario) *float64 { return &s.Cluster.ServerPriceUSD }),
		choiceField("pricing.basis", "Price basis", []string{"", BasisStreet, BasisList, BasisVolume}, func(s *Scenario) *string { return &s.Pricing.Basis }),
	}, styleFields()...)
}

// SpineRatioChoices are the spine ratios offered: the leaf's, and Meta's
// 7:1 above non-blocking pods.
var SpineRatioChoices = append(slices.Clone(RatioChoices), "7:1")

// styleFields are the design style's inputs: the style, the ToR size,
// the three-tier pod size and the spines' ratio.
func styleFields() []Field {
	spine := Field{Key: "network.spine_oversubscription", Label: "Spine oversubscription (3 tiers)", Kind: FieldChoice, Choices: SpineRatioChoices,
		Help: "three-tier spines' down:up ratio toward the cores, e.g. 7:1",
		Get:  func(s *Scenario) string { return s.Network.SpineRatio() },
		Set: func(s *Scenario, text string) error {
			t := strings.TrimSpace(text)
			if _, _, err := Ratio(t); err != nil {
				return err
			}
			if t == "1:1" {
				t = "" // non-blocking spines: the file leaves the key out
			}
			s.Network.SpineOversubscription = t
			return nil
		}}
	style := Field{Key: "network.topology", Label: "Design style", Kind: FieldChoice, Choices: Topologies,
		Help: "rail-optimized, top-of-rack, rail-only or dual-plane",
		Get:  func(s *Scenario) string { return s.Network.Style() },
		Set: func(s *Scenario, text string) error {
			t := strings.ToLower(strings.TrimSpace(text))
			if !slices.Contains(Topologies, t) {
				return fmt.Errorf("%q is not a design style: %s", t, choiceList(Topologies))
			}
			// Rail-optimized and top-of-rack are written as rail_optimized
			// alone, so files keep the key they always had.
			n := &s.Network
			n.Topology, n.RailOptimized = "", t != TopoToR
			if t == TopoRailOnly || t == TopoDualPlane {
				n.Topology = t
			}
			n.DropOtherStyleInputs()
			return nil
		}}
	tor := countField("network.servers_per_tor", "Servers per ToR", 1, MaxServersPerToR, true, "top-of-rack: servers one leaf in their rack serves",
		func(s *Scenario) *int { return &s.Network.ServersPerToR })
	torSet := tor.Set
	tor.Set = func(s *Scenario, text string) error {
		if err := torSet(s, text); err != nil {
			return err
		}
		if s.Network.ServersPerToR > 0 { // a ToR size makes the design top-of-rack
			s.Network.RailOptimized, s.Network.Topology = false, ""
			s.Network.ServersPerLeaf = 0 // a rail leaf's size
		}
		return nil
	}
	style.Also = []string{"network.rail_optimized", "network.servers_per_tor", "network.servers_per_leaf", "network.leaf_pairs", "network.peer_link_ports"}
	tor.Also = []string{"network.rail_optimized", "network.topology", "network.servers_per_leaf"}
	fs := []Field{spine, style, tor}
	fs = append(fs, leafShapeFields()...)
	return append(fs,
		countField("network.pod_gpus", "GPUs per pod (3 tiers)", 1, MaxGPUs, true, "as many as a spine serves",
			func(s *Scenario) *int { return &s.Network.PodGPUs }),
		countField("network.uplink_gbps", "Uplink speed (Gb/s)", 1, MaxUplinkGbps, true, "the server port speed",
			func(s *Scenario) *int { return &s.Network.UplinkGbps }),
		countField("network.core_uplink_gbps", "Core uplink speed (Gb/s, 3 tiers)", 1, MaxUplinkGbps, true, "the uplink speed",
			func(s *Scenario) *int { return &s.Network.CoreUplinkGbps }),
		tierSwitchField("network.spine_switch", "Spine switch", "the spines' switch catalog key, or auto for the cheapest that fits (blank: the leaf's)",
			func(s *Scenario) *string { return &s.Network.SpineSwitch }),
		tierSwitchField("network.core_switch", "Core switch (3 tiers)", "the cores' switch catalog key, or auto for the cheapest that fits (blank: the spines')",
			func(s *Scenario) *string { return &s.Network.CoreSwitch }),
	)
}

// leafShapeFields are the leaf shapes of issue 46 (leafshape.go,
// leafstorage.go, leafpairs.go): a rail leaf's fixed size, leaf pairs
// and their peer links, the fewest spines, and storage nodes on the
// compute leaves. Blank (or off) is the leaf the planner fills. Leaf
// pairs are top-of-rack (turning them on makes the design so, as a ToR
// size does); a peer link and a storage node's ports mean nothing
// without pairs or nodes, so clearing those clears them. Conflicts the
// Set does not resolve (pairs on InfiniBand, storage nodes beside
// pairs) are refused by validation, naming the field and the fix.
func leafShapeFields() []Field {
	leaf := countField("network.servers_per_leaf", "Servers per rail leaf", 1, MaxServersPerLeaf, true,
		"rail-optimized: servers one leaf takes a port of (blank: as many as its ports hold)",
		func(s *Scenario) *int { return &s.Network.ServersPerLeaf })
	pairs := toggleField("network.leaf_pairs", "Leaf pairs (MLAG / ESI-LAG, Ethernet top-of-rack)", func(s *Scenario) *bool { return &s.Network.LeafPairs })
	pairsSet := pairs.Set
	pairs.Set = func(s *Scenario, text string) error {
		if err := pairsSet(s, text); err != nil {
			return err
		}
		n := &s.Network
		if n.LeafPairs { // pairs dual-home top-of-rack servers
			n.RailOptimized, n.Topology, n.ServersPerLeaf = false, "", 0
		} else {
			n.PeerLinkPorts = 0 // a peer link joins a pair
		}
		return nil
	}
	pairs.Also = []string{"network.rail_optimized", "network.topology", "network.servers_per_leaf", "network.peer_link_ports"}
	peer := countField("network.peer_link_ports", "Peer-link ports per paired leaf", 1, MaxPeerLinkPorts, true,
		"leaf pairs: ports each leaf gives the link to its peer (blank: ESI-LAG, no peer link)",
		func(s *Scenario) *int { return &s.Network.PeerLinkPorts })
	nodes := countField("network.storage_nodes", "Storage nodes on the compute leaves", 1, MaxGPUs, true,
		"storage nodes cabled to the back end's leaves at the server port speed",
		func(s *Scenario) *int { return &s.Network.StorageNodes })
	nodesSet := nodes.Set
	nodes.Set = func(s *Scenario, text string) error {
		if err := nodesSet(s, text); err != nil {
			return err
		}
		if s.Network.StorageNodes == 0 {
			s.Network.StorageNodePorts = 0 // a node's ports, with no node
		}
		return nil
	}
	nodes.Also = []string{"network.storage_node_ports"}
	return []Field{leaf, pairs, peer,
		countField("network.min_spines", "Fewest spines a plane", 1, MaxMinSpines, true,
			"spines a plane (a pod, in three tiers) keeps at least, for growth (blank: those the links need)",
			func(s *Scenario) *int { return &s.Network.MinSpines }),
		nodes,
		countField("network.storage_node_ports", "Back-end ports per storage node", 1, MaxStoragePortsEach, true,
			"a multiple of the planes (blank: one a plane)",
			func(s *Scenario) *int { return &s.Network.StorageNodePorts }),
	}
}

// tierSwitchField is the input of a spine's or core's switch model: a
// catalog key, or blank for the tier below's model.
func tierSwitchField(key, label, help string, at func(*Scenario) *string) Field {
	return Field{Key: key, Label: label, Kind: FieldChoice, Optional: true, Help: help,
		Get: func(s *Scenario) string { return *at(s) },
		Set: func(s *Scenario, text string) error {
			*at(s) = strings.TrimSpace(text)
			return nil
		}}
}

// MediaTiers are the keys of the three link tiers in [network.media].
var MediaTiers = [3]string{"server_leaf", "leaf_spine", "spine_core"}

func mediaFields() []Field {
	var fs []Field
	media := []string{"", string(Optics), string(AOC), string(ACC), string(DAC)}
	for i, name := range []string{"Server-leaf", "Leaf-spine", "Spine-core"} {
		medium := choiceField("network.media."+MediaTiers[i], name+" medium", media, func(s *Scenario) *string {
			return (*string)([3]*Medium{&s.Network.Media.ServerLeaf, &s.Network.Media.LeafSpine, &s.Network.Media.SpineCore}[i])
		})
		length := numberField("network.media."+MediaTiers[i]+"_m", name+" length (m)", "m", 0.1, MaxCableM, true, func(s *Scenario) *float64 {
			return [3]*float64{&s.Network.Media.ServerLeafM, &s.Network.Media.LeafSpineM, &s.Network.Media.SpineCoreM}[i]
		})
		fs = append(fs, medium, length)
	}
	return fs
}

func workloadFields() []Field {
	model := Field{Key: "workload.model", Label: "Model", Kind: FieldChoice, Help: "a model preset of the JCT data",
		Get: func(s *Scenario) string { c := *s; return workload(&c).Model },
		Set: func(s *Scenario, text string) error {
			w := workload(s)
			w.Model = strings.TrimSpace(text)
			// A preset replaces any shape typed for the previous model.
			w.ParamsB, w.ActiveParamsB, w.Layers, w.Hidden, w.SeqLen, w.Vocab, w.Experts, w.TopK = 0, 0, 0, 0, 0, 0, 0, 0
			return nil
		}}
	jobs := countField("workload.jobs", "Jobs sharing the cluster", 1, MaxJobs, false, "each on an equal share of the GPUs",
		func(s *Scenario) *int { return &workload(s).Jobs })
	jobs.Get = func(s *Scenario) string { c := *s; return strconv.Itoa(max(workload(&c).Jobs, 1)) }
	precision := choiceField("workload.precision", "GEMM precision", precisions, func(s *Scenario) *string { return &workload(s).Precision })
	pickPrecision := precision.Set
	precision.Set = func(s *Scenario, text string) error {
		if err := pickPrecision(s, text); err != nil {
			return err
		}
		if w := workload(s); w.Precision == perf.PrecisionBF16 {
			w.Precision = "" // the default, left out of the file
		}
		return nil
	}
	precision.Get = func(s *Scenario) string {
		c := *s
		if p := workload(&c).Precision; p != "" {
			return p
		}
		return perf.PrecisionBF16
	}
	placement := choiceField("workload.placement", "Placement", []string{perf.PlacePacked, perf.PlaceSpread}, func(s *Scenario) *string { return &workload(s).Placement })
	placement.Get = func(s *Scenario) string {
		c := *s
		if p := workload(&c).Placement; p != "" {
			return p
		}
		return perf.PlacePacked
	}
	w := func(at func(*perf.Workload) *int) func(*Scenario) *int {
		return func(s *Scenario) *int { return at(workload(s)) }
	}
	return []Field{
		kindField(),
		model,
		choiceField("workload.gpu", "GPU", nil, func(s *Scenario) *string { return &workload(s).GPU }),
		countField("workload.tp", "Tensor parallel (tp)", 1, MaxTP, false, "", w(func(w *perf.Workload) *int { return &w.TP })),
		countField("workload.pp", "Pipeline parallel (pp)", 1, MaxPP, false, "", w(func(w *perf.Workload) *int { return &w.PP })),
		countField("workload.vpp", "Virtual pipeline stages", 1, MaxVPP, true, "blank: 5 with a pipeline (at most a stage's layers), 1 without", w(func(w *perf.Workload) *int { return &w.VPP })),
		countField("workload.cp", "Context parallel (cp)", 1, MaxCP, true, "blank: 1; splits each sequence", w(func(w *perf.Workload) *int { return &w.CP })),
		countField("workload.ep", "Expert parallel (ep)", 1, MaxEP, false, "", w(func(w *perf.Workload) *int { return &w.EP })),
		countField("workload.micro_batch", "Micro-batch (sequences)", 1, MaxMicroBatch, false, "", w(func(w *perf.Workload) *int { return &w.MicroBatch })),
		countField("workload.global_batch_tokens", "Global batch (tokens)", 1, maxBatchTokens, false, "", w(func(w *perf.Workload) *int { return &w.GlobalBatchTokens })),
		numberField("workload.tokens_total", "Token budget", "", 1, MaxTokensTotal, false, func(s *Scenario) *float64 { return &workload(s).TokensTotal }),
		toggleField("workload.zero", "Sharded optimizer (ZeRO / distributed optimizer)", func(s *Scenario) *bool { return &workload(s).ZeRO }),
		countField("workload.zero_stage", "ZeRO stage", 1, MaxZeROStage, true, "1-3; blank: 1 when sharded", w(func(w *perf.Workload) *int { return &w.ZeROStage })),
		toggleField("workload.recompute", "Activation recomputation", func(s *Scenario) *bool { return &workload(s).Recompute }),
		placement,
		jobs,
		precision,
		countField("workload.kv_heads", "KV heads (grouped-query attention)", 1, MaxHeads, true, "blank: the model's", w(func(w *perf.Workload) *int { return &w.KVHeads })),
		countField("workload.route_nodes", "MoE: nodes a token may reach", 1, MaxRouteNodes, true, "node-limited routing; blank: the model's", w(func(w *perf.Workload) *int { return &w.RouteNodes })),
		countField("workload.qps_per_connection", "Queue pairs per connection", 1, MaxQueuePairs, true, "flows ECMP hashes; blank: NCCL's 1", w(func(w *perf.Workload) *int { return &w.QueuePairs })),
		optionalNumberField("workload.polarization", "Hash polarization (static routing)", 0, 1,
			"share of a spine's uplinks a leaf's flows cannot reach; blank: the data's estimate", func(s *Scenario) **float64 { return &workload(s).Polarization }),
		choiceField("workload.phase", "Other jobs' phase", []string{"", perf.PhaseAligned}, func(s *Scenario) *string { return &workload(s).Phase }),
		numberField("workload.background_leaf", "Background load, leaf uplinks", "", 0, MaxBackgroundLoad, true, func(s *Scenario) *float64 { return &workload(s).BackgroundLeaf }),
		numberField("workload.background_spine", "Background load, spine uplinks", "", 0, MaxBackgroundLoad, true, func(s *Scenario) *float64 { return &workload(s).BackgroundSpine }),
		choiceField("workload.algorithm", "All-reduce algorithm", append([]string{""}, perf.Algorithms...), func(s *Scenario) *string { return &workload(s).Algorithm }),
	}
}

// kindField is workload.kind: training, inference or RL. Choosing
// inference or RL adds that kind's table with its defaults (keeping one
// already there) and drops the other's; training drops both.
func kindField() Field {
	kinds := []string{serve.KindTraining, serve.KindInference, serve.KindRL}
	f := choiceField("workload.kind", "Workload kind", kinds, func(s *Scenario) *string { return &workload(s).Kind })
	f.Help = "training times a step; inference and rl add their table ([inference], [rl]) with defaults"
	f.Optional = false
	f.Get = func(s *Scenario) string { return s.kind() }
	f.Set = func(s *Scenario, text string) error {
		k := strings.TrimSpace(text)
		if !slices.Contains(kinds, k) {
			return fmt.Errorf("%q is not a choice: %s", k, choiceList(kinds))
		}
		if k == s.kind() {
			return nil
		}
		w := workload(s)
		w.Kind, s.Inference, s.RL = k, nil, nil
		switch k {
		case serve.KindTraining:
			w.Kind = "" // the default, left out of the file
		case serve.KindInference:
			in := serve.NewInference()
			s.Inference = &in
		case serve.KindRL:
			s.RL = &serve.RL{}
		}
		return nil
	}
	return f
}

func reliabilityFields() []Field {
	return []Field{
		reliabilityField("spare_switches_pct", "Spare switches (% of each tier)", "%", func(in *ReliabilityInputs) **float64 { return &in.SpareSwitchesPct }),
		reliabilityField("spare_optics_pct", "Spare optics (% of transceivers and AOCs)", "%", func(in *ReliabilityInputs) **float64 { return &in.SpareOpticsPct }),
		reliabilityField("swap_hours", "Swap from a spare (hours)", "hours", func(in *ReliabilityInputs) **float64 { return &in.SwapHours }),
		reliabilityField("repair_hours", "Repair without a spare (hours)", "hours", func(in *ReliabilityInputs) **float64 { return &in.RepairHours }),
		reliabilityField("restart_min", "Restart after a failure (minutes)", "minutes", func(in *ReliabilityInputs) **float64 { return &in.RestartMin }),
		reliabilityField("checkpoint_interval_min", "Checkpoint interval (minutes)", "minutes", func(in *ReliabilityInputs) **float64 { return &in.CheckpointIntervalMin }),
	}
}

func networksFields() []Field {
	side := []string{"", NetSeparate, NetNone}
	fs := []Field{
		choiceField("networks.frontend", "Front end (in-band)", side, func(s *Scenario) *string { return &networks(s).FrontEnd }),
		countField("networks.frontend_ports", "Front-end ports per server", 1, maxSidePorts, true, "", func(s *Scenario) *int { return &networks(s).FrontEndPorts }),
		countField("networks.frontend_gbps", "Front-end port speed (Gb/s)", 1, MaxNICGbps, true, "", func(s *Scenario) *int { return &networks(s).FrontEndGbps }),
		choiceField("networks.storage", "Storage network", []string{"", NetSeparate, NetConverged, NetNone}, func(s *Scenario) *string { return &networks(s).Storage }),
		numberField("networks.storage_gbs_per_gpu", "Storage read bandwidth (GB/s per GPU)", "", 0, 0, true, func(s *Scenario) *float64 { return &networks(s).StorageGBsPerGPU }),
		countField("networks.storage_server_ports", "Switch ports to storage servers", 1, maxSidePorts, true, "", func(s *Scenario) *int { return &networks(s).StorageServerPorts }),
		choiceField("networks.oob", "Out-of-band management", side, func(s *Scenario) *string { return &networks(s).OOB }),
	}
	for i := range fs {
		fs[i] = tidyNetworks(fs[i])
	}
	return fs
}

// facilityFields are the [facility] inputs: the layout toggle, the two
// placements and the numbers, blank for the data default. The hall is
// the default layout: the toggle off writes layout = "flat".
func facilityFields() []Field {
	// The toggle off writes layout = "flat", the link-lengths choice.
	layout := Field{Key: "facility.layout", Label: "Lay out in a data hall (lengths and media per link)", Kind: FieldToggle, Choices: []string{"false", "true"}, Also: []string{"facility.link_layout"},
		Get: func(s *Scenario) string {
			if s.Facility == nil {
				return strconv.FormatBool(!s.givesLengths())
			}
			return strconv.FormatBool(s.Facility.Layout != hall.LayoutFlat)
		},
		Set: func(s *Scenario, text string) error {
			on, err := ParseToggle(text)
			if err != nil {
				return err
			}
			switch {
			case !on:
				facility(s).Layout = hall.LayoutFlat
			case s.Facility == nil && s.givesLengths():
				s.Facility = &hall.Facility{} // the hall's lengths over the ones given
			case s.Facility != nil && s.Facility.Layout == hall.LayoutFlat:
				s.Facility.Layout = ""
			}
			return nil
		}}
	// linkLayout is the file's [facility] layout: every link measured in
	// the hall, or one length per tier with the hall's racks still drawn.
	linkLayout := choiceField("facility.link_layout", "Link lengths", append([]string{""}, hall.Layouts...), func(s *Scenario) *string { return &facility(s).Layout })
	// The ranges are the ones the [facility] table is validated against.
	limits := map[string]hall.Number{}
	for _, n := range (&hall.Facility{}).Numbers() {
		limits[n.Key] = n
	}
	flt := func(key, label, unit string, at func(*hall.Facility) *float64) Field {
		l := limits[key]
		return numberField("facility."+key, label, unit, l.Lo, l.Hi, true, func(s *Scenario) *float64 { return at(facility(s)) })
	}
	cnt := func(key, label string, at func(*hall.Facility) *int) Field {
		l := limits[key]
		return countField("facility."+key, label, int(l.Lo), int(l.Hi), true, "", func(s *Scenario) *int { return at(facility(s)) })
	}
	fs := []Field{
		layout,
		linkLayout,
		choiceField("facility.leaf_placement", "Leaf racks", append([]string{""}, hall.LeafPlacements...), func(s *Scenario) *string { return &facility(s).LeafPlacement }),
		choiceField("facility.row_order", "Spine and core rows", append([]string{""}, hall.RowOrders...), func(s *Scenario) *string { return &facility(s).RowOrder }),
		flt("rack_kw", "Rack power budget (kW)", "kW", func(f *hall.Facility) *float64 { return &f.RackKW }),
		cnt("racks_per_row", "Racks per row", func(f *hall.Facility) *int { return &f.RacksPerRow }),
		cnt("rack_units", "Rack height (U)", func(f *hall.Facility) *int { return &f.RackUnits }),
		cnt("reserved_units", "Units reserved per rack", func(f *hall.Facility) *int { return &f.ReservedUnits }),
		flt("rack_width_m", "Rack width (m)", "m", func(f *hall.Facility) *float64 { return &f.RackWidthM }),
		flt("rack_depth_m", "Rack depth (m)", "m", func(f *hall.Facility) *float64 { return &f.RackDepthM }),
		flt("cold_aisle_m", "Cold aisle (m)", "m", func(f *hall.Facility) *float64 { return &f.ColdAisleM }),
		flt("hot_aisle_m", "Hot aisle (m)", "m", func(f *hall.Facility) *float64 { return &f.HotAisleM }),
		flt("tray_height_m", "Cable tray height (m)", "m", func(f *hall.Facility) *float64 { return &f.TrayHeightM }),
		flt("slack_m", "Slack per run between racks (m)", "m", func(f *hall.Facility) *float64 { return &f.SlackM }),
		flt("rack_slack_m", "Slack per link in a rack (m)", "m", func(f *hall.Facility) *float64 { return &f.RackSlackM }),
		flt("typical_pct", "Typical power (% of peak)", "%", func(f *hall.Facility) *float64 { return &f.TypicalPct }),
		flt("server_kw", "Custom server power (kW)", "kW", func(f *hall.Facility) *float64 { return &f.ServerKW }),
		cnt("server_units", "Custom server height (U)", func(f *hall.Facility) *int { return &f.ServerUnits }),
	}
	return fs
}
