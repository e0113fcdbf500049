package planner

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"fabricplan/internal/fielderr"
)

// Rack kinds of a data hall.
const (
	RackCompute = "compute" // servers or a rack-scale system (ToR leaves too)
	RackLeaf    = "leaf"    // leaf switches at the middle or end of a row
	RackSpine   = "spine"
	RackCore    = "core"
)

// Rack is one rack of the hall: where it stands and what it holds.
type Rack struct {
	Name string // "R3-07": row 3, slot 7 (from 1)
	Kind string // RackCompute, RackLeaf, RackSpine or RackCore
	// Row and Slot place the rack (from 0); X and Y are its centre on
	// the floor, metres.
	Row, Slot int
	X, Y      float64
	// Nodes are the servers or trays it holds, Switches the switches
	// (leaves in a ToR compute rack); UsedUnits the U they take.
	Nodes, Switches, UsedUnits int
	// PeakKW is the rack's maximum draw (systems, switches and their
	// optics), TypicalKW the typical draw.
	PeakKW, TypicalKW float64
	Cooling           string // "air" or "liquid"
	// firstSwitch is the first switch's index in its tier's numbering
	// for a network rack.
	firstSwitch int
}

// Row is one row of racks.
type Row struct {
	Index   int
	Network bool // a spine/core row
	Racks   int
	Y       float64 // centre line, metres
	X       float64 // left end, metres
	PeakKW  float64
}

// Hall is the data-hall layout of a plan: racks in rows, with what each
// rack holds, the facility inputs it was laid out with, and the indexes
// that place every node and switch.
type Hall struct {
	Facility  Facility // every field resolved
	Constants FacilityConstants
	Racks     []Rack
	Rows      []Row
	// WidthM and LengthM bound the racks and aisles with a perimeter
	// aisle; AreaM2 is their product.
	WidthM, LengthM, AreaM2 float64
	// Figures sums the hall: racks, power, cooling and cables.
	Figures HallFigures

	nodesPerRack int
	// racksPerUnit is the compute racks of a full unit of servers (each
	// unit starts a rack); 0 for rack-scale systems, whose nodes fill
	// their racks in order.
	racksPerUnit, serversPerUnit, servers int
	nodeUnits                             int  // U of one node (server or tray)
	rackScale                             bool // a rack-scale system: one system per rack
	switchTrays                           int  // NVLink switch trays of a rack-scale rack
	switchUnits                           int
	// computeRack maps compute rack c (node / nodesPerRack) to Racks.
	computeRack []int32
	// unitLeafRack is, per unit, the first leaf rack (middle/end) or the
	// first compute rack holding its nodes (ToR); unitRacks the compute
	// racks of a unit for ToR leaves.
	unitLeafRack, unitRacks []int32
	unitLeafOff             []int32 // a unit's first leaf in its leaf racks
	leavesPerUnit, planes   int
	leavesPerRack           int // switches per network rack
	spineRack, coreRack     int // first rack of the spines and of the cores
	spinesPerPlane          int
	coresPerPlane           int
	podSpine                []int // first spine of each pod in a plane
	leavesPerPlane          int

	// upperUnits and upperPerRack are a spine's and a core's height and
	// how many stand in one of their racks (a chassis spine stands
	// taller than the leaves: network.spine_switch).
	upperUnits, upperPerRack [2]int
}

// place is where one end of a link stands: its rack (index into Racks)
// and the height of its port above the floor.
type place struct {
	rack int32
	u    int     // the device's lowest U (from 1)
	h    float64 // port height, metres
}

// layoutInputs is what laying out a hall needs from a plan.
type layoutInputs struct {
	servers, units, serversPerUnit, leavesPerUnit, planes int
	leavesPerPlane, spinesPerPlane, coresPerPlane         int
	podSpines                                             []int // spines of each pod, in order
	nodeKW                                                float64
	nodeUnits, nodesPerSystem, switchTrays                int
	cooling                                               string
	switchUnits                                           int
	switchKW                                              float64 // a switch with its optics
	railOptimized                                         bool

	// upperUnits and upperKW are a spine's and a core's, as switchUnits
	// and switchKW are a leaf's.
	upperUnits [2]int
	upperKW    [2]float64
}

