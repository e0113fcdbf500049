package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fabricplan/planner"
)

// Kind is how an input is edited.
type Kind int

// Input kinds.
const (
	Text   Kind = iota // typed into an entry
	Choice             // picked from a list
	Radio              // picked from a short list shown as buttons
	Toggle             // on or off ("true" / "false")
)

// Field is one input on screen: its scenario key, the label the window
// shows (and error messages use), how it is edited, and a hint shown in
// an empty entry.
type Field struct {
	Key   string
	Label string
	Kind  Kind
	Hint  string
	Group string // "" for the main form, else the section it sits in
}

// Sections of the inputs panel below the main form.
const (
	GroupMore     = "Media and more"
	GroupWorkload = "Workload (JCT model)"
	GroupFailures = "Failures and spares"
)

// Labels shown in choices.
const (
	FabricIB       = "InfiniBand"
	FabricEthernet = "Ethernet (RoCEv2)"
	SwitchAuto     = "auto (cheapest that fits)"
	TiersAuto      = "fewest that fit"
	MediumDefault  = "default"
	WorkloadNone   = "default (Llama 3 70B)"
	BasisStreet    = "street (third-party optics)"
	BasisList      = "list (branded optics, vendor premium)"
)

// basisLabels maps price bases to their labels in the window.
var basisLabels = map[string]string{planner.BasisStreet: BasisStreet, planner.BasisList: BasisList}

var tierKeys = [3]string{"server_leaf", "leaf_spine", "spine_core"}

var fields = buildFields()

