package hall

import "math"

// LeastSpanM is the least WidthM + LengthM, in metres, that a hall of
// these inputs can have, without laying it out (New, NewGeometry and
// NewCounting place the rows alike): its compute racks are at least
// Servers over the most nodes a rack holds (a rack-scale system's
// trays, else as many as the free units and the rack's power allow);
// a row is as wide as its racks side by side, and its neighbour in a
// block of rows stands a rack depth and an aisle further on, so the
// floor spans at least that many racks times a rack's width times a
// rack's depth and the narrower aisle, and a rectangle of area A has a
// width plus length of at least 2√A. 0 when a node does not fit in a
// rack (New's error).
func LeastSpanM(in Inputs, f Facility) float64 {
	perRack := in.NodesPerSystem
	if perRack <= 1 {
		free := f.RackUnits - f.ReservedUnits
		if in.NodeUnits <= 0 || in.NodeUnits > free {
			return 0
		}
		perRack = serversPerRack(in, f, free)
	}
	racks := ceilDiv(max(in.Servers, 0), perRack)
	area := float64(racks) * f.RackWidthM * (f.RackDepthM + max(0, min(f.ColdAisleM, f.HotAisleM)))
	return 2 * math.Sqrt(area)
}

// serversPerRack is the servers a compute rack of free units holds: as
// many as the units and the rack's power budget allow, at least one (a
// server over budget is a finding). sizeRacks and LeastSpanM share it.
func serversPerRack(in Inputs, f Facility, free int) int {
	n := free / in.NodeUnits
	if in.NodeKW > 0 {
		n = min(n, int(math.Floor(f.RackKW/in.NodeKW+1e-9)))
	}
	return max(1, n)
}
