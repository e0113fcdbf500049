package hall

import (
	"fmt"
	"math"

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
	Constants Constants
	// Racks is every rack, in rows; nil in a hall laid out for counting
	// (NewCounting), whose racks RackPos and RackName give.
	Racks []Rack
	Rows  []Row
	// WidthM and LengthM bound the racks and aisles with a perimeter
	// aisle; AreaM2 is their product.
	WidthM, LengthM, AreaM2 float64
	// Figures sums the hall: racks, power, cooling and cables.
	Figures Figures

	nodesPerRack int
	// racksPerUnit is the compute racks of a full unit of servers (each
	// unit starts a rack); 0 for rack-scale systems, whose nodes fill
	// their racks in order.
	racksPerUnit, serversPerUnit, servers int
	nodeUnits                             int  // U of one node (server or tray)
	rackScale                             bool // a rack-scale system: one system per rack
	switchTrays                           int  // NVLink switch trays of a rack-scale rack
	switchUnits                           int
	// computeRack maps compute rack c (node / nodesPerRack) to Racks;
	// nil in a hall laid out for counting, whose runs give the same.
	computeRack  []int32
	computeTotal int // compute racks
	// unitLeafRack is, per unit, the first leaf rack (middle/end) or the
	// first compute rack holding its nodes (ToR); unitRacks the compute
	// racks of a unit for ToR leaves.
	unitLeafRack, unitRacks []int32
	unitLeafOff             []int32 // a unit's first leaf in its leaf racks
	leavesPerUnit, planes   int
	leafBoxes               int // boxes a leaf stands as (Inputs.LeafBoxes, at least 1)
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

	// rowStart is, for a hall laid out for counting (Racks nil), the
	// index of each row's first rack and, last, the racks; runs are its
	// compute rows (rowcount.go).
	rowStart []int32
	runs     []computeRun
	// runsPerRack and rowsPerRack scale a compute rack's number and a
	// rack's index to a first guess at its run and row (guessRows).
	runsPerRack, rowsPerRack float64
	// kindRacks counts the racks of each of rackKinds while the figures
	// are summed.
	kindRacks [len(rackKinds)]int
}

// detail is how much of a hall layOut fills in.
type detail int8

const (
	detailFull     detail = iota // New: every rack, named, with its draw
	detailGeometry               // NewGeometry: the racks without names or draw
	detailCounting               // NewCounting: the figures, no rack list
)

// Place is where one end of a link stands: its rack (index into Racks)
// and the height of its port above the floor.
type Place struct {
	Rack int32
	U    int     // the device's lowest U (from 1)
	H    float64 // port height, metres
}

// Inputs is what laying out a hall needs from a plan: the servers (or
// trays) and how the fabric groups them, the switches of each tier per
// plane, and the height and peak draw of a node and of each tier's
// switch.
type Inputs struct {
	// Servers are the nodes (servers, or trays of a rack-scale system)
	// in Units scalable units of ServersPerUnit; each unit has
	// LeavesPerUnit leaves in each of Planes planes.
	Servers, Units, ServersPerUnit, LeavesPerUnit, Planes int
	// LeavesPerPlane, SpinesPerPlane and CoresPerPlane count each tier's
	// switches in one plane; PodSpines are the spines of each pod, in
	// order.
	LeavesPerPlane, SpinesPerPlane, CoresPerPlane int
	PodSpines                                     []int
	// NodeKW and NodeUnits are one node's peak draw and height;
	// NodesPerSystem is 1 for servers, the trays of a rack-scale system
	// (one system per rack) with SwitchTrays NVLink switch trays.
	NodeKW                                 float64
	NodeUnits, NodesPerSystem, SwitchTrays int
	Cooling                                string // "air" or "liquid"
	// SwitchUnits and SwitchKW are a leaf's height and peak draw with
	// its optics; with LeafBoxes above 1, one box's of a leaf that stands
	// as that many boxes side by side in its leaf racks (a distributed
	// switch's leaves: LeafBoxPlace).
	SwitchUnits int
	SwitchKW    float64
	LeafBoxes   int
	// UpperUnits and UpperKW are a spine's and a core's, as SwitchUnits
	// and SwitchKW are a leaf's.
	UpperUnits [2]int
	UpperKW    [2]float64
}

