package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// Set applies text typed or picked in the input key. Text that does not
// parse is kept for the input and reported (in the words of its label);
// the scenario is then unchanged and the plan state stale. A change that
// resets other inputs (a new fabric resets the switch, say) returns a
// notice naming each reset input with its old and new value.
func (m *Model) Set(key, text string) (notice string, err error) {
	f, ok := FieldOf(key)
	if !ok {
		return "", fmt.Errorf("no input %q", key)
	}
	next := m.scenario.Clone()
	if err := m.apply(&next, key, text); err != nil {
		m.typed[key] = text
		m.typedErr[key] = err.Error()
		return "", fmt.Errorf("%s: %w", f.Label, err)
	}
	delete(m.typed, key)
	delete(m.typedErr, key)
	notice = m.resets(m.scenario, next, key)
	m.commit(next, key, f.Kind)
	return notice, nil
}

// resets describes what an edit of key changed in other inputs.
func (m *Model) resets(before, after planner.Scenario, key string) string {
	var parts []string
	for _, f := range fields {
		if f.Key == key || f.Key == "name" {
			continue
		}
		if _, typed := m.typed[f.Key]; typed {
			continue
		}
		if a, b := m.textOf(before, f.Key), m.textOf(after, f.Key); a != b {
			parts = append(parts, fmt.Sprintf("%s %s → %s", f.Label, a, b))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return LabelOf(key) + " changed, so: " + strings.Join(parts, "; ") + "."
}

// apply sets key in s from text, with the resets the rules call for.
func (m *Model) apply(s *planner.Scenario, key, text string) error {
	c, n := &s.Cluster, &s.Network
	text = strings.TrimSpace(text)
	if item, ok := strings.CutPrefix(key, "prices."); ok {
		if !m.cat.HasPriceKey(item) {
			return fmt.Errorf("no catalog item %q", item)
		}
		if text == "" {
			delete(s.Prices, item)
			return nil
		}
		v, err := textfmt.ParseMoney(text)
		if err != nil {
			return err
		}
		if s.Prices == nil {
			s.Prices = map[string]float64{}
		}
		s.Prices[item] = v
		return nil
	}
	if i, length, ok := mediaIndex(key); ok {
		if length {
			v, err := parseMetres(text)
			if err != nil {
				return err
			}
			*metresOf(&n.Media, i) = v
			return nil
		}
		md := planner.Medium(text)
		if text == MediumDefault {
			md = ""
		}
		*mediumOf(&n.Media, i) = md
		return nil
	}
	if w, ok := strings.CutPrefix(key, "workload."); ok {
		return m.applyWorkload(s, w, text)
	}
	if r, ok := strings.CutPrefix(key, "reliability."); ok {
		return m.applyReliability(s, r, text)
	}
	if k, ok := strings.CutPrefix(key, "networks."); ok {
		return applyNetworks(s, k, text)
	}
	if f, ok := strings.CutPrefix(key, "facility."); ok {
		return m.applyFacility(s, f, text)
	}
	switch key {
	case "name":
		s.Name = text
	case "cluster.system":
		if m.cat.Systems[text] == nil && text != planner.CustomSystem {
			return fmt.Errorf("no system %q in the catalog", text)
		}
		c.System = text
		if text == planner.CustomSystem {
			c.System = ""
		}
		if m.systemFixed(*s) {
			*s = s.WithSystem(m.cat)
			n.PortsPerNIC, n.Planes = 0, 1
			c.ServerPriceUSD = 0 // the system's catalog price
			m.switchFitsSpeed(s)
		}
	case "cluster.gpus":
		v, err := textfmt.ParseCount(text, planner.MaxGPUs)
		if err != nil {
			return err
		}
		c.GPUs = v
	case "cluster.gpus_per_server":
		v, err := textfmt.ParseCount(text, 1024)
		if err != nil {
			return err
		}
		c.GPUsPerServer = v
	case "cluster.server_price_usd":
		v, err := textfmt.ParseMoney(text)
		if err != nil {
			return err
		}
		c.ServerPriceUSD = v
	case "network.nic_gbps":
		v, err := parseSpeed(text)
		if err != nil {
			return err
		}
		if v != n.NICGbps {
			// The new speed's NIC, with its default split, on one plane; a
			// switch without ports at the new speed goes back to auto.
			n.NICGbps, n.PortsPerNIC, n.Planes, n.NIC = v, 0, 1, planner.Auto
			m.switchFitsSpeed(s)
		}
	case "network.fabric":
		f := planner.InfiniBand
		if text == FabricEthernet || text == string(planner.Ethernet) {
			f = planner.Ethernet
		}
		if f != n.Fabric {
			*s = planner.AutoHardware(*s) // the other fabric's switches and NICs differ
			s.Network.Fabric = f
		}
	case "network.switch":
		k := planner.Auto
		if text != SwitchAuto && text != "" {
			k = strings.Fields(text)[0]
		}
		if k != planner.Auto && m.cat.Switches[k] == nil {
			return fmt.Errorf("no switch %q in the catalog", k)
		}
		n.Switch = k
	case "network.oversubscription":
		if _, _, err := planner.Ratio(text); err != nil {
			return err
		}
		n.Oversubscription = text
	case "network.planes":
		v, err := textfmt.ParseCount(text, 64)
		if err != nil {
			return err
		}
		n.Planes = v
	case "network.ports_per_nic":
		v, err := textfmt.ParseCount(text, 8)
		if err != nil {
			return err
		}
		if v != m.portsPerNIC(*s) {
			n.PortsPerNIC, n.Planes = v, 1
			m.switchFitsSpeed(s)
		}
	case "network.tiers":
		if text == TiersAuto {
			n.Tiers = 0
			return nil
		}
		v, err := strconv.Atoi(text)
		if err != nil || v < 1 || v > 3 {
			return errors.New("choose 1, 2 or 3 tiers, or the fewest that fit")
		}
		n.Tiers = v
	case "network.rail_optimized":
		n.RailOptimized = text == "true"
	case "network.nics_per_server":
		if text == "" {
			n.NICsPerServer = 0
			return nil
		}
		v, err := textfmt.ParseCount(text, 1024)
		if err != nil {
			return err
		}
		n.NICsPerServer = v
	case "network.leaf_alignment":
		switch text {
		case AlignReference:
			n.LeafAlignment = ""
		case planner.AlignRack, planner.AlignPacked:
			n.LeafAlignment = text
		default:
			return fmt.Errorf("choose %s, %s or %s", AlignReference, planner.AlignRack, planner.AlignPacked)
		}
	case "network.load_balancing":
		if text != planner.LBAdaptive && text != planner.LBECMP {
			return fmt.Errorf("choose %s or %s", planner.LBAdaptive, planner.LBECMP)
		}
		n.LoadBalancing = text
	case "pricing.basis":
		for b, label := range basisLabels {
			if text == label || text == b {
				s.Pricing.Basis = b
				return nil
			}
		}
		return fmt.Errorf("choose %q or %q", BasisStreet, BasisList)
	default:
		return fmt.Errorf("no input %q", key)
	}
	return nil
}

// switchFitsSpeed sets the switch back to auto when it has no ports at
// the scenario's port speed.
func (m *Model) switchFitsSpeed(s *planner.Scenario) {
	if sw := m.cat.Switches[s.Network.Switch]; sw != nil && sw.Radix(m.portGbps(*s)) == 0 {
		s.Network.Switch = planner.Auto
	}
}

// applyReliability sets or (empty text) clears one reliability
// override; the planner checks its range. A scenario without overrides
// has no [reliability] table.
func (m *Model) applyReliability(s *planner.Scenario, key, text string) error {
	in := planner.ReliabilityInputs{}
	if s.Reliability != nil {
		in = *s.Reliability
	}
	dst, _, ok := reliabilityOf(&in, planner.Reliability{}, key)
	if !ok {
		return fmt.Errorf("no input %q", "reliability."+key)
	}
	*dst = nil
	if text != "" {
		v, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", ""), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number: write e.g. 5 or 2.5", text)
		}
		*dst = &v
	}
	s.Reliability = &in
	if in == (planner.ReliabilityInputs{}) {
		s.Reliability = nil
	}
	return nil
}

