package planner

import (
	"fmt"
	"testing"
)

// TestSideNetworksByReference checks each system's whole-cluster switch
// counts beside the back end at 1, 2 and 4 scalable units and a partial
// size, against the published designs:
//   - DGX H100: RA-11333-001 V11 (2023-09-22), Appendix A Table 7, 4 SU
//     of 32 node slots (127 DGX): "16 ... QM9700" storage, "8 ...
//     SN4600C" in-band, "8 ... SN2201" out-of-band; 4 UFM appliances
//     and 4 management servers (8 in all). Per unit begun: 4, 2, 2.
//   - DGX B200: the B200 RA (RA-11334-001 V08) at 4 SU as issue #46
//     quotes it: storage 12, in-band 6, OOB 16, management 11. Per unit
//     begun, rounded up: 3, 1.5 -> 2, 4 at 1 SU; 6, 3, 8 at 2 SU.
//
// The partial size, 600 GPUs = 75 DGX, begins 3 units: H100 12, 6, 6;
// B200 9, ceil(4.5) = 5, 12. The management servers do not scale (the
// RA gives one figure). DGX B300, GB200 NVL72 and GB300 NVL72 have no
// published count that could be read (networks.md Gaps): their counts
// stay the planner's own, with no reference named.
// Mutations caught: "B200 sized with H100 defaults" (16, 8, 10 and 8
// management at 4 SU); a partial unit's switches rounded down (B200 at
// 600 GPUs: 6, 3, 8); the reference scaled by nodes not units begun
// (75/127 x 12 = 7.09 -> 8 storage); a reference named for a system that
// has none.
func TestSideNetworksByReference(t *testing.T) {
	for _, tc := range []struct {
		system, sw             string
		gpus                   int
		storage, frontEnd, oob int // 0: no reference for the system
		mgmt                   int // 0: not checked
	}{
		{"dgx-h100", "qm9700", 248, 4, 2, 2, 8},
		{"dgx-h100", "qm9700", 504, 8, 4, 4, 8},
		{"dgx-h100", "qm9700", 1016, 16, 8, 8, 8},
		{"dgx-h100", "qm9700", 600, 12, 6, 6, 8},
		{"dgx-b200", "qm9700", 248, 3, 2, 4, 11},
		{"dgx-b200", "qm9700", 504, 6, 3, 8, 11},
		{"dgx-b200", "qm9700", 1016, 12, 6, 16, 11},
		{"dgx-b200", "qm9700", 600, 9, 5, 12, 11},
		{"dgx-b300", "q3400", 512, 0, 0, 0, 0},
		{"dgx-b300", "q3400", 1000, 0, 0, 0, 0},
		{"gb200-nvl72", "qm9700", 576, 0, 0, 0, 0},
		{"gb200-nvl72", "qm9700", 1000, 0, 0, 0, 0},
		{"gb300-nvl72", "q3400", 576, 0, 0, 0, 0},
		{"gb300-nvl72", "q3400", 1000, 0, 0, 0, 0},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.system, tc.gpus), func(t *testing.T) {
			s := ibScenario(tc.gpus)
			s.Cluster.System, s.Network.Switch = tc.system, tc.sw
			if tc.sw == "q3400" {
				s.Network.NICGbps = 800
			}
			n := buildNets(t, s).Networks
			for _, c := range []struct {
				name string
				want int
			}{{NetStorage, tc.storage}, {NetFrontEnd, tc.frontEnd}, {NetOOB, tc.oob}} {
				got := n.Net(c.name)
				if c.want == 0 {
					if got.SwitchesSource != "" {
						t.Errorf("%s: switches from %q; no published count was read for %s", c.name, got.SwitchesSource, tc.system)
					}
					continue
				}
				if got.Switches != c.want || got.SwitchesSource == "" || got.Leaves+got.Spines != got.Switches {
					t.Errorf("%s: %d switches (%d leaves, %d spines) from %q; published design: %d", c.name, got.Switches, got.Leaves, got.Spines, got.SwitchesSource, c.want)
				}
			}
			if tc.mgmt > 0 {
				var k, ufm int
				if _, err := fmt.Sscanf(n.Net(NetMgmt).Notes[0], "%d management servers: %d head and control nodes, %d UFM hosts", &k, new(int), &ufm); err != nil || k != tc.mgmt {
					t.Errorf("management servers %d (%v), published design: %d", k, err, tc.mgmt)
				}
			}
		})
	}
}