func buildFields() []Field {
	fs := []Field{
		{Key: "name", Label: "Scenario name", Kind: Text, Hint: "e.g. Pod A, 800G RoCE"},
		{Key: "cluster.system", Label: "System", Kind: Choice},
		{Key: "cluster.gpus", Label: "GPUs", Kind: Text, Hint: "e.g. 1024, 16k"},
		{Key: "cluster.gpus_per_server", Label: "GPUs per server", Kind: Choice},
		{Key: "network.nic_gbps", Label: "NIC speed", Kind: Radio},
		{Key: "network.fabric", Label: "Fabric", Kind: Radio},
		{Key: "network.switch", Label: "Switch", Kind: Choice},
		{Key: "network.oversubscription", Label: "Leaf oversubscription", Kind: Choice},
		{Key: "network.spine_oversubscription", Label: "Spine oversubscription (3 tiers)", Kind: Choice, Group: GroupMore},
		{Key: "network.servers_per_tor", Label: "Servers per ToR", Kind: Text, Hint: "top-of-rack: all the leaf holds", Group: GroupMore},
		{Key: "network.pod_gpus", Label: "GPUs per pod (3 tiers)", Kind: Text, Hint: "as many as a spine serves", Group: GroupMore},
		{Key: "network.planes", Label: "Planes", Kind: Choice},
		{Key: "network.ports_per_nic", Label: "Ports per NIC", Kind: Choice},
		{Key: "network.tiers", Label: "Tiers", Kind: Choice},
		{Key: "network.rail_optimized", Label: "Rail-optimized (one leaf per rail)", Kind: Toggle},
		{Key: "network.topology", Label: "Design style", Kind: Choice, Group: GroupMore},
		{Key: "network.nics_per_server", Label: "NICs per server", Kind: Text, Hint: "one per GPU", Group: GroupMore},
		{Key: "network.load_balancing", Label: "RoCE load balancing", Kind: Choice, Group: GroupMore},
		{Key: "network.leaf_alignment", Label: "Leaf alignment", Kind: Choice, Group: GroupMore},
		{Key: "cluster.server_price_usd", Label: "Server price", Kind: Text, Hint: "US$ per server (optional)", Group: GroupMore},
		{Key: "pricing.basis", Label: "Price basis", Kind: Choice, Group: GroupMore},
	}
	for i, name := range []string{"Server-leaf", "Leaf-spine", "Spine-core"} {
		fs = append(fs,
			Field{Key: "network.media." + tierKeys[i], Label: name + " medium", Kind: Choice, Group: GroupMore},
			Field{Key: "network.media." + tierKeys[i] + "_m", Label: name + " length (m)", Kind: Text, Hint: "default length", Group: GroupMore})
	}
	return append(append(fs,
		Field{Key: "workload.model", Label: "Model", Kind: Choice, Group: GroupWorkload},
		Field{Key: "workload.gpu", Label: "GPU", Kind: Choice, Group: GroupWorkload},
		Field{Key: "workload.tp", Label: "Tensor parallel (tp)", Kind: Text, Group: GroupWorkload},
		Field{Key: "workload.pp", Label: "Pipeline parallel (pp)", Kind: Text, Group: GroupWorkload},
		Field{Key: "workload.vpp", Label: "Virtual pipeline stages", Kind: Text, Group: GroupWorkload},
		Field{Key: "workload.cp", Label: "Context parallel (cp)", Kind: Text, Hint: "blank: 1; splits each sequence", Group: GroupWorkload},
		Field{Key: "workload.ep", Label: "Expert parallel (ep)", Kind: Text, Group: GroupWorkload},
		Field{Key: "workload.micro_batch", Label: "Micro-batch (sequences)", Kind: Text, Group: GroupWorkload},
		Field{Key: "workload.global_batch_tokens", Label: "Global batch (tokens)", Kind: Text, Group: GroupWorkload},
		Field{Key: "workload.tokens_total", Label: "Token budget", Kind: Text, Hint: "e.g. 1e12", Group: GroupWorkload},
		Field{Key: "workload.zero", Label: "Sharded optimizer (ZeRO / distributed optimizer)", Kind: Toggle, Group: GroupWorkload},
		Field{Key: "workload.zero_stage", Label: "ZeRO stage", Kind: Text, Hint: "1-3; blank: 1 when sharded", Group: GroupWorkload},
		Field{Key: "workload.recompute", Label: "Activation recomputation", Kind: Toggle, Group: GroupWorkload},
		Field{Key: "workload.placement", Label: "Placement", Kind: Choice, Hint: "packed: contiguous servers; spread: scattered over the leaves", Group: GroupWorkload},
		Field{Key: "workload.jobs", Label: "Jobs sharing the cluster", Kind: Text, Hint: "each on an equal share of the GPUs", Group: GroupWorkload},
		Field{Key: "workload.precision", Label: "GEMM precision", Kind: Choice, Hint: "bf16; fp8, mxfp8 or fp4 where the GPU has it", Group: GroupWorkload},
		Field{Key: "workload.kv_heads", Label: "KV heads (grouped-query attention)", Kind: Text, Hint: "blank: the model's", Group: GroupWorkload},
		Field{Key: "workload.route_nodes", Label: "MoE: nodes a token may reach", Kind: Text, Hint: "node-limited routing; blank: the model's", Group: GroupWorkload},
		Field{Key: "workload.qps_per_connection", Label: "Queue pairs per connection", Kind: Text, Hint: "flows ECMP hashes; blank: NCCL's 1", Group: GroupWorkload},
		Field{Key: "reliability.spare_switches_pct", Label: "Spare switches (% of each tier)", Kind: Text, Group: GroupFailures},
		Field{Key: "reliability.spare_optics_pct", Label: "Spare optics (% of transceivers and AOCs)", Kind: Text, Group: GroupFailures},
		Field{Key: "reliability.swap_hours", Label: "Swap from a spare (hours)", Kind: Text, Group: GroupFailures},
		Field{Key: "reliability.repair_hours", Label: "Repair without a spare (hours)", Kind: Text, Group: GroupFailures},
		Field{Key: "reliability.restart_min", Label: "Restart after a failure (minutes)", Kind: Text, Group: GroupFailures},
		Field{Key: "reliability.checkpoint_interval_min", Label: "Checkpoint interval (minutes)", Kind: Text, Group: GroupFailures},
	), networkFields()...)
}