// applyWorkload sets one workload key. Until one is set the scenario has
// no [workload] table and the planner uses its default job.
func (m *Model) applyWorkload(s *planner.Scenario, key, text string) error {
	if key == "model" && text == WorkloadNone {
		s.Workload = nil
		return nil
	}
	if s.Workload == nil {
		d := planner.NewWorkload()
		s.Workload = &d
	}
	w := s.Workload
	ints := map[string]struct {
		dst   *int
		limit int
	}{
		"tp": {&w.TP, 1 << 16}, "pp": {&w.PP, 1 << 12}, "vpp": {&w.VPP, 64}, "ep": {&w.EP, 1 << 12},
		"micro_batch": {&w.MicroBatch, 1 << 12}, "global_batch_tokens": {&w.GlobalBatchTokens, 1 << 40},
		"jobs": {&w.Jobs, 4096},
	}
	if f, ok := ints[key]; ok {
		v, err := textfmt.ParseCount(text, f.limit)
		if err != nil {
			return err
		}
		*f.dst = v
		return nil
	}
	switch key {
	case "model":
		if _, ok := m.cat.JCT.Models[text]; !ok {
			return fmt.Errorf("no model %q", text)
		}
		w.Model = text
		// A preset replaces any shape typed for the previous model.
		w.ParamsB, w.ActiveParamsB, w.Layers, w.Hidden, w.SeqLen, w.Vocab, w.Experts, w.TopK = 0, 0, 0, 0, 0, 0, 0, 0
	case "gpu":
		if _, ok := m.cat.JCT.GPUs[text]; !ok {
			return fmt.Errorf("no GPU %q", text)
		}
		w.GPU = text
	case "tokens_total":
		v, err := strconv.ParseFloat(strings.ReplaceAll(text, ",", ""), 64)
		if err != nil || !(v > 0 && v <= 1e18) {
			return errors.New("write the token budget, e.g. 1e12")
		}
		w.TokensTotal = v
	case "zero":
		w.ZeRO = text == "true"
	case "zero_stage":
		return parseOptionalInt(text, 0, 3, &w.ZeROStage, "write a ZeRO stage from 1 to 3, or leave it blank")
	case "recompute":
		w.Recompute = text == "true"
	case "placement":
		if text != planner.PlacePacked && text != planner.PlaceSpread {
			return fmt.Errorf("choose %s or %s", planner.PlacePacked, planner.PlaceSpread)
		}
		w.Placement = text
	case "qps_per_connection":
		return parseOptionalInt(text, 1, 128, &w.QueuePairs, "write 1 to 128 queue pairs, or leave it blank for NCCL's default")
	case "precision":
		switch text {
		case planner.PrecisionBF16:
			w.Precision = ""
		case planner.PrecisionFP8, planner.PrecisionMXFP8, planner.PrecisionFP4:
			w.Precision = text
		default:
			return fmt.Errorf("choose bf16, fp8, mxfp8 or fp4 (where the GPU has it)")
		}
	case "cp":
		return parseOptionalInt(text, 1, 65536, &w.CP, "write a context-parallel size that divides the sequence, e.g. 2, or leave it blank for 1")
	case "kv_heads":
		return parseOptionalInt(text, 1, 1<<16, &w.KVHeads, "write the key/value heads, e.g. 8, or leave it blank for the model's")
	case "route_nodes":
		return parseOptionalInt(text, 1, 4096, &w.RouteNodes, "write the most nodes a token's experts may span, e.g. 4, or leave it blank for the model's")
	default:
		return fmt.Errorf("no input %q", "workload."+key)
	}
	return nil
}

// parseOptionalInt sets *dst to text's integer in [lo, hi], or to 0 (the
// default) when text is blank; fix is the error when it is neither.
func parseOptionalInt(text string, lo, hi int, dst *int, fix string) error {
	t := strings.TrimSpace(text)
	if t == "" {
		*dst = 0
		return nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < lo || n > hi {
		return errors.New(fix)
	}
	*dst = n
	return nil
}