func (p *Plan) layoutInputs(f Facility, cat *Catalog) layoutInputs {
	lay := p.layout
	in := layoutInputs{servers: p.Servers, units: p.Units, serversPerUnit: lay.ServersPerUnit, leavesPerUnit: lay.LeavesPerUnit,
		planes: p.Planes, nodeKW: f.ServerKW, nodeUnits: f.ServerUnits, nodesPerSystem: 1, cooling: "air",
		switchUnits: max(p.Switch.RackUnits, 1), railOptimized: p.Scenario.Network.RailOptimized}
	if sys := p.System; sys != nil {
		in.nodeKW = sys.Watts / 1000 / float64(sys.Nodes)
		in.nodeUnits = max(sys.RackUnits, 1)
		in.nodesPerSystem = sys.Nodes
		in.switchTrays = sys.SwitchTrays
		if sys.Cooling != "" {
			in.cooling = sys.Cooling
		}
	}
	for _, run := range lay.Pods {
		for range run.Count {
			in.podSpines = append(in.podSpines, run.Spines)
			in.spinesPerPlane += run.Spines
			for _, l := range run.Leaves {
				in.leavesPerPlane += l.Switches
			}
		}
	}
	for _, cr := range lay.CoreGroups {
		in.coresPerPlane += cr.Groups * cr.Cores
	}
	in.switchKW = switchPeakKW(cat, p.Switch, p.PortGbps, p.LaneGbps)
	for i, tier := range []string{TierSpine, TierCore} {
		sw, link := p.SwitchOf(tier), MediaTiers[i+1]
		in.upperUnits[i] = max(sw.RackUnits, 1)
		in.upperKW[i] = p.tierPeakKW(cat, i+1, p.TierGbps(link), p.endLane(link, sw))
	}
	return in
}

// switchPeakKW is a switch's peak: the chassis and one module per cage
// of its ports at gbps.
func switchPeakKW(cat *Catalog, sw *Switch, gbps, lane int) float64 {
	kw := sw.Watts / 1000
	c := sw.LinksPerCage(gbps)
	if mod, _ := cat.Module(sw.Form, gbps, c, lane, 0); mod != nil {
		kw += float64(sw.Radix(gbps)/c) * mod.Watts / 1000
	}
	return kw
}

// newHall lays the plan's racks out on the hall floor.
func newHall(in layoutInputs, f Facility, k FacilityConstants) (*Hall, error) {
	h := &Hall{Facility: f, Constants: k, serversPerUnit: in.serversPerUnit, servers: in.servers, nodeUnits: in.nodeUnits, switchUnits: in.switchUnits, leavesPerUnit: in.leavesPerUnit,
		planes: in.planes, spinesPerPlane: in.spinesPerPlane, coresPerPlane: in.coresPerPlane, leavesPerPlane: in.leavesPerPlane,
		rackScale: in.nodesPerSystem > 1, switchTrays: in.switchTrays}
	free := f.RackUnits - f.ReservedUnits
	if rackTop := float64(f.RackUnits) * k.UnitM; f.TrayHeightM <= rackTop {
		return nil, fielderr.New("facility.tray_height_m", fmt.Sprintf("raise the tray above the %.2f m rack top", rackTop),
			"the tray at %g m runs through %dU racks", f.TrayHeightM, f.RackUnits)
	}
	if err := h.sizeRacks(in, free); err != nil {
		return nil, err
	}
	h.leavesPerRack = max(1, min(free/in.switchUnits, int(f.RackKW/in.switchKW)))
	for i := range h.upperUnits {
		h.upperUnits[i] = in.upperUnits[i]
		h.upperPerRack[i] = max(1, free/max(in.upperUnits[i], 1))
		if in.upperKW[i] > 0 {
			h.upperPerRack[i] = max(1, min(h.upperPerRack[i], int(f.RackKW/in.upperKW[i])))
		}
	}
	if tall := max(in.switchUnits, in.upperUnits[0], in.upperUnits[1]); free < tall {
		return nil, fielderr.New("facility.rack_units", fmt.Sprintf("give at least %d U", tall+f.ReservedUnits),
			"a %dU switch does not fit in %d free U", tall, free)
	}
	rows := h.computeRows(in)
	net := h.networkRows(in)
	h.placeRows(rows, net, in)
	if f.LeafPlacement == PlaceToR {
		if err := h.placeToR(in, free); err != nil {
			return nil, err
		}
	}
	h.power(in)
	h.rackFigures()
	return h, nil
}