// New lays a plan's racks out on the hall floor: f is the facility
// with every field resolved (see Facility.Resolve), k the constants.
func New(in Inputs, f Facility, k Constants) (*Hall, error) { return layOut(in, f, k, detailFull) }

// NewGeometry lays the racks out as New does, without what only a
// plan's figures and views read: the racks' names and draw and the
// hall's Figures. It is for bounds on the links' runs, which read the
// racks' places, kinds and contents alone (a design search bounds
// hundreds of designs).
func NewGeometry(in Inputs, f Facility, k Constants) (*Hall, error) {
	return layOut(in, f, k, detailGeometry)
}

// NewCounting lays the racks out as New does, with every place, row and
// figure New gives (and so its notes), but without the list of racks:
// Racks is nil and RackPos and RackName give each rack's centre, name
// and row. It is for pricing a plan's links by counting them, which
// reads no rack's contents: a million-GPU hall's 27,000 racks take
// 3.5 MB as Racks; here its compute rows are runs of racks, a few
// kilobytes, their racks' draw summed a stretch of one draw at a time
// (rowcount.go). A top-of-rack hall keeps its Racks (its leaves fill
// the compute racks after they are placed).
func NewCounting(in Inputs, f Facility, k Constants) (*Hall, error) {
	return layOut(in, f, k, detailCounting)
}

// layOut is New, NewGeometry or NewCounting, by d.
func layOut(in Inputs, f Facility, k Constants, d detail) (*Hall, error) {
	if d == detailCounting && f.LeafPlacement == PlaceToR {
		d = detailFull
	}
	h := &Hall{Facility: f, Constants: k, serversPerUnit: in.ServersPerUnit, servers: in.Servers, nodeUnits: in.NodeUnits, switchUnits: in.SwitchUnits, leavesPerUnit: in.LeavesPerUnit,
		planes: in.Planes, spinesPerPlane: in.SpinesPerPlane, coresPerPlane: in.CoresPerPlane, leavesPerPlane: in.LeavesPerPlane,
		rackScale: in.NodesPerSystem > 1, switchTrays: in.SwitchTrays, leafBoxes: max(in.LeafBoxes, 1)}
	free := f.RackUnits - f.ReservedUnits
	if rackTop := float64(f.RackUnits) * k.UnitM; f.TrayHeightM <= rackTop {
		return nil, fielderr.New("facility.tray_height_m", fmt.Sprintf("raise the tray above the %.2f m rack top", rackTop),
			"the tray at %g m runs through %dU racks", f.TrayHeightM, f.RackUnits)
	}
	if err := h.sizeRacks(in, free); err != nil {
		return nil, err
	}
	h.leavesPerRack = max(1, min(free/in.SwitchUnits, int(f.RackKW/in.SwitchKW)))
	for i := range h.upperUnits {
		h.upperUnits[i] = in.UpperUnits[i]
		h.upperPerRack[i] = max(1, free/max(in.UpperUnits[i], 1))
		if in.UpperKW[i] > 0 {
			h.upperPerRack[i] = max(1, min(h.upperPerRack[i], int(f.RackKW/in.UpperKW[i])))
		}
	}
	if tall := max(in.SwitchUnits, in.UpperUnits[0], in.UpperUnits[1]); free < tall {
		return nil, fielderr.New("facility.rack_units", fmt.Sprintf("give at least %d U", tall+f.ReservedUnits),
			"a %dU switch does not fit in %d free U", tall, free)
	}
	rows := h.computeRows(in)
	net := h.networkRows(in)
	h.placeRows(rows, net, in, d == detailCounting)
	if f.LeafPlacement == PlaceToR {
		if err := h.placeToR(in, free); err != nil {
			return nil, err
		}
	}
	if d == detailFull {
		h.nameRacks()
		h.power(in)
		h.rackFigures()
	}
	return h, nil
}

