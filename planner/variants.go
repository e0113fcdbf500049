package planner

import (
	"fmt"

	"fabricplan/internal/fielderr"
)

// Variant is a labelled plan for side-by-side comparison, or, with Err
// set and Plan nil, a design weighed that does not plan.
type Variant struct {
	Label string
	Plan  *Plan
	Err   error
}

// Alternatives plans s and the designs a planner weighs against it: the
// other fabric (InfiniBand or RoCEv2 Ethernet) and the other NIC speed
// (400G or 800G), each with the switch chosen automatically. An
// alternative the catalog cannot build is returned with its Err, so a
// chart can say why it is missing; s itself must plan. The alternatives
// keep their figures only (FiguresOnly): no view draws their halls.
func Alternatives(s Scenario, cat *Catalog) ([]Variant, error) {
	base, err := Build(s, cat)
	if err != nil {
		return nil, err
	}
	out := []Variant{{Label: "This plan", Plan: base}}
	s = s.WithSystem(cat) // the speed the system fixes, not the file's default
	other := AutoHardware(s)
	if s.Network.Fabric == InfiniBand {
		other.Network.Fabric = Ethernet
	} else {
		other.Network.Fabric = InfiniBand
	}
	speed := AutoHardware(s)
	speed.Network.NICGbps = 800
	if s.Network.NICGbps >= 800 {
		speed.Network.NICGbps = 400
	}
	for _, v := range []Scenario{other, speed} {
		label := fmt.Sprintf("%s %dG", v.Network.Fabric.Short(), v.Network.NICGbps)
		if err := fixedSpeed(v, cat); err != nil {
			out = append(out, Variant{Label: label, Err: err})
			continue
		}
		p, err := Build(v, cat)
		if p != nil {
			p = p.FiguresOnly() // the comparison charts read figures alone
		}
		out = append(out, Variant{Label: label, Plan: p, Err: err})
	}
	return out, nil
}

// fixedSpeed refuses a variant whose NIC speed its system fixes at
// another: Build would plan the system's own NICs, and the bar would be
// labelled with a speed it does not have.
func fixedSpeed(v Scenario, cat *Catalog) error {
	sys := v.system(cat)
	if sys == nil {
		return nil
	}
	if got := v.WithSystem(cat).Network.NICGbps; got != v.Network.NICGbps {
		return fielderr.New("network.nic_gbps", fmt.Sprintf("set cluster.system = %q to weigh %dG NICs", CustomSystem, v.Network.NICGbps),
			"system %s fixes its NICs at %dG", sys.Key, got)
	}
	return nil
}

// Planned splits variants into those that plan and those that do not.
func Planned(vs []Variant) (planned, failed []Variant) {
	for _, v := range vs {
		if v.Err != nil || v.Plan == nil {
			failed = append(failed, v)
		} else {
			planned = append(planned, v)
		}
	}
	return planned, failed
}

// AutoHardware returns s with the hardware choices that depend on fabric
// and NIC speed reset: switch and NIC auto, the spines and cores on the
// leaves' model (an Ethernet chassis cannot be an InfiniBand spine), the
// NIC's default port split, one plane. What-if variants start from it.
func AutoHardware(s Scenario) Scenario {
	s.Network.Switch, s.Network.NIC, s.Network.PortsPerNIC, s.Network.Planes = Auto, Auto, 0, 1
	s.Network.SpineSwitch, s.Network.CoreSwitch = "", ""
	return s
}
