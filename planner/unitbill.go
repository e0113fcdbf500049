package planner

import (
	"fmt"
	"math"
	"strings"

	"fabricplan/internal/textfmt"
)

// UnitBill is the table NVIDIA's reference architectures give per
// scalable unit: the switches, cables and transceivers of one SU (all
// planes) beside the whole cluster's. Parts of the spine and core layers
// serve every SU; the SU's column carries its share of them, in
// proportion to its uplinks.
type UnitBill struct {
	// Nodes and GPUs are the SU's; FullNodes a full SU's nodes (Nodes is
	// less only when the whole plan is one partial SU).
	Nodes     int `json:"nodes"`
	GPUs      int `json:"gpus"`
	FullNodes int `json:"full_nodes"`
	// Units is the SUs of the cluster, a partial one counted; Partial
	// says the last SU is partial.
	Units   int           `json:"units"`
	Partial bool          `json:"partial"`
	Rows    []UnitBillRow `json:"rows"`
}

// Heading says what the two columns cover: "One SU: 32 nodes, 256 GPUs.
// The cluster: 4 SUs."
func (b UnitBill) Heading() string {
	su := "One SU"
	if b.Nodes < b.FullNodes {
		su = fmt.Sprintf("The only SU (partial, %d of %d nodes)", b.Nodes, b.FullNodes)
	}
	cluster := textfmt.Plural(b.Units, "SU")
	if b.Partial && b.Units > 1 {
		cluster += ", the last partial"
	}
	return fmt.Sprintf("%s: %s, %s GPUs, all planes. The cluster: %s.", su, textfmt.Plural(b.Nodes, "node"), textfmt.Int(b.GPUs), cluster)
}

// UnitBillRow is one line of a UnitBill.
type UnitBillRow struct {
	Group string `json:"group"` // BillSwitches, BillCables or BillTransceivers
	Item  string `json:"item"`  // e.g. "leaf", "leaf-spine, DAC 3 m", "OSFP 2x400G SR8, leaf end (up)"
	// Unit is the count in one SU; for Shared rows its share, which may
	// be fractional.
	Unit    float64 `json:"unit"`
	Shared  bool    `json:"shared"`
	Cluster int     `json:"cluster"`
}

// Groups of a UnitBill's rows.
const (
	BillSwitches     = "Switches"
	BillCables       = "Cables"
	BillTransceivers = "Transceivers"
)

// Shares says whether any row is a share of parts every SU uses.
func (b UnitBill) Shares() bool {
	for _, r := range b.Rows {
		if r.Shared {
			return true
		}
	}
	return false
}

// ShareNote explains the shared rows.
const ShareNote = "(share): spine and core parts serve every SU; an SU's share is in proportion to its uplinks."

// UnitText is the row's SU count as a table shows it: "8", or for a
// share "4 (share)" or "2.5 (share)".
func (r UnitBillRow) UnitText() string {
	if !r.Shared {
		return textfmt.Int(int(math.Round(r.Unit)))
	}
	v := math.Round(r.Unit*10) / 10
	if v == math.Trunc(v) {
		return textfmt.Int(int(v)) + " (share)"
	}
	return fmt.Sprintf("%.1f (share)", v)
}

// Label is the medium as people name it.
func (m Medium) Label() string {
	switch m {
	case Optics:
		return "fibre and transceivers"
	case Multimode:
		return "multimode fibre and transceivers"
	case "":
		return "not chosen"
	}
	return strings.ToUpper(string(m))
}

