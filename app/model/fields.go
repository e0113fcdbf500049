package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
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
// an empty entry. Key, label and the rules of its value are the
// planner's (planner.FieldByKey); the rest is the window's.
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
	GroupNetworks = "Networks beside the back end"
	GroupHall     = "Data hall"
)

// Labels shown in choices.
const (
	FabricIB       = "InfiniBand"
	FabricEthernet = "Ethernet (RoCEv2)"
	SwitchAuto     = "auto (cheapest that fits)"
	SwitchAsLeaf   = "the leaf's switch"
	SwitchAsSpine  = "the spine's switch"
	TiersAuto      = "fewest that fit"
	MediumDefault  = "default"
	WorkloadNone   = "default (Llama 3 70B)"
	BasisStreet    = "street (third-party optics)"
	BasisList      = "list (branded optics, vendor premium)"
	BasisVolume    = "volume (hyperscale prices, partly estimated)"
	// AlignReference is the leaf-alignment choice that follows the
	// system's reference layout (network.leaf_alignment left out).
	AlignReference = "reference"
	// HallDefault is the data default of a hall placement.
	HallDefault = "default"
	// NetworkDefault leaves a [networks] choice to the system's default.
	NetworkDefault = "system default"
)

// Choice labels of the fabric-effect inputs.
const (
	// RoutingAsBalancing leaves routing to load_balancing (Ethernet) or
	// adaptive (InfiniBand).
	RoutingAsBalancing = "as load balancing"
	// AlgorithmFastest lets the model pick the fastest all-reduce.
	AlgorithmFastest = "fastest"
)

// onScreen is how the window edits one planner input: the widget, the
// section, the hint of an empty entry, and the words it shows for some
// of the file's values (labels[file] = shown), read back the other way.
type onScreen struct {
	key    string
	kind   Kind
	group  string
	hint   string
	labels map[string]string
}

var (
	fabricLabels = map[string]string{string(planner.InfiniBand): FabricIB, string(planner.Ethernet): FabricEthernet}
	basisLabels  = map[string]string{planner.BasisStreet: BasisStreet, planner.BasisList: BasisList, planner.BasisVolume: BasisVolume}
	mediaLabels  = map[string]string{"": MediumDefault}
	hallLabels   = map[string]string{"": HallDefault}
	sideLabels   = map[string]string{"": NetworkDefault}
)