// RackPos is rack i's centre on the floor, metres: Racks[i].X and Y, or
// in a hall laid out for counting the same figures from its row.
func (h *Hall) RackPos(i int32) (x, y float64) {
	if h.Racks != nil {
		r := &h.Racks[i]
		return r.X, r.Y
	}
	r, s := h.slotOf(i)
	row := &h.Rows[r]
	return rackX(row.X, s, h.Facility.RackWidthM), row.Y
}

// RackName is rack i's name and row (from 0): Racks[i].Name and Row, or
// in a hall laid out for counting the same from its row and slot.
func (h *Hall) RackName(i int32) (name string, row int) {
	if h.Racks != nil {
		r := &h.Racks[i]
		return r.Name, r.Row
	}
	r, s := h.slotOf(i)
	return rackName(r+1, s+1), r
}

// rackX is the centre of the rack in slot s of a row starting at x0.
func rackX(x0 float64, s int, widthM float64) float64 { return x0 + (float64(s)+0.5)*widthM }

// nameRacks names every rack by its row and slot.
func (h *Hall) nameRacks() {
	for i := range h.Racks {
		r := &h.Racks[i]
		r.Name = rackName(r.Row+1, r.Slot+1)
	}
}

// sizeRacks sets how many nodes a compute rack holds: a rack-scale
// system's own rack, else as many servers as the power budget and the
// free units allow (at least one: a server over budget is a finding).
func (h *Hall) sizeRacks(in Inputs, free int) error {
	f := h.Facility
	if h.rackScale {
		h.nodesPerRack = in.NodesPerSystem
		if need := in.NodesPerSystem*in.NodeUnits + in.SwitchTrays; need > free {
			return fielderr.New("facility.rack_units", fmt.Sprintf("give at least %d U", need+f.ReservedUnits),
				"the system's %d trays need %d U; %d are free", in.NodesPerSystem+in.SwitchTrays, need, free)
		}
		return nil
	}
	if in.NodeUnits > free {
		return fielderr.New("facility.rack_units", fmt.Sprintf("give at least %d U", in.NodeUnits+f.ReservedUnits),
			"a %dU server does not fit in %d free U", in.NodeUnits, free)
	}
	h.nodesPerRack = serversPerRack(in, f, free)
	h.racksPerUnit = ceilDiv(in.ServersPerUnit, h.nodesPerRack)
	return nil
}

// rowPlan is one row before placement: a network row's racks, or a
// compute row's run of compute racks with its leaf racks among them
// (rack gives each slot's).
type rowPlan struct {
	network bool
	racks   []rackPlan // a network row's
	// A compute row holds computes compute racks numbered from first,
	// and leafRacks leaf racks from slot leafAt.
	first, computes, leafRacks, leafAt int
	units                              []int // units whose leaves stand in the row's leaf racks
	// continues: the row's first racks belong to a unit begun in the row
	// before, so the two must stand in the same block of rows.
	continues bool
}

// size is the racks of the row.
func (rp *rowPlan) size() int {
	if rp.network {
		return len(rp.racks)
	}
	return rp.computes + rp.leafRacks
}

// rack is the rack in slot s of the row.
func (rp *rowPlan) rack(s int) rackPlan {
	switch {
	case rp.network:
		return rp.racks[s]
	case s < rp.leafAt:
		return rackPlan{kind: RackCompute, index: rp.first + s}
	case s < rp.leafAt+rp.leafRacks:
		return rackPlan{kind: RackLeaf, nth: s - rp.leafAt}
	}
	return rackPlan{kind: RackCompute, index: rp.first + s - rp.leafRacks}
}

type rackPlan struct {
	kind  string
	index int // compute rack number, or switch index
	nth   int // which of the row's leaf racks
}