// sizeRacks sets how many nodes a compute rack holds: a rack-scale
// system's own rack, else as many servers as the power budget and the
// free units allow (at least one: a server over budget is a finding).
func (h *Hall) sizeRacks(in layoutInputs, free int) error {
	f := h.Facility
	if h.rackScale {
		h.nodesPerRack = in.nodesPerSystem
		if need := in.nodesPerSystem*in.nodeUnits + in.switchTrays; need > free {
			return fielderr.New("facility.rack_units", fmt.Sprintf("give at least %d U", need+f.ReservedUnits),
				"the system's %d trays need %d U; %d are free", in.nodesPerSystem+in.switchTrays, need, free)
		}
		return nil
	}
	if in.nodeUnits > free {
		return fielderr.New("facility.rack_units", fmt.Sprintf("give at least %d U", in.nodeUnits+f.ReservedUnits),
			"a %dU server does not fit in %d free U", in.nodeUnits, free)
	}
	h.nodesPerRack = max(1, min(free/in.nodeUnits, int(math.Floor(f.RackKW/in.nodeKW+1e-9))))
	h.racksPerUnit = ceilDiv(in.serversPerUnit, h.nodesPerRack)
	return nil
}

// rowPlan is one row before placement: its racks' kinds in order, with
// the compute rack or unit each stands for.
type rowPlan struct {
	network bool
	racks   []rackPlan
	units   []int // units whose leaves stand in the row's leaf racks
	// continues: the row's first racks belong to a unit begun in the row
	// before, so the two must stand in the same block of rows.
	continues bool
}

type rackPlan struct {
	kind  string
	index int // compute rack number, or unit for a leaf rack, or switch index
	nth   int // which of the unit's leaf racks
}

// computeRows packs the scalable units into rows: whole units side by
// side while they fit, a unit longer than a row over several rows; the
// leaves of a row's units share leaf racks at the middle or end of the
// row (of a long unit's first row).
func (h *Hall) computeRows(in layoutInputs) []rowPlan {
	f := h.Facility
	perRow := f.RacksPerRow
	unitLeaves := 0
	if f.LeafPlacement != PlaceToR {
		unitLeaves = in.leavesPerUnit * in.planes
	}
	h.computeRack = make([]int32, h.computeRacks())
	h.unitLeafRack = make([]int32, in.units)
	h.unitLeafOff = make([]int32, in.units)
	var rows []rowPlan
	var cur []rackPlan // compute racks of the row being filled
	var units []int    // units whose leaves the row holds
	midUnit := false   // the row being filled continues the row before's unit
	leafRacks := func(units int) int { return ceilDiv(units*unitLeaves, h.leavesPerRack) }
	flush := func() {
		if len(cur)+len(units) == 0 {
			return
		}
		var leaves []rackPlan
		for j := range leafRacks(len(units)) {
			leaves = append(leaves, rackPlan{kind: RackLeaf, index: len(rows), nth: j})
		}
		row := rowPlan{units: units, continues: midUnit}
		switch f.LeafPlacement {
		case PlaceMiddle:
			half := (len(cur) + 1) / 2
			row.racks = append(append(append(row.racks, cur[:half]...), leaves...), cur[half:]...)
		default:
			row.racks = append(append(row.racks, cur...), leaves...)
		}
		rows = append(rows, row)
		cur, units = nil, nil
	}
	next := 0 // first compute rack not yet placed
	for u := range in.units {
		_, last := h.unitRackSpan(u)
		if len(cur)+max(last-next+1, 0)+leafRacks(len(units)+1) > perRow {
			flush()
		}
		midUnit = len(cur) > 0 && midUnit // a new row starts with this unit
		units = append(units, u)
		for ; next <= last; next++ {
			if len(cur)+leafRacks(len(units)) >= perRow && len(cur) > 0 {
				flush()
				midUnit = true
			}
			cur = append(cur, rackPlan{kind: RackCompute, index: next})
		}
	}
	flush()
	return rows
}

