package model

import (
	"fmt"
	"strconv"
	"strings"

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
		if a, b := m.textOf(&before, f.Key), m.textOf(&after, f.Key); a != b {
			parts = append(parts, fmt.Sprintf("%s %s → %s", f.Label, a, b))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return LabelOf(key) + " changed, so: " + strings.Join(parts, "; ") + "."
}

// apply sets key in s from text as the planner's input table reads it,
// after the window's words are turned back into the file's, then makes
// the resets the rules of the window call for.
func (m *Model) apply(s *planner.Scenario, key, text string) error {
	text = strings.TrimSpace(text)
	f, ok := planner.FieldByKey(key)
	if !ok {
		return fmt.Errorf("no input %q", key)
	}
	if item, ok := strings.CutPrefix(key, "prices."); ok && !m.cat.HasPriceKey(item) {
		return fmt.Errorf("no catalog item %q", item)
	}
	if key == "workload.model" && text == WorkloadNone {
		s.Workload = nil
		return nil
	}
	value, err := m.readShown(key, fileValue(key, text))
	if err != nil {
		return err
	}
	before := *s
	if err := f.Set(s, value); err != nil {
		return err
	}
	if rule := afterEdit[key]; rule != nil {
		rule(m, before, s)
	}
	return nil
}

// readShown turns what the window shows for a catalog-backed input into
// the file's value ("qm9700 (64 x 400G)" is qm9700, "1.6T" is 1600) and
// checks it names something in the catalog.
func (m *Model) readShown(key, text string) (string, error) {
	switch key {
	case "cluster.system":
		if m.cat.Systems[text] == nil && text != planner.CustomSystem {
			return "", fmt.Errorf("no system %q in the catalog", text)
		}
	case "network.nic_gbps":
		v, err := parseSpeed(text)
		return strconv.Itoa(v), err
	case "network.switch":
		if text == SwitchAuto || text == "" {
			return planner.Auto, nil
		}
		k := strings.Fields(text)[0]
		if k != planner.Auto && m.cat.Switches[k] == nil {
			return "", fmt.Errorf("no switch %q in the catalog", k)
		}
		return k, nil
	case "workload.model":
		if _, ok := m.cat.JCT.Models[text]; !ok {
			return "", fmt.Errorf("no model %q", text)
		}
	case "workload.gpu":
		if _, ok := m.cat.JCT.GPUs[text]; !ok {
			return "", fmt.Errorf("no GPU %q", text)
		}
	}
	return text, nil
}

// afterEdit are the window's resets: an edit of the key changes other
// inputs that would no longer fit, given the scenario before and after.
var afterEdit = map[string]func(m *Model, before planner.Scenario, s *planner.Scenario){
	"cluster.system": func(m *Model, _ planner.Scenario, s *planner.Scenario) {
		if m.systemFixed(*s) {
			*s = s.WithSystem(m.cat)
			s.Network.PortsPerNIC, s.Network.Planes = 0, 1
			s.Cluster.ServerPriceUSD = 0 // the system's catalog price
			m.switchFitsSpeed(s)
		}
	},
	"network.rail_optimized": func(_ *Model, _ planner.Scenario, s *planner.Scenario) {
		s.Network.Topology = "" // the toggle chooses between rail-optimized and top-of-rack
		s.Network.DropOtherStyleInputs()
	},
	"network.nic_gbps": func(m *Model, before planner.Scenario, s *planner.Scenario) {
		if s.Network.NICGbps != before.Network.NICGbps {
			// The new speed's NIC, with its default split, on one plane; a
			// switch without ports at the new speed goes back to auto.
			n := &s.Network
			n.PortsPerNIC, n.Planes, n.NIC = 0, 1, planner.Auto
			m.switchFitsSpeed(s)
		}
	},
	"network.fabric": func(_ *Model, before planner.Scenario, s *planner.Scenario) {
		if f := s.Network.Fabric; f != before.Network.Fabric {
			*s = planner.AutoHardware(*s) // the other fabric's switches and NICs differ
			s.Network.Fabric = f
			if f != planner.Ethernet { // MLAG and ESI-LAG pairs are Ethernet
				s.Network.LeafPairs, s.Network.PeerLinkPorts = false, 0
			}
		}
	},
	"network.ports_per_nic": func(m *Model, before planner.Scenario, s *planner.Scenario) {
		if s.Network.PortsPerNIC == m.portsPerNIC(before) {
			s.Network.PortsPerNIC = before.Network.PortsPerNIC // the NIC's default split, as it was
			return
		}
		s.Network.Planes = 1
		m.switchFitsSpeed(s)
	},
}

// switchFitsSpeed sets the switch back to auto when it has no ports at
// the scenario's port speed.
func (m *Model) switchFitsSpeed(s *planner.Scenario) {
	if sw := m.cat.Switches[s.Network.Switch]; sw != nil && sw.Radix(m.portGbps(*s)) == 0 {
		s.Network.Switch = planner.Auto
	}
}
