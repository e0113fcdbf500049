package planner

import (
	"slices"
	"strings"
	"testing"
)

// checkLanesJoin: the lane rate a plan runs is one its NIC, its switch
// and every transceiver it buys run, and divides the port speed.
func checkLanesJoin(t *testing.T, cat *Catalog, gpus int, p *Plan) {
	t.Helper()
	l := p.LaneGbps
	if l == 0 || p.PortGbps%l != 0 || !slices.Contains(p.NIC.LaneGbps, l) || !slices.Contains(p.Switch.LaneGbps, l) {
		t.Fatalf("%d GPUs: lane %dG on %s %v and %s %v at %dG ports", gpus, l, p.NIC.Key, p.NIC.LaneGbps, p.Switch.Key, p.Switch.LaneGbps, p.PortGbps)
	}
	for _, b := range p.BOM {
		if tr := cat.Transceivers[b.Key]; tr != nil && !slices.Contains(tr.LaneGbps, l) {
			t.Fatalf("%d GPUs: transceiver %s runs %v lanes, the links run %dG", gpus, tr.Key, tr.LaneGbps, l)
		}
	}
}

// Parts that cannot share a lane rate do not join: a ConnectX-7 (100G
// lanes) on the 200G-SerDes Tomahawk 6 is an error naming both parts
// and the switches that would join; switch auto never picks it for such
// NICs; NIC auto picks a NIC that joins (Thor Ultra at 800G, 1 port,
// when the ConnectX-8's 2 x 400G has no 200G-lane module). Every
// catalog switch and NIC pair at every speed either joins with a
// module at both ends or is refused. Mutations caught: lanes not
// checked (the plan built with 100G-lane optics at a 200G-lane switch),
// a lane picked that one end does not run, modules chosen by speed only.
func TestLanesJoin(t *testing.T) {
	cat := testCatalog(t)
	s := NewScenario()
	s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch = 1024, Ethernet, "tomahawk6"
	_, err := Build(s, cat)
	if err == nil || !strings.Contains(err.Error(), "cx7-400") || !strings.Contains(err.Error(), "tomahawk6 (200G lanes)") ||
		!strings.Contains(err.Error(), "tomahawk6-100g") {
		t.Errorf("cx7-400 on tomahawk6: %v", err)
	}
	s.Network.Switch = Auto
	p, err := Build(s, cat)
	if err != nil || p.Switch.Key == "tomahawk6" || p.LaneGbps != 100 {
		t.Errorf("auto at 400G: %v, lane %d", err, p.LaneGbps)
	}
	s.Network.Switch, s.Network.NICGbps = "tomahawk6", 800
	p, err = Build(s, cat)
	if err != nil || p.NIC.Key != "thor-ultra-800" || p.LaneGbps != 200 {
		t.Fatalf("800G on tomahawk6: %v", err)
	}
	checkLanesJoin(t, cat, 1024, p)
	for _, sw := range cat.SwitchKeys() {
		for _, nic := range cat.NICKeys() {
			n := cat.NICs[nic]
			for _, f := range []Fabric{InfiniBand, Ethernet} {
				for _, split := range n.PortSplits(f) {
					if cat.Switches[sw].Fabric != f || cat.Switches[sw].Radix(n.Gbps/split) == 0 {
						continue
					}
					s := NewScenario()
					s.Cluster.GPUs = 1000
					s.Network.Fabric, s.Network.NICGbps, s.Network.NIC, s.Network.PortsPerNIC, s.Network.Switch = f, n.Gbps, nic, split, sw
					p, err := Build(s, cat)
					if err != nil {
						continue // refused with a reason
					}
					checkLanesJoin(t, cat, 1000, p)
				}
			}
		}
	}
}