// networkRows packs the spine racks, then the core racks, into rows.
func (h *Hall) networkRows(in layoutInputs) []rowPlan {
	var racks []rackPlan
	for i := 0; i < in.spinesPerPlane*in.planes; i += h.upperPerRack[0] {
		racks = append(racks, rackPlan{kind: RackSpine, index: i})
	}
	for i := 0; i < in.coresPerPlane*in.planes; i += h.upperPerRack[1] {
		racks = append(racks, rackPlan{kind: RackCore, index: i})
	}
	var rows []rowPlan
	for len(racks) > 0 {
		n := min(len(racks), h.Facility.RacksPerRow)
		rows = append(rows, rowPlan{network: true, racks: racks[:n]})
		racks = racks[n:]
	}
	return rows
}

// blockBreaks gives each row its block (column of rows side by side):
// about perRow rows a block, but a block never starts on a row that
// continues a unit from the row before, so a unit's racks stay within
// one block's reach of its leaves.
func blockBreaks(order []rowPlan, perCol int) []int {
	colOf := make([]int, len(order))
	col, inCol := 0, 0
	for r, rp := range order {
		if inCol >= perCol && !rp.continues {
			col, inCol = col+1, 0
		}
		colOf[r] = col
		inCol++
	}
	return colOf
}

// orderRows sets the network rows first, last or in the middle of the
// compute rows (rowOrder), never between two rows of one unit.
func orderRows(compute, network []rowPlan, rowOrder string) []rowPlan {
	order := make([]rowPlan, 0, len(compute)+len(network))
	switch rowOrder {
	case RowsNetFirst:
		return append(append(order, network...), compute...)
	case RowsNetLast:
		return append(append(order, compute...), network...)
	}
	mid := len(compute) / 2
	for mid < len(compute) && compute[mid].continues {
		mid++
	}
	return append(append(append(order, compute[:mid]...), network...), compute[mid:]...)
}

// placeRows orders the rows (network rows first, last or in the
// middle), gives every rack its floor position and fills the indexes.
func (h *Hall) placeRows(compute, network []rowPlan, in layoutInputs) {
	f := h.Facility
	order := orderRows(compute, network, f.RowOrder)
	edge := f.ColdAisleM // perimeter aisle, and the cross aisle between blocks
	widest := 0
	for _, rp := range order {
		widest = max(widest, len(rp.racks))
	}
	rowW := float64(widest) * f.RackWidthM
	// Blocks of rows side by side, as many as keep the hall about
	// square: a row pitch is a rack depth and half of each aisle.
	pitch := f.RackDepthM + (f.ColdAisleM+f.HotAisleM)/2
	cols := max(1, int(math.Round(math.Sqrt(float64(len(order))*pitch/(rowW+edge)))))
	perCol := ceilDiv(len(order), cols)
	colOf := blockBreaks(order, perCol)
	if len(colOf) > 0 {
		cols = colOf[len(colOf)-1] + 1
	}
	y, colLen, inCol := 0.0, 0.0, 0
	h.spineRack, h.coreRack = -1, -1
	h.podSpine = make([]int, len(in.podSpines))
	for i := 1; i < len(in.podSpines); i++ {
		h.podSpine[i] = h.podSpine[i-1] + in.podSpines[i-1]
	}
	for r, rp := range order {
		col := colOf[r]
		if r == 0 || col != colOf[r-1] {
			inCol = 0
			y = edge + f.RackDepthM/2
		} else {
			aisle := f.ColdAisleM // rows face each other across cold aisles, back to back across hot
			inCol++
			if inCol%2 == 0 {
				aisle = f.HotAisleM
			}
			y += f.RackDepthM + aisle
		}
		colLen = max(colLen, y)
		x0 := edge + float64(col)*(rowW+edge)
		h.Rows = append(h.Rows, Row{Index: r, Network: rp.network, Racks: len(rp.racks), Y: y, X: x0})
		for s, kp := range rp.racks {
			rk := Rack{Name: fmt.Sprintf("R%d-%02d", r+1, s+1), Kind: kp.kind, Row: r, Slot: s,
				X: x0 + (float64(s)+0.5)*f.RackWidthM, Y: y, Cooling: "air"}
			idx := int32(len(h.Racks))
			switch kp.kind {
			case RackCompute:
				h.computeRack[kp.index] = idx
				rk.Nodes = h.rackNodes(kp.index)
				rk.UsedUnits = rk.Nodes * in.nodeUnits
				if h.rackScale {
					rk.UsedUnits += in.switchTrays
				}
				rk.Cooling = in.cooling
			case RackLeaf:
				if kp.nth == 0 {
					for i, u := range rp.units {
						h.unitLeafRack[u], h.unitLeafOff[u] = idx, int32(i*in.leavesPerUnit*in.planes)
					}
				}
				rk.Switches = min(h.leavesPerRack, len(rp.units)*in.leavesPerUnit*in.planes-kp.nth*h.leavesPerRack)
				rk.firstSwitch = kp.nth * h.leavesPerRack
			case RackSpine, RackCore:
				if kp.kind == RackSpine && h.spineRack < 0 {
					h.spineRack = int(idx)
				}
				if kp.kind == RackCore && h.coreRack < 0 {
					h.coreRack = int(idx)
				}
				total, up := in.spinesPerPlane*in.planes, 0
				if kp.kind == RackCore {
					total, up = in.coresPerPlane*in.planes, 1
				}
				rk.Switches = min(h.upperPerRack[up], total-kp.index)
				rk.firstSwitch = kp.index
			}
			if rk.Switches > 0 {
				rk.UsedUnits = rk.Switches * h.unitsIn(rk.Kind)
			}
			h.Racks = append(h.Racks, rk)
		}
	}
	h.WidthM = 2*edge + float64(cols)*rowW + float64(cols-1)*edge
	h.LengthM = colLen + f.RackDepthM/2 + edge
	h.AreaM2 = h.WidthM * h.LengthM
}