// screen lists the inputs in the order the window shows them; keys not
// listed (facility numbers, networks) are appended from the planner's
// table in its order, in their prefix's section.
var screen = []onScreen{
	{key: "name", kind: Text, hint: "e.g. Pod A, 800G RoCE"},
	{key: "cluster.system", kind: Choice},
	{key: "cluster.gpus", kind: Text, hint: "e.g. 1024, 16k"},
	{key: "cluster.gpus_per_server", kind: Choice},
	{key: "network.nic_gbps", kind: Radio},
	{key: "network.fabric", kind: Radio, labels: fabricLabels},
	{key: "network.switch", kind: Choice},
	{key: "network.oversubscription", kind: Choice},
	{key: "network.planes", kind: Choice},
	{key: "network.ports_per_nic", kind: Choice},
	{key: "network.tiers", kind: Choice, labels: map[string]string{"0": TiersAuto}},
	{key: "network.rail_optimized", kind: Toggle},
	{key: "network.nics_per_server", kind: Text, hint: "one per GPU", group: GroupMore},
	{key: "network.load_balancing", kind: Choice, group: GroupMore},
	{key: "network.topology", kind: Choice, group: GroupMore},
	{key: "network.spine_oversubscription", kind: Choice, group: GroupMore},
	{key: "network.servers_per_tor", kind: Text, hint: "top-of-rack: all the leaf holds", group: GroupMore},
	{key: "network.servers_per_leaf", kind: Text, hint: "rail leaves: all the leaf holds", group: GroupMore},
	{key: "network.leaf_pairs", kind: Toggle, group: GroupMore},
	{key: "network.peer_link_ports", kind: Text, hint: "ESI-LAG: no peer link", group: GroupMore},
	{key: "network.pod_gpus", kind: Text, hint: "as many as a spine serves", group: GroupMore},
	{key: "network.min_spines", kind: Text, hint: "those the links need", group: GroupMore},
	{key: "network.storage_nodes", kind: Text, hint: "none on the back end", group: GroupMore},
	{key: "network.storage_node_ports", kind: Text, hint: "one a plane", group: GroupMore},
	{key: "network.uplink_gbps", kind: Text, hint: "the server port speed", group: GroupMore},
	{key: "network.core_uplink_gbps", kind: Text, hint: "the uplink speed", group: GroupMore},
	{key: "network.spine_switch", kind: Choice, group: GroupMore, labels: map[string]string{"": SwitchAsLeaf, planner.Auto: SwitchAuto}},
	{key: "network.core_switch", kind: Choice, group: GroupMore, labels: map[string]string{"": SwitchAsSpine, planner.Auto: SwitchAuto}},
	{key: "network.routing", kind: Choice, hint: "static: hashed or subnet-manager paths; adaptive: balanced", group: GroupMore, labels: map[string]string{"": RoutingAsBalancing}},
	{key: "network.in_network_reduction", kind: Toggle, group: GroupMore},
	{key: "network.leaf_alignment", kind: Choice, group: GroupMore, labels: map[string]string{"": AlignReference}},
	{key: "cluster.server_price_usd", kind: Text, hint: "US$ per server (optional)", group: GroupMore},
	{key: "pricing.basis", kind: Choice, group: GroupMore, labels: basisLabels},
	{key: "network.media.server_leaf", kind: Choice, group: GroupMore, labels: mediaLabels},
	{key: "network.media.server_leaf_m", kind: Text, hint: "default length", group: GroupMore},
	{key: "network.media.leaf_spine", kind: Choice, group: GroupMore, labels: mediaLabels},
	{key: "network.media.leaf_spine_m", kind: Text, hint: "default length", group: GroupMore},
	{key: "network.media.spine_core", kind: Choice, group: GroupMore, labels: mediaLabels},
	{key: "network.media.spine_core_m", kind: Text, hint: "default length", group: GroupMore},
	{key: "workload.kind", kind: Choice, hint: "inference and rl add their table with defaults, edited below", group: GroupWorkload},
	{key: "inference.input_tokens", kind: Text, group: GroupWorkload},
	{key: "inference.output_tokens", kind: Text, group: GroupWorkload},
	{key: "inference.prefix_hit_rate", kind: Text, hint: "0 to 0.99; blank: none", group: GroupWorkload},
	{key: "inference.layout", kind: Choice, group: GroupWorkload},
	{key: "inference.prefill_gpus", kind: Text, hint: "blank: split by the pools' work", group: GroupWorkload},
	{key: "inference.decode_gpus", kind: Text, hint: "blank: split by the pools' work", group: GroupWorkload},
	{key: "inference.prefill_tp", kind: Text, hint: "blank: 8", group: GroupWorkload},
	{key: "inference.decode_tp", kind: Text, hint: "blank: 8", group: GroupWorkload},
	{key: "inference.decode_ep", kind: Text, hint: "blank: 1", group: GroupWorkload},
	{key: "inference.decode_batch", kind: Text, hint: "blank: the largest that meets the TPOT target", group: GroupWorkload},
	{key: "inference.target_tpot_s", kind: Text, hint: "seconds, e.g. 0.1; blank: none", group: GroupWorkload},
	{key: "inference.target_ttft_s", kind: Text, hint: "seconds; blank: none", group: GroupWorkload},
	{key: "inference.kv_latent", kind: Text, hint: "MLA models, e.g. 576; blank: K and V per KV head", group: GroupWorkload},
	{key: "inference.kv_precision", kind: Choice, group: GroupWorkload},
	{key: "inference.weight_precision", kind: Choice, group: GroupWorkload},
	{key: "rl.trainer_gpus", kind: Text, hint: "blank: half the cluster", group: GroupWorkload},
	{key: "rl.rollout_gpus", kind: Text, hint: "blank: half the cluster", group: GroupWorkload},
	{key: "rl.rollout_tp", kind: Text, hint: "blank: 8", group: GroupWorkload},
	{key: "rl.sync_mode", kind: Choice, group: GroupWorkload},
	{key: "rl.sync_precision", kind: Choice, group: GroupWorkload},
	{key: "rl.steps_per_sync", kind: Text, hint: "blank: 1", group: GroupWorkload},
	{key: "rl.step_s", kind: Text, hint: "seconds; blank: the data's", group: GroupWorkload},
	{key: "workload.model", kind: Choice, group: GroupWorkload},
	{key: "workload.gpu", kind: Choice, group: GroupWorkload},
	{key: "workload.tp", kind: Text, group: GroupWorkload},
	{key: "workload.pp", kind: Text, group: GroupWorkload},
	{key: "workload.vpp", kind: Text, group: GroupWorkload},
	{key: "workload.cp", kind: Text, group: GroupWorkload},
	{key: "workload.ep", kind: Text, group: GroupWorkload},
	{key: "workload.micro_batch", kind: Text, group: GroupWorkload},
	{key: "workload.global_batch_tokens", kind: Text, group: GroupWorkload},
	{key: "workload.tokens_total", kind: Text, hint: "e.g. 1e12", group: GroupWorkload},
	{key: "workload.zero", kind: Toggle, group: GroupWorkload},
	{key: "workload.zero_stage", kind: Text, group: GroupWorkload},
	{key: "workload.recompute", kind: Toggle, group: GroupWorkload},
	{key: "workload.placement", kind: Choice, hint: "packed: contiguous servers; spread: scattered over the leaves", group: GroupWorkload},
	{key: "workload.jobs", kind: Text, group: GroupWorkload},
	{key: "workload.precision", kind: Choice, hint: "bf16; fp8, mxfp8 or fp4 where the GPU has it", group: GroupWorkload},
	{key: "workload.kv_heads", kind: Text, group: GroupWorkload},
	{key: "workload.route_nodes", kind: Text, group: GroupWorkload},
	{key: "workload.qps_per_connection", kind: Text, group: GroupWorkload},
	{key: "workload.polarization", kind: Text, hint: "0 (independent hashes) to 1; blank: the data's estimate", group: GroupWorkload},
	{key: "workload.phase", kind: Choice, hint: "aligned: they cross the tier when this job does", group: GroupWorkload, labels: map[string]string{"": perf.PhaseRandom}},
	{key: "workload.background_leaf", kind: Text, hint: "fraction 0 to 0.9; blank: none", group: GroupWorkload},
	{key: "workload.background_spine", kind: Text, hint: "fraction 0 to 0.9; blank: none", group: GroupWorkload},
	{key: "workload.algorithm", kind: Choice, hint: "fastest: NCCL's pick among ring, tree, NVLS, SHARP", group: GroupWorkload, labels: map[string]string{"": AlgorithmFastest}},
}

