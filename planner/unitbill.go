package planner

import (
	"cmp"
	"fmt"
	"math"
	"slices"
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
	return fmt.Sprintf("%s: %s, %s, all planes. The cluster: %s.", su, textfmt.Plural(b.Nodes, "node"), textfmt.Plural(b.GPUs, "GPU"), cluster)
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
	// Tier is a cable or transceiver row's link tier (planner key), Part
	// its catalog key and LengthM a cable row's length sold, so each row
	// matches its BOM lines.
	Tier    string  `json:"tier,omitempty"`
	Part    string  `json:"part,omitempty"`
	LengthM float64 `json:"length_m,omitempty"`
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
		switch t.Name {
		case "server_leaf":
			b.cableRows(t, downs*P, nil)
		case "leaf_spine":
			b.cableRows(t, unitUp, nil)
		default:
			b.cableRows(t, 0, share)
		}
	}

	leafEnd := "leaf end (down)"
	if p.Tiers == 1 {
		leafEnd = "switch end"
	}
	c := p.endCages() // a leaf's down and up cages may carry different link counts
	for _, t := range p.LinkTiers {
		lower, upper := t.endParts()
		switch t.Name {
		case "server_leaf":
			b.moduleRows(p, t.Name, lower, "node end", nodes*t.LowerModules/p.Servers, nil)
			b.moduleRows(p, t.Name, upper, leafEnd, leaves*ceilDiv(down, c[tierServerLeaf][1]), nil)
		case "leaf_spine":
			b.moduleRows(p, t.Name, lower, "leaf end (up)", leaves*ceilDiv(up, c[tierLeafSpine][0]), nil)
			b.moduleRows(p, t.Name, upper, "spine end (down)", 0, share)
		default:
			b.moduleRows(p, t.Name, lower, "spine end (up)", 0, share)
			b.moduleRows(p, t.Name, upper, "core end", 0, share)
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

// cableRows adds a link tier's cables: one row per medium, part and
// length sold, as the BOM lists them, so the rows add up to the BOM's
// cable lines. The SU's own links (unit of them) are split over the
// rows in the tier's proportions (largest remainder, so they add up to
// unit); with share set the rows are shares of parts every SU uses.
func (b *UnitBill) cableRows(t LinkTier, unit int, share func(int) float64) {
	runs := t.Runs
	if len(runs) == 0 { // no hall: every link at the tier's length
		runs = []LinkRun{{Medium: t.Medium, Part: t.Cable, Metres: t.Metres, Links: t.Links}}
	}
	counts := make([]int, len(runs))
	for i, r := range runs {
		counts[i] = r.Links
	}
	mine := apportion(unit, counts)
	for i, r := range runs {
		item := fmt.Sprintf("%s, %s %g m", tierWords(t.Name), r.Medium.Label(), r.Metres)
		if twinRun(runs, i) {
			item += " (" + r.Part + ")"
		}
		row := UnitBillRow{Group: BillCables, Item: item, Unit: float64(mine[i]), Cluster: r.Links, Tier: t.Name, Part: r.Part, LengthM: r.Metres}
		if share != nil {
			row.Unit, row.Shared = share(r.Links), true
		}
		b.Rows = append(b.Rows, row)
	}
}

// twinRun says whether another run of runs has run i's medium and
// length (with another part), so its row must name the part.
func twinRun(runs []LinkRun, i int) bool {
	for j, r := range runs {
		if j != i && r.Medium == runs[i].Medium && r.Metres == runs[i].Metres {
			return true
		}
	}
	return false
}

// moduleRows adds the transceivers of one end of a link tier, one row
// per part (parts counts them over the cluster); the SU's own unit
// modules are split over the parts in the cluster's proportions, or
// with share set each row is a share.
func (b *UnitBill) moduleRows(p *Plan, tier string, parts map[string]int, end string, unit int, share func(int) float64) {
	keys := SortedKeys(parts)
	counts := make([]int, len(keys))
	for i, k := range keys {
		counts[i] = parts[k]
	}
	mine := apportion(unit, counts)
	for i, k := range keys {
		if counts[i] == 0 {
			continue
		}
		row := UnitBillRow{Group: BillTransceivers, Item: p.partName(k) + ", " + end, Unit: float64(mine[i]), Cluster: counts[i], Tier: tier, Part: k}
		if share != nil {
			row.Unit, row.Shared = share(counts[i]), true
		}
		b.Rows = append(b.Rows, row)
	}
}

// endParts counts the tier's transceivers at its lower and upper ends
// by part: as the hall chose them, or the tier's one part at each end.
func (t LinkTier) endParts() (lower, upper map[string]int) {
	if t.LowerParts != nil || t.UpperParts != nil {
		return t.LowerParts, t.UpperParts
	}
	lower, upper = map[string]int{}, map[string]int{}
	if t.LowerModules > 0 {
		lower[t.LowerModule] = t.LowerModules
	}
	if t.UpperModules > 0 {
		upper[t.UpperModule] = t.UpperModules
	}
	return lower, upper
}

// modulesByPart counts the module tally of link tier ti by part at its
// lower and at its upper end.
func modulesByPart(mods map[moduleCount]int, ti int) (lower, upper map[string]int) {
	lower, upper = map[string]int{}, map[string]int{}
	for k, n := range mods {
		switch {
		case k.tier != ti:
		case k.upper:
			upper[k.key] += n
		default:
			lower[k.key] += n
		}
	}
	return lower, upper
}

// apportion splits total over parts in proportion to weights by the
// largest remainder (Hamilton's method), so the parts are whole and add
// up to total; earlier weights win ties. All zero weights get nothing.
func apportion(total int, weights []int) []int {
	out := make([]int, len(weights))
	sum := 0
	for _, w := range weights {
		sum += w
	}
	if sum == 0 || total == 0 {
		return out
	}
	rest := make([]int, len(weights)) // remainders, in units of 1/sum
	given := 0
	for i, w := range weights {
		q := total * w
		out[i], rest[i] = q/sum, q%sum
		given += out[i]
	}
	order := make([]int, len(weights))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rest[b], rest[a]) })
	for _, i := range order[:total-given] {
		out[i]++
	}
	return out
}