// TestSideReferenceYieldsToInputs: a published count holds only for the
// design it describes. A DGX B200 of 4 SU whose scenario sets the
// storage-server ports gets the planner's storage and keeps the
// reference's front end and OOB; storage converged onto the front end,
// the planner's front end too; one that sets the OOB network or the
// management servers, the planner's OOB; an Ethernet back end, no
// reference at all (the design is InfiniBand). Mutations caught: the
// reference applied whatever the scenario sets; the reference kept on an
// Ethernet back end; the front end's reference dropped for separate
// storage's inputs.
func TestSideReferenceYieldsToInputs(t *testing.T) {
	for _, tc := range []struct {
		name              string
		edit              func(*Scenario)
		storage, frontEnd bool // from the reference
		oob               bool
	}{
		{"as published", func(*Scenario) {}, true, true, true},
		{"storage-server ports set", func(s *Scenario) { s.Networks = &NetworksInputs{StorageServerPorts: 48} }, false, true, true},
		{"storage converged", func(s *Scenario) { s.Networks = &NetworksInputs{Storage: NetConverged} }, false, false, true},
		{"front-end speed set", func(s *Scenario) { s.Networks = &NetworksInputs{FrontEndGbps: 200} }, true, false, true},
		{"management servers set", func(s *Scenario) { s.Networks = &NetworksInputs{ManagementServers: 3} }, true, true, false},
		{"Ethernet back end", func(s *Scenario) { s.Network.Fabric = Ethernet; s.Network.Switch = "sn5600" }, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := ibScenario(1016)
			s.Cluster.System = "dgx-b200"
			tc.edit(&s)
			n := buildNets(t, s).Networks
			for _, c := range []struct {
				name string
				want bool
			}{{NetStorage, tc.storage}, {NetFrontEnd, tc.frontEnd}, {NetOOB, tc.oob}} {
				if got := n.Net(c.name).SwitchesSource != ""; got != c.want {
					t.Errorf("%s from the reference: %v, want %v", c.name, got, c.want)
				}
			}
		})
	}
}

// TestSideReferenceCheck: a reference needs its design's size, back-end
// fabric and source (an unsourced count is not a published one), and no
// negative count. Mutations caught: the source not required; a negative
// count accepted (it would take switches away); the catalog not checking
// its references.
func TestSideReferenceCheck(t *testing.T) {
	good := SideReference{UnitNodes: 32, Units: 4, BackEnd: InfiniBand, StorageSwitches: 12, Source: "RA"}
	for _, tc := range []struct {
		name string
		edit func(*SideReference)
		ok   bool
	}{
		{"complete", func(*SideReference) {}, true},
		{"no source", func(r *SideReference) { r.Source = "" }, false},
		{"no unit size", func(r *SideReference) { r.UnitNodes = 0 }, false},
		{"no units", func(r *SideReference) { r.Units = 0 }, false},
		{"unknown back end", func(r *SideReference) { r.BackEnd = "nvlink" }, false},
		{"negative count", func(r *SideReference) { r.OOBSwitches = -2 }, false},
	} {
		r := good
		tc.edit(&r)
		if err := r.check(); (err == nil) != tc.ok {
			t.Errorf("%s: check %v, want ok %v", tc.name, err, tc.ok)
		}
		d := SideDefaults{Reference: &r}
		if err := d.checkUnits(); (err == nil) != tc.ok {
			t.Errorf("%s: checkUnits %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