// placeToR puts each unit's leaves in the compute racks that hold its
// nodes, round robin, above the nodes.
func (h *Hall) placeToR(in layoutInputs, free int) error {
	h.unitRacks = make([]int32, in.units)
	for u := range in.units {
		first, last := h.unitRackSpan(u)
		h.unitLeafRack[u] = int32(first)
		h.unitRacks[u] = int32(last - first + 1)
		for i := range in.leavesPerUnit * in.planes {
			r := &h.Racks[h.computeRack[first+i%(last-first+1)]]
			r.Switches++
			r.UsedUnits += in.switchUnits
			if r.UsedUnits > free {
				return fielderr.New("facility.leaf_placement", `use "middle" or "end" (leaf racks in the row), or more rack_units`,
					"top-of-rack leaves need %d U in rack %s; %d are free", r.UsedUnits, r.Name, free)
			}
		}
	}
	return nil
}

// power sums each rack's and row's peak and typical draw.
func (h *Hall) power(in layoutInputs) {
	typ := h.Facility.TypicalPct / 100
	for i := range h.Racks {
		r := &h.Racks[i]
		r.PeakKW = float64(r.Nodes)*in.nodeKW + float64(r.Switches)*in.kwIn(r.Kind)
		r.TypicalKW = r.PeakKW * typ
		h.Rows[r.Row].PeakKW += r.PeakKW
	}
}

// rackOf is the compute rack (numbered over the hall) of node n and its
// place in the rack from 0.
func (h *Hall) rackOf(n int) (rack, k int) {
	if h.racksPerUnit == 0 {
		return n / h.nodesPerRack, n % h.nodesPerRack
	}
	u := n / h.serversPerUnit
	r := n - u*h.serversPerUnit
	return u*h.racksPerUnit + r/h.nodesPerRack, r % h.nodesPerRack
}

// unitRackSpan is the first and last compute rack holding unit u's
// nodes.
func (h *Hall) unitRackSpan(u int) (first, last int) {
	first, _ = h.rackOf(u * h.serversPerUnit)
	last, _ = h.rackOf(min((u+1)*h.serversPerUnit, h.servers) - 1)
	return first, last
}

// computeRacks is the number of compute racks.
func (h *Hall) computeRacks() int {
	last, _ := h.rackOf(h.servers - 1)
	return last + 1
}

// rackNodes is how many nodes compute rack c holds.
func (h *Hall) rackNodes(c int) int {
	if h.racksPerUnit == 0 {
		return min(h.nodesPerRack, h.servers-c*h.nodesPerRack)
	}
	u, j := c/h.racksPerUnit, c%h.racksPerUnit
	unitNodes := min(h.serversPerUnit, h.servers-u*h.serversPerUnit)
	return max(0, min(h.nodesPerRack, unitNodes-j*h.nodesPerRack))
}