// computeRows packs the scalable units into rows: whole units side by
// side while they fit, a unit longer than a row over several rows; the
// leaves of a row's units share leaf racks at the middle or end of the
// row (of a long unit's first row).
//
// The hall's last unit, when partial, is placed as the whole unit it
// grows into: a data-hall planner lays the rows out for whole units and
// fills them, so it takes a row of its own where the whole unit would
// not fit beside the others, and its leaf racks stand where the whole
// unit's would, its racks filling the slots on either side. Placed by
// its own size, a partial unit squeezed into the last row's far end,
// its racks past the middle leaf rack (15 m server-leaf runs), until a
// server more moved it to a row of its own and the hall cost less
// (QM9700 rail: 2,256 GPUs $14,653 cheaper than 2,248); and its leaf
// rack moved with every two racks it gained.
func (h *Hall) computeRows(in Inputs) []rowPlan {
	f := h.Facility
	perRow := f.RacksPerRow
	unitLeaves := 0
	if f.LeafPlacement != PlaceToR {
		unitLeaves = in.unitBoxes()
	}
	h.computeTotal = h.computeRacks()
	h.unitLeafRack = make([]int32, in.Units)
	h.unitLeafOff = make([]int32, in.Units)
	// Rows full of compute racks, twice over (the leaf racks and the
	// room a unit leaves at a row's end): the rows seldom grow the list.
	rows := make([]rowPlan, 0, 2*ceilDiv(h.computeTotal, perRow)+1)
	cur := 0 // compute racks of the row being filled, up to next
	// units are the units whose leaves the row holds: a run of ids (the
	// units are placed in order), shared by the rows, not a list a row.
	var units []int
	ids := make([]int, in.Units)
	for i := range ids {
		ids[i] = i
	}
	midUnit := false // the row being filled continues the row before's unit
	leafRacks := func(units int) int { return ceilDiv(units*unitLeaves, h.leavesPerRack) }
	next := 0 // first compute rack not yet placed
	lack := 0 // racks the row's last unit lacks to be whole (the hall's last unit)
	flush := func() {
		if cur+len(units) == 0 {
			return
		}
		row := rowPlan{units: units, continues: midUnit, first: next - cur, computes: cur, leafRacks: leafRacks(len(units)), leafAt: cur}
		if f.LeafPlacement == PlaceMiddle {
			row.leafAt = min(cur, (cur+lack+1)/2)
		}
		rows = append(rows, row)
		cur, units = 0, nil
	}
	for u := range in.Units {
		_, last := h.unitRackSpan(u)
		whole := h.unitWholeLast(u)
		if cur+max(whole-next+1, 0)+leafRacks(len(units)+1) > perRow {
			flush()
		}
		midUnit = cur > 0 && midUnit          // a new row starts with this unit
		units = ids[u-len(units) : u+1 : u+1] // the run grown by u
		// The unit's racks fill the row until it and its leaf racks
		// reach perRow, then a new row takes the rest: rows at a time,
		// not racks (a million GPUs take 31,000 compute racks).
		lr := leafRacks(len(units))
		for next <= last {
			if cur+lr >= perRow && cur > 0 {
				flush()
				midUnit, lr = true, 0
			}
			k := min(max(perRow-lr-cur, 1), last-next+1)
			cur += k
			next += k
		}
		// The whole unit's racks the row would also hold (a long unit's
		// rows before its last are full).
		lack = min(whole-last, max(perRow-lr-cur, 0))
	}
	flush()
	return rows
}