// reliabilityOf points at the scenario override a reliability key sets,
// and the data file's value it replaces.
func reliabilityOf(in *planner.ReliabilityInputs, base planner.Reliability, key string) (override **float64, def float64, ok bool) {
	switch key {
	case "spare_switches_pct":
		return &in.SpareSwitchesPct, base.Spares.SwitchesPct, true
	case "spare_optics_pct":
		return &in.SpareOpticsPct, base.Spares.OpticsPct, true
	case "swap_hours":
		return &in.SwapHours, base.Recovery.SwapHours, true
	case "repair_hours":
		return &in.RepairHours, base.Recovery.RepairHours, true
	case "restart_min":
		return &in.RestartMin, base.Recovery.RestartMin, true
	case "checkpoint_interval_min":
		return &in.CheckpointIntervalMin, base.Recovery.CheckpointInterval, true
	}
	return nil, 0, false
}

// Fields lists every input in the order the window shows them. Prices are
// edited through the keys "prices.ITEM" (see PriceKeys).
func Fields() []Field { return slices.Clone(fields) }

// FieldOf returns the field with key; ok is false for unknown keys.
func FieldOf(key string) (Field, bool) {
	for _, f := range fields {
		if f.Key == key {
			return f, true
		}
	}
	if item, ok := strings.CutPrefix(key, "prices."); ok {
		return Field{Key: key, Label: "Price of " + item, Kind: Text}, true
	}
	return Field{}, false
}

// LabelOf is the label on screen for a scenario key; a key with no input
// keeps its file name.
func LabelOf(key string) string {
	if f, ok := FieldOf(key); ok {
		return f.Label
	}
	return key
}

// speedLabel names a NIC speed as the window shows it.
func speedLabel(gbps int) string {
	if gbps%1000 == 0 || gbps == 1600 {
		return strconv.FormatFloat(float64(gbps)/1000, 'f', -1, 64) + "T"
	}
	return strconv.Itoa(gbps) + "G"
}

func parseSpeed(label string) (int, error) {
	if t, ok := strings.CutSuffix(label, "T"); ok {
		v, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a speed", label)
		}
		return int(v * 1000), nil
	}
	n, err := strconv.Atoi(strings.TrimSuffix(label, "G"))
	if err != nil {
		return 0, fmt.Errorf("%q is not a speed", label)
	}
	return n, nil
}

func fabricLabel(f planner.Fabric) string {
	if f == planner.Ethernet {
		return FabricEthernet
	}
	return FabricIB
}

func tiersLabel(t int) string {
	if t == 0 {
		return TiersAuto
	}
	return strconv.Itoa(t)
}

func optionalInt(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

func optionalFloat(v float64) string {
	if v == 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func boolText(b bool) string { return strconv.FormatBool(b) }

func mediumOf(m *planner.Media, i int) *planner.Medium {
	return [3]*planner.Medium{&m.ServerLeaf, &m.LeafSpine, &m.SpineCore}[i]
}

func metresOf(m *planner.Media, i int) *float64 {
	return [3]*float64{&m.ServerLeafM, &m.LeafSpineM, &m.SpineCoreM}[i]
}

// mediaIndex returns the tier of a media key and whether it is a length.
func mediaIndex(key string) (i int, length, ok bool) {
	rest, ok := strings.CutPrefix(key, "network.media.")
	if !ok {
		return 0, false, false
	}
	rest, length = strings.CutSuffix(rest, "_m")
	for i, k := range tierKeys {
		if k == rest {
			return i, length, true
		}
	}
	return 0, false, false
}

// parseMetres reads a cable length in metres; empty is 0 (the default).
func parseMetres(text string) (float64, error) {
	t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), "m"))
	if t == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0 && v <= 2000) {
		return 0, fmt.Errorf("%q is not a length: write metres from 0.1 to 2000, e.g. 30", text)
	}
	return v, nil
}

// AlignReference is the leaf-alignment choice that follows the system's
// reference layout (network.leaf_alignment left out).
const AlignReference = "reference"