// unitH is the height above the floor of the middle of a device whose
// lowest U is u and which is units tall.
func (h *Hall) unitH(u, units int) float64 {
	return (float64(u-1) + float64(units)/2) * h.Constants.UnitM
}

// nodePlace is where node n (a server, or a tray of a rack-scale
// system) stands. Servers stack from U1; a rack-scale system's trays
// take the lower half of its compute trays, its NVLink switch trays,
// then the rest.
func (h *Hall) nodePlace(n int) place {
	c, k := h.rackOf(n)
	u := 1 + k*h.nodeUnits
	if h.rackScale && k >= (h.nodesPerRack+1)/2 {
		u += h.switchTrays
	}
	return place{rack: h.computeRack[c], u: u, h: h.unitH(u, h.nodeUnits)}
}

// switchPlace is the place of the i-th switch (from 0) of a network rack
// group starting at rack first: switches stack down from the rack's top
// free unit, a rack full moving to the next.
func (h *Hall) switchPlace(first, i int) place {
	return h.switchPlaceOf(first, i, h.switchUnits, h.leavesPerRack)
}

// switchPlaceOf is switchPlace for switches of units U, perRack a rack.
func (h *Hall) switchPlaceOf(first, i, units, perRack int) place {
	rack := first + i/perRack
	top := h.Facility.RackUnits - h.Facility.ReservedUnits
	u := top - (i%perRack+1)*units + 1
	return place{rack: int32(rack), u: u, h: h.unitH(u, units)}
}

// leafPlace is where leaf g (from 0) of plane (from 1) stands.
func (h *Hall) leafPlace(plane, g int) place {
	unit := g / h.leavesPerUnit
	i := (plane-1)*h.leavesPerUnit + g%h.leavesPerUnit
	if h.Facility.LeafPlacement != PlaceToR {
		return h.switchPlace(int(h.unitLeafRack[unit]), int(h.unitLeafOff[unit])+i)
	}
	n := int(h.unitRacks[unit])
	c := int(h.unitLeafRack[unit]) + i%n
	rack := h.computeRack[c]
	top := h.Facility.RackUnits - h.Facility.ReservedUnits
	u := top - (i/n+1)*h.switchUnits + 1
	return place{rack: rack, u: u, h: h.unitH(u, h.switchUnits)}
}

// spinePlace is where spine j of pod (from 0) of plane stands.
func (h *Hall) spinePlace(plane, pod, j int) place {
	return h.switchPlaceOf(h.spineRack, (plane-1)*h.spinesPerPlane+h.podSpine[pod]+j, h.upperUnits[0], h.upperPerRack[0])
}

// corePlace is where core i of plane stands.
func (h *Hall) corePlace(plane, i int) place {
	return h.switchPlaceOf(h.coreRack, (plane-1)*h.coresPerPlane+i, h.upperUnits[1], h.upperPerRack[1])
}

// run is the cable length between two places before rounding: inside
// one rack the vertical distance and the rack slack; between racks up
// to the tray, along the rows and across them (rectilinear), down again,
// and the slack.
func (h *Hall) run(a, b place) float64 {
	f := h.Facility
	if a.rack == b.rack {
		return math.Abs(a.h-b.h) + f.RackSlackM
	}
	ra, rb := &h.Racks[a.rack], &h.Racks[b.rack]
	return (f.TrayHeightM - a.h) + (f.TrayHeightM - b.h) + math.Abs(ra.X-rb.X) + math.Abs(ra.Y-rb.Y) + f.SlackM
}