// networkRows packs the spine racks, then the core racks, into rows.
func (h *Hall) networkRows(in Inputs) []rowPlan {
	var racks []rackPlan
	for i := 0; i < in.SpinesPerPlane*in.Planes; i += h.upperPerRack[0] {
		racks = append(racks, rackPlan{kind: RackSpine, index: i})
	}
	for i := 0; i < in.CoresPerPlane*in.Planes; i += h.upperPerRack[1] {
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
// one block's reach of its leaves, nor on a network row that follows
// another: a data-hall planner keeps the spine and core rows together
// in one block, as their links run between them (a core rack spilled
// to the next block's far end turned 7-15 m spine-core runs into 70 m
// single-mode ones: QM9700 rail at 39,624 GPUs).
func blockBreaks(order []rowPlan, perCol int) []int {
	colOf := make([]int, len(order))
	col, inCol := 0, 0
	for r, rp := range order {
		if inCol >= perCol && !rp.continues && !(rp.network && r > 0 && order[r-1].network) {
			col, inCol = col+1, 0
		}
		colOf[r] = col
		inCol++
	}
	return colOf
}

// orderRows sets the network rows first, last or in the middle of the
// compute rows (rowOrder), never between two rows of one unit. In the
// middle they stand at the middle of the middle block (perCol rows a
// block, cols blocks side by side), as a data-hall planner puts the
// spine and core rows at the centre of the floor: the farthest compute
// row is then half a block's rows and half the blocks away. Set after
// half the compute rows, they sat at a block's end, and as the hall
// grew a block the rows that reach them moved from one side of the
// hall to the other (QM9700 rail: 18,640 GPUs $376,000 cheaper than
// 18,632, whose leaf-spine runs crossed the hall on single-mode).
func orderRows(compute, network []rowPlan, rowOrder string, cols, perCol int) []rowPlan {
	order := make([]rowPlan, 0, len(compute)+len(network))
	switch rowOrder {
	case RowsNetFirst:
		return append(append(order, network...), compute...)
	case RowsNetLast:
		return append(append(order, compute...), network...)
	}
	mid := min(len(compute), (cols-1)/2*perCol+max(perCol-len(network), 0)/2)
	for mid < len(compute) && compute[mid].continues {
		mid++
	}
	return append(append(append(order, compute[:mid]...), network...), compute[mid:]...)
}

// placeRows orders the rows (network rows first, last or in the
// middle), gives every rack its floor position and fills the indexes.
// With counting it keeps each row's first rack and each compute row's
// run of compute racks, not the racks, and sums the racks' draw and
// figures as it goes, a compute row's racks a run at a time.
func (h *Hall) placeRows(compute, network []rowPlan, in Inputs, counting bool) {
	f := h.Facility
	edge := f.ColdAisleM // perimeter aisle, and the cross aisle between blocks
	rowW := float64(widestRow(compute, network)) * f.RackWidthM
	// Blocks of rows side by side, as many as keep the hall about
	// square: a row pitch is a rack depth and half of each aisle.
	pitch := f.RackDepthM + (f.ColdAisleM+f.HotAisleM)/2
	rows := len(compute) + len(network)
	cols := max(1, int(math.Round(math.Sqrt(float64(rows)*pitch/(rowW+edge)))))
	perCol := ceilDiv(rows, cols)
	order := orderRows(compute, network, f.RowOrder, cols, perCol)
	colOf := blockBreaks(order, perCol)
	if len(colOf) > 0 {
		cols = colOf[len(colOf)-1] + 1
	}
	y, colLen, inCol := 0.0, 0.0, 0
	h.spineRack, h.coreRack = -1, -1
	h.podSpine = make([]int, len(in.PodSpines))
	for i := 1; i < len(in.PodSpines); i++ {
		h.podSpine[i] = h.podSpine[i-1] + in.PodSpines[i-1]
	}
	h.Rows = make([]Row, 0, len(order))
	if counting {
		h.rowStart = make([]int32, 0, len(order)+1)
		h.runs = make([]computeRun, 0, len(compute))
		h.startFigures()
	} else {
		h.computeRack = make([]int32, h.computeTotal)
		h.Racks = make([]Rack, 0, racksIn(order))
	}
	racks := int32(0)
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
		h.Rows = append(h.Rows, Row{Index: r, Network: rp.network, Racks: rp.size(), Y: y, X: x0})
		h.placeRow(r, &order[r], racks, in, counting)
		racks += int32(rp.size())
	}
	h.WidthM = 2*edge + float64(cols)*rowW + float64(cols-1)*edge
	h.LengthM = colLen + f.RackDepthM/2 + edge
	h.AreaM2 = h.WidthM * h.LengthM
	if counting {
		h.rowStart = append(h.rowStart, racks)
		h.guessRows()
		h.Figures.Racks = int(racks)
		h.endFigures()
	}
}

// placeRow places the racks of row r, laid out as rp, the first
// numbered first: each rack with its place in the indexes, or with
// counting the row's first rack, a compute row's run of compute racks
// (rowcount.go) and its leaf racks, and their draw and figures.
func (h *Hall) placeRow(r int, rp *rowPlan, first int32, in Inputs, counting bool) {
	row := &h.Rows[r]
	lo, hi := 0, rp.size()
	if counting {
		h.rowStart = append(h.rowStart, first)
		if !rp.network {
			lo, hi = rp.leafAt, rp.leafAt+rp.leafRacks
			h.runs = append(h.runs, computeRun{first: int32(rp.first), computes: int32(rp.computes), leafAt: int32(rp.leafAt),
				leafRacks: int32(rp.leafRacks), row: int32(r)})
			h.countComputes(rp.first, rp.leafAt, r, 0, in) // the racks before the leaf racks
		}
	}
	for s := lo; s < hi; s++ {
		kp := rp.rack(s)
		rk := Rack{Kind: kp.kind, Row: r, Slot: s, X: rackX(row.X, s, h.Facility.RackWidthM), Y: row.Y, Cooling: "air"}
		h.fillRack(&rk, kp, rp.units, first+int32(s), in)
		if counting {
			h.rackPower(&rk, in)
			h.addRackFigures(&rk)
			continue
		}
		h.Racks = append(h.Racks, rk)
	}
	if counting && !rp.network {
		h.countComputes(rp.first+rp.leafAt, rp.computes-rp.leafAt, r, hi, in) // the racks after the leaf racks
	}
}

// widestRow is the racks of the longest of the rows.
func widestRow(compute, network []rowPlan) int {
	widest := 0
	for _, rows := range [2][]rowPlan{compute, network} {
		for _, rp := range rows {
			widest = max(widest, rp.size())
		}
	}
	return widest
}

// fillRack fills rack rk (index idx) as planned by kp, in a row whose
// leaf racks hold the leaves of units, and notes where the rack stands
// in the indexes (a compute rack's nodes, a unit's first leaf rack, the
// first spine and core rack).
func (h *Hall) fillRack(rk *Rack, kp rackPlan, units []int, idx int32, in Inputs) {
	switch kp.kind {
	case RackCompute:
		h.computeRack[kp.index] = idx
		rk.Nodes = h.rackNodes(kp.index)
		rk.UsedUnits = rk.Nodes * in.NodeUnits
		if h.rackScale {
			rk.UsedUnits += in.SwitchTrays
		}
		rk.Cooling = in.Cooling
	case RackLeaf:
		if kp.nth == 0 {
			for i, u := range units {
				h.unitLeafRack[u], h.unitLeafOff[u] = idx, int32(i*in.unitBoxes())
			}
		}
		rk.Switches = min(h.leavesPerRack, len(units)*in.unitBoxes()-kp.nth*h.leavesPerRack)
		rk.firstSwitch = kp.nth * h.leavesPerRack
	case RackSpine, RackCore:
		if kp.kind == RackSpine && h.spineRack < 0 {
			h.spineRack = int(idx)
		}
		if kp.kind == RackCore && h.coreRack < 0 {
			h.coreRack = int(idx)
		}
		total, up := in.SpinesPerPlane*in.Planes, 0
		if kp.kind == RackCore {
			total, up = in.CoresPerPlane*in.Planes, 1
		}
		rk.Switches = min(h.upperPerRack[up], total-kp.index)
		rk.firstSwitch = kp.index
	}
	if rk.Switches > 0 {
		rk.UsedUnits = rk.Switches * h.unitsIn(rk.Kind)
	}
}

// placeToR puts each unit's leaves in the compute racks that hold its
// nodes, round robin, above the nodes.
func (h *Hall) placeToR(in Inputs, free int) error {
	h.unitRacks = make([]int32, in.Units)
	for u := range in.Units {
		first, last := h.unitRackSpan(u)
		h.unitLeafRack[u] = int32(first)
		h.unitRacks[u] = int32(last - first + 1)
		for i := range in.unitBoxes() {
			r := &h.Racks[h.computeRack[first+i%(last-first+1)]]
			r.Switches++
			r.UsedUnits += in.SwitchUnits
			if r.UsedUnits > free {
				return fielderr.New("facility.leaf_placement", `use "middle" or "end" (leaf racks in the row), or more rack_units`,
					"top-of-rack leaves need %d U in rack %s; %d are free", r.UsedUnits, rackName(r.Row+1, r.Slot+1), free)
			}
		}
	}
	return nil
}

// power sums each rack's and row's peak and typical draw.
func (h *Hall) power(in Inputs) {
	for i := range h.Racks {
		h.rackPower(&h.Racks[i], in)
	}
}

// rackPower sets rack r's peak and typical draw and adds its peak to its
// row's.
func (h *Hall) rackPower(r *Rack, in Inputs) {
	r.PeakKW = float64(r.Nodes)*in.NodeKW + float64(r.Switches)*in.kwIn(r.Kind)
	r.TypicalKW = r.PeakKW * (h.Facility.TypicalPct / 100)
	h.Rows[r.Row].PeakKW += r.PeakKW
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

// unitWholeLast is the last compute rack unit u would hold were it
// whole: its last rack for every unit but a partial last one.
func (h *Hall) unitWholeLast(u int) int {
	if h.racksPerUnit > 0 {
		return (u+1)*h.racksPerUnit - 1
	}
	return ((u+1)*h.serversPerUnit - 1) / h.nodesPerRack
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

// NodePlace is where node n (a server, or a tray of a rack-scale
// system) stands. Servers stack from U1; a rack-scale system's trays
// take the lower half of its compute trays, its NVLink switch trays,
// then the rest.
func (h *Hall) NodePlace(n int) Place {
	c, k := h.rackOf(n)
	u := 1 + k*h.nodeUnits
	if h.rackScale && k >= (h.nodesPerRack+1)/2 {
		u += h.switchTrays
	}
	return Place{Rack: h.computeIndex(c), U: u, H: h.unitH(u, h.nodeUnits)}
}

// NodeRacks appends to racks the racks (indexes into Racks) holding
// nodes first to first+n-1, in order, each once: every node's
// NodePlace rack without a place per node. n 0 appends none.
func (h *Hall) NodeRacks(racks []int32, first, n int) []int32 {
	if n <= 0 {
		return racks
	}
	a, _ := h.rackOf(first)
	b, _ := h.rackOf(first + n - 1)
	return h.appendComputeRacks(racks, a, b)
}

// switchPlace is the place of the i-th switch (from 0) of a network rack
// group starting at rack first: switches stack down from the rack's top
// free unit, a rack full moving to the next.
func (h *Hall) switchPlace(first, i int) Place {
	return h.switchPlaceOf(first, i, h.switchUnits, h.leavesPerRack)
}

// switchPlaceOf is switchPlace for switches of units U, perRack a rack.
func (h *Hall) switchPlaceOf(first, i, units, perRack int) Place {
	rack := first + i/perRack
	top := h.Facility.RackUnits - h.Facility.ReservedUnits
	u := top - (i%perRack+1)*units + 1
	return Place{Rack: int32(rack), U: u, H: h.unitH(u, units)}
}

// LeafPlace is where leaf g (from 0) of plane (from 1) stands: its
// first box where it stands as several (LeafBoxPlace).
func (h *Hall) LeafPlace(plane, g int) Place { return h.LeafBoxPlace(plane, g, 0) }

// LeafBoxPlace is where box b (from 0) of leaf g of plane stands: a
// leaf's boxes (Inputs.LeafBoxes) stand one after another in its unit's
// leaf racks, as its unit's leaves do.
func (h *Hall) LeafBoxPlace(plane, g, b int) Place {
	unit := g / h.leavesPerUnit
	i := ((plane-1)*h.leavesPerUnit+g%h.leavesPerUnit)*h.leafBoxes + b
	if h.Facility.LeafPlacement != PlaceToR {
		return h.switchPlace(int(h.unitLeafRack[unit]), int(h.unitLeafOff[unit])+i)
	}
	n := int(h.unitRacks[unit])
	c := int(h.unitLeafRack[unit]) + i%n
	rack := h.computeRack[c]
	top := h.Facility.RackUnits - h.Facility.ReservedUnits
	u := top - (i/n+1)*h.switchUnits + 1
	return Place{Rack: rack, U: u, H: h.unitH(u, h.switchUnits)}
}

// SpinePlace is where spine j of pod (from 0) of plane stands.
func (h *Hall) SpinePlace(plane, pod, j int) Place {
	return h.switchPlaceOf(h.spineRack, (plane-1)*h.spinesPerPlane+h.podSpine[pod]+j, h.upperUnits[0], h.upperPerRack[0])
}

// CorePlace is where core i of plane stands.
func (h *Hall) CorePlace(plane, i int) Place {
	return h.switchPlaceOf(h.coreRack, (plane-1)*h.coresPerPlane+i, h.upperUnits[1], h.upperPerRack[1])
}

// Run is the cable length between two places before rounding: inside
// one rack the vertical distance and the rack slack; between racks up
// to the tray, along the rows and across them (rectilinear), down again,
// and the slack.
func (h *Hall) Run(a, b Place) float64 {
	f := h.Facility
	if a.Rack == b.Rack {
		return math.Abs(a.H-b.H) + f.RackSlackM
	}
	xa, ya := h.RackPos(a.Rack)
	xb, yb := h.RackPos(b.Rack)
	return (f.TrayHeightM - a.H) + (f.TrayHeightM - b.H) + math.Abs(xa-xb) + math.Abs(ya-yb) + f.SlackM
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
// at the top. Nodes are labelled nodeName (a rack-scale system's
// "compute tray"), switches by switchKey(rack kind), their model.
func (h *Hall) Elevation(i int, nodeName string, switchKey func(kind string) string) []RackSlot {
	r := h.Racks[i]
	f := h.Facility
	var out []RackSlot
	if h.rackScale {
		nodeName = "compute tray"
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
	key, units := switchKey(r.Kind), h.unitsIn(r.Kind)
	for k := range r.Switches {
		u := top - (k+1)*units + 1
		out = append(out, RackSlot{Kind: "switch", Label: fmt.Sprintf("%s %s", key, tier), U: u, Units: units})
	}
	if f.ReservedUnits > 0 {
		out = append(out, RackSlot{Kind: "reserved", Label: "reserved: patch, mgmt", U: top + 1, Units: f.ReservedUnits})
	}
	return out
}

// unitsIn is the height of one switch in a rack of kind.
func (h *Hall) unitsIn(kind string) int {
	switch kind {
	case RackSpine:
		return h.upperUnits[0]
	case RackCore:
		return h.upperUnits[1]
	}
	return h.switchUnits
}

// kwIn is the peak of one switch in a rack of kind.
func (in Inputs) kwIn(kind string) float64 {
	switch kind {
	case RackSpine:
		return in.UpperKW[0]
	case RackCore:
		return in.UpperKW[1]
	}
	return in.SwitchKW
}

// unitBoxes is the leaf boxes of a unit over the planes: its leaves,
// each as its boxes.
func (in Inputs) unitBoxes() int { return in.LeavesPerUnit * in.Planes * max(in.LeafBoxes, 1) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// LeafBoxes is the boxes each leaf stands as (Inputs.LeafBoxes), at
// least 1.
func (h *Hall) LeafBoxes() int { return h.leafBoxes }

// LeavesPerPlane is the leaves of one plane, as laid out (Inputs).
func (h *Hall) LeavesPerPlane() int { return h.leavesPerPlane }

// SpinesPerPlane is the spines of one plane (see LeavesPerPlane).
func (h *Hall) SpinesPerPlane() int { return h.spinesPerPlane }

// CoresPerPlane is the cores of one plane (see LeavesPerPlane).
func (h *Hall) CoresPerPlane() int { return h.coresPerPlane }

// PodSpine is the first spine of pod (from 0) in a plane's numbering.
func (h *Hall) PodSpine(pod int) int { return h.podSpine[pod] }