// sections places the inputs the screen list leaves out, by key prefix.
var sections = []struct {
	prefix, group string
	labels        map[string]string
}{
	{"reliability.", GroupFailures, nil},
	{"networks.", GroupNetworks, sideLabels},
	{"facility.", GroupHall, hallLabels},
}

var (
	fields  = buildFields()
	screens = map[string]onScreen{} // by key
)

func buildFields() []Field {
	var fs []Field
	add := func(o onScreen) {
		pf, ok := planner.FieldByKey(o.key)
		if !ok {
			panic("model: no planner input " + o.key)
		}
		if o.hint == "" && o.kind == Text {
			o.hint = pf.Help
		}
		screens[o.key] = o
		fs = append(fs, Field{Key: o.key, Label: pf.Label, Kind: o.kind, Hint: o.hint, Group: o.group})
	}
	for _, o := range screen {
		add(o)
	}
	for _, sec := range sections {
		for _, pf := range planner.Fields() {
			if strings.HasPrefix(pf.Key, sec.prefix) {
				o := onScreen{key: pf.Key, kind: kindOf(pf), group: sec.group}
				if o.kind == Choice {
					o.labels = sec.labels
				}
				add(o)
			}
		}
	}
	return fs
}

// kindOf is the widget of a planner input the screen list leaves out.
func kindOf(f planner.Field) Kind {
	switch f.Kind {
	case planner.FieldToggle:
		return Toggle
	case planner.FieldChoice:
		return Choice
	}
	return Text
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

// shown is the window's word for the file value v of key.
func shown(key, v string) string {
	if l, ok := screens[key].labels[v]; ok {
		return l
	}
	return v
}

// fileValue is the file's value of what the window shows as text in key.
func fileValue(key, text string) string {
	for v, l := range screens[key].labels {
		if l == text {
			return v
		}
	}
	return text
}

// speedLabel names a NIC speed as the window shows it.
func speedLabel(gbps int) string {
	if gbps%1000 == 0 || gbps == 1600 {
		return strconv.FormatFloat(float64(gbps)/1000, 'f', -1, 64) + "T"
	}
	return strconv.Itoa(gbps) + "G"
}

// parseSpeed reads a speed as the window shows it ("800G", "1.6T") or as
// Gb/s ("800").
func parseSpeed(label string) (int, error) {
	if t, ok := strings.CutSuffix(label, "T"); ok {
		v, err := textfmt.ParseNumber(t, 0.001, planner.MaxNICGbps/1000)
		if err != nil {
			return 0, fmt.Errorf("%q is not a speed", label)
		}
		return int(v * 1000), nil
	}
	n, err := textfmt.ParseInt(strings.TrimSuffix(label, "G"), 1, planner.MaxNICGbps)
	if err != nil {
		return 0, fmt.Errorf("%q is not a speed: %w", label, err)
	}
	return n, nil
}