// layOut lays the plan out in a hall, with the data's defaults for what
// the scenario's [facility] table leaves out (all of it without one).
// No hall is laid out (each tier's links keep one length) with layout =
// "flat", for a scenario that gives its link lengths in network.media
// without a [facility] table, for a plan that asks for totals only
// (flatLinks: sweeps and searches) or without facility data in the
// catalog.
func (p *Plan) layOut(cat *Catalog) error {
	s := &p.Scenario
	if !s.laysHall(cat) || p.recallHall(cat) {
		return nil
	}
	notes := len(p.Notes)
	f := s.Facility.resolve(cat.Facility.Defaults, leafInRack(s))
	h, err := newHall(p.layoutInputs(f, cat), f, cat.Facility.Constants)
	var fe *fielderr.FieldError
	if err != nil && f.LeafPlacement == PlaceToR && (s.Facility == nil || s.Facility.LeafPlacement == "") && errors.As(err, &fe) && fe.Field == "facility.leaf_placement" {
		// Top of rack was the default, not asked: leaves that do not
		// fit in the compute racks go to leaf racks in the row.
		f.LeafPlacement = cat.Facility.Defaults.LeafPlacement
		if h, err = newHall(p.layoutInputs(f, cat), f, cat.Facility.Constants); err == nil {
			p.Notes = append(p.Notes, fmt.Sprintf("leaves in leaf racks at the %s of each row: %s", f.LeafPlacement, fe.Problem))
		}
	}
	if err != nil {
		return err
	}
	p.Hall = h
	p.Notes = append(p.Notes, h.hallNotes()...)
	if p.hallRun != nil {
		p.hallRun.notes = slices.Clone(p.Notes[notes:])
	}
	return nil
}

// leafInRack reports whether the design puts each leaf in the rack of
// the servers it serves (top of rack), so that a blank leaf_placement
// lays the leaves out in the compute racks: a fabric that is not
// rail-optimized, whose leaf takes whole servers. Design styles that
// place the leaf in the rack extend this rule.
func leafInRack(s *Scenario) bool {
	return s.Network.Style() == TopoToR // a named style over rail_optimized
}

// laysHall reports whether a plan of s is laid out in the hall (see
// layOut).
func (s *Scenario) laysHall(cat *Catalog) bool {
	return cat.Facility != nil && !s.flatLinks && !s.givesLengths() && (s.Facility == nil || s.Facility.Layout != LayoutFlat)
}

// givesLengths reports whether the scenario fixes its link lengths in
// network.media without a [facility] table: those lengths are kept
// (no hall is laid out).
func (s *Scenario) givesLengths() bool {
	m := s.Network.Media
	return s.Facility == nil && (m.ServerLeafM != 0 || m.LeafSpineM != 0 || m.SpineCoreM != 0)
}

// RackSlot is one device drawn in a rack elevation: what it is, its
// lowest U (from 1) and its height.
type RackSlot struct {
	Kind  string // "node", "nvlink", "switch" or "reserved"
	Label string
	U     int
	Units int
}

// Elevation lists what rack i holds, bottom up, with the units reserved
// at the top.
func (h *Hall) Elevation(i int, p *Plan) []RackSlot {
	r := h.Racks[i]
	f := h.Facility
	var out []RackSlot
	nodeName := "server"
	if p.System != nil {
		nodeName = p.System.Name
		if h.rackScale {
			nodeName = "compute tray"
		}
	}
	for k := range r.Nodes {
		u := 1 + k*h.nodeUnits
		if h.rackScale && k >= (h.nodesPerRack+1)/2 {
			u += h.switchTrays
		}
		out = append(out, RackSlot{Kind: "node", Label: fmt.Sprintf("%s %d", nodeName, k+1), U: u, Units: h.nodeUnits})
	}
	if h.rackScale && r.Kind == RackCompute && h.switchTrays > 0 {
		out = append(out, RackSlot{Kind: "nvlink", Label: fmt.Sprintf("%d NVLink switch trays", h.switchTrays),
			U: 1 + (h.nodesPerRack+1)/2*h.nodeUnits, Units: h.switchTrays})
	}
	top := f.RackUnits - f.ReservedUnits
	tier := map[string]string{RackLeaf: "leaf", RackSpine: "spine", RackCore: "core", RackCompute: "leaf (ToR)"}[r.Kind]
	sw, units := p.SwitchOf(rackTier(r.Kind)), h.unitsIn(r.Kind)
	for k := range r.Switches {
		u := top - (k+1)*units + 1
		out = append(out, RackSlot{Kind: "switch", Label: fmt.Sprintf("%s %s", sw.Key, tier), U: u, Units: units})
	}
	if f.ReservedUnits > 0 {
		out = append(out, RackSlot{Kind: "reserved", Label: "reserved: patch, mgmt", U: top + 1, Units: f.ReservedUnits})
	}
	return out
}