// UnitBill lists what one scalable unit holds and what the cluster
// holds. The SU shown is the first one, full unless the plan is smaller
// than one SU.
func (p *Plan) UnitBill() UnitBill {
	pods, _, lpu, groupNodes := p.Layout()
	// The SU is the reference unit: groups leaf groups (one leaf per
	// rail each), all in the first pod.
	nodesPerUnit, groups := groupNodes, 1
	if u := p.Unit.Servers; u > 0 && groupNodes > 0 && u%groupNodes == 0 {
		nodesPerUnit, groups = u, u/groupNodes
	}
	var downs, ups, leavesUsed int // one plane, the SU's leaf groups
	for i := range groups {
		d, u := pods[0].UnitLeaf(i)
		if d > 0 {
			downs, ups, leavesUsed = downs+lpu*d, ups+lpu*u, leavesUsed+lpu
		}
	}
	nodes := min(nodesPerUnit, p.Servers) // the first SU is full unless it is the only one
	b := UnitBill{Nodes: nodes, GPUs: nodes * p.Scenario.Cluster.GPUsPerServer, FullNodes: nodesPerUnit, Units: ceilDiv(p.Servers, nodesPerUnit),
		Partial: p.Servers%nodesPerUnit != 0}
	P := p.Planes
	leaves := leavesUsed * P
	unitUp := ups * P // the SU's leaf-spine links, all planes
	down, up := downs/max(leavesUsed, 1), ups/max(leavesUsed, 1)
	share := func(n int) float64 {
		lt := p.linkTier("leaf_spine")
		if lt == nil || lt.Links == 0 {
			return 0
		}
		return float64(n) * float64(unitUp) / float64(lt.Links)
	}
	own := func(group, item string, unit, cluster int) {
		b.Rows = append(b.Rows, UnitBillRow{Group: group, Item: item, Unit: float64(unit), Cluster: cluster})
	}
	shared := func(group, item string, cluster int) {
		b.Rows = append(b.Rows, UnitBillRow{Group: group, Item: item, Unit: share(cluster), Shared: true, Cluster: cluster})
	}

	leafName := TierLeaf
	if p.Tiers == 1 {
		leafName = "switch"
	}
	own(BillSwitches, leafName, leaves, p.Switches(TierLeaf))
	if p.Tiers >= 2 {
		shared(BillSwitches, TierSpine, p.Switches(TierSpine))
	}
	if p.Tiers == 3 {
		shared(BillSwitches, TierCore, p.Switches(TierCore))
	}

	for _, t := range p.LinkTiers {
		item := fmt.Sprintf("%s, %s %g m", tierWords(t.Name), t.Medium.Label(), t.Metres)
		if len(t.Runs) > 1 { // laid out: lengths and media vary by link
			item = fmt.Sprintf("%s, mostly %s, up to %g m", tierWords(t.Name), t.Medium.Label(), t.Metres)
		}
		switch t.Name {
		case "server_leaf":
			own(BillCables, item, downs*P, t.Links)
		case "leaf_spine":
			own(BillCables, item, unitUp, t.Links)
		default:
			shared(BillCables, item, t.Links)
		}
	}

	leafEnd := "leaf end (down)"
	if p.Tiers == 1 {
		leafEnd = "switch end"
	}
	c := p.Switch.LinksPerCage(p.PortGbps)
	for _, t := range p.LinkTiers {
		lower, upper := p.partName(t.LowerModule), p.partName(t.UpperModule)
		switch t.Name {
		case "server_leaf":
			if t.LowerModules > 0 {
				own(BillTransceivers, lower+", node end", nodes*t.LowerModules/p.Servers, t.LowerModules)
			}
			if t.UpperModules > 0 {
				own(BillTransceivers, upper+", "+leafEnd, leaves*ceilDiv(down, c), t.UpperModules)
			}
		case "leaf_spine":
			if t.LowerModules > 0 {
				own(BillTransceivers, lower+", leaf end (up)", leaves*ceilDiv(up, c), t.LowerModules)
			}
			if t.UpperModules > 0 {
				shared(BillTransceivers, upper+", spine end (down)", t.UpperModules)
			}
		default:
			if t.LowerModules > 0 {
				shared(BillTransceivers, lower+", spine end (up)", t.LowerModules)
			}
			if t.UpperModules > 0 {
				shared(BillTransceivers, upper+", core end", t.UpperModules)
			}
		}
	}
	return b
}

// tierWords names a link tier as people read it: "server-leaf".
func tierWords(name string) string { return strings.ReplaceAll(name, "_", "-") }

// partName is the catalog name of the part with key, as the BOM lists it
// (the key when the BOM has no such line).
func (p *Plan) partName(key string) string {
	for _, l := range p.BOM {
		if l.Key == key {
			return l.Part()
		}
	}
	return key
}
