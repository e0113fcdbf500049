package charts

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// What the topology diagram draws for each design style beyond the
// rail-optimized Clos: a top-of-rack leaf in its rack with its servers'
// every port; a dual-plane NIC's second port on a twin ToR in the other
// plane; rail-only's rail switches side by side with no spine, joined
// only through the NVLink domain inside each server.

func (d *topoDiagram) style() string { return d.p.Scenario.Network.Style() }

func (d *topoDiagram) isToR() bool { return d.style() == planner.TopoToR && d.lpu == 1 }

func (d *topoDiagram) isDualPlane() bool {
	return d.style() == planner.TopoDualPlane && d.p.Planes > 1
}

func (d *topoDiagram) isRailOnly() bool { return d.style() == planner.TopoRailOnly }

// allRails says the drawing shows every rail's switch side by side: a
// rail-only fabric of one tier, whose rail networks are one switch each.
func (d *topoDiagram) allRails() bool {
	return d.isRailOnly() && d.p.Tiers == 1 && d.p.RailNetworks() > 1
}

// unitLeaves is the leaves drawn in the leaf row and the rail of the
// first: the unit's, one rail's in a pod by rail, every rail's switch
// in a one-tier rail-only fabric.
func (d *topoDiagram) unitLeaves() (leaves, rail0 int) {
	switch {
	case d.allRails():
		return d.p.RailNetworks(), 0
	case d.podRun.ByRail:
		return 1, d.pod % d.lpu
	}
	return min(d.lpu, d.podRun.Leaves), 0
}

// leafLook is leaf i's fill and name: by rail where a unit has one leaf
// per rail (or the row is the rail switches), else grey, a ToR named so.
func (d *topoDiagram) leafLook(i int) (color.Color, string) {
	switch {
	case d.lpu > 1 || d.allRails():
		return railColour(i), fmt.Sprintf("r%d", i+1)
	case d.isToR():
		return Grey, "ToR"
	}
	return Grey, "leaf"
}

// unitWord is what the diagram calls its expanded unit: a ToR's rack,
// a rack-aligned SU's rack or group of racks ("4-rack group"), else an
// SU.
func (d *topoDiagram) unitWord() string {
	if d.isToR() {
		return "rack"
	}
	if racks, span := planRacks(d.p); racks > 0 {
		if span > 1 {
			return fmt.Sprintf("%d-rack group", span)
		}
		return "rack"
	}
	return "SU"
}

// planesSummarised is the planes (or rail networks) the "× more" stack
// stands for: all but the one drawn, or, where every rail's switch is
// drawn, the scenario's other planes.
func (d *topoDiagram) planesSummarised() int {
	p := d.p
	if d.allRails() {
		return p.Planes/p.RailNetworks() - 1
	}
	return p.Planes - 1
}

func (d *topoDiagram) planesText(more int) string {
	switch {
	case d.isRailOnly() && !d.allRails():
		return "× " + textfmt.Plural(more, "more rail network") + ", alike"
	case d.isDualPlane() && more == 1:
		return "× 1 more plane (the r′ ToRs)"
	}
	return "× " + textfmt.Plural(more, "more plane") + ", alike"
}

// wiringClause says how leaves reach spines, "" with one tier.
func wiringClause(p *planner.Plan) string {
	if p.Tiers == 1 {
		return ""
	}
	return fmt.Sprintf("; every full leaf reaches every spine of its group (%s wiring)", wiringWords(p))
}

// styleCaption is the leaf row's caption in the styles with their own
// words, "" in the others.
func (d *topoDiagram) styleCaption(leaves, ports, up int) string {
	p := d.p
	switch {
	case d.allRails():
		return fmt.Sprintf("%d rail switches, one network per rail and no switch joining two; each %d ports holding its rail's node ports", leaves, ports)
	case d.isToR():
		return fmt.Sprintf("1 ToR in the rack, %d down : %d up: every port of its %s", ports, up, textfmt.Plural(d.unitNodes, "server"))
	case d.isDualPlane():
		return fmt.Sprintf("%d ToRs a plane (one per rail) and their twins r′ in plane 2, each %d down : %d up", leaves, ports, up)
	case d.isRailOnly() && p.Tiers == 1:
		return fmt.Sprintf("1 rail switch, %d ports holding its rail's node ports", ports)
	}
	return ""
}

// drawStyle draws what the style adds over the layers: the ToR's rack,
// the dual-plane NIC's split, the rail-only fabric's missing spine and
// NVLink join.
func (d *topoDiagram) drawStyle(g topoGeom, xs []float64) {
	switch {
	case d.isToR():
		d.drawRack(g)
	case d.isDualPlane():
		n := d.p.Scenario.Network
		tag(g.c, g.at(g.left+0.02, (g.yNode+g.yLeaf)/2+0.015), fmt.Sprintf("dual-ToR: each NIC's %d × %dG ports reach r and r′ in %d planes; a lost ToR halves a NIC",
			n.PortsPerNIC, d.p.PortGbps, n.Planes), Ink, draw.XLeft)
	case d.isRailOnly():
		d.drawNVLinkJoin(g)
		if d.p.Tiers == 1 {
			frame(g.c, g.at(g.left+0.03, 0.84-g.boxH/2), g.at(g.right-0.03, 0.84+g.boxH/2))
			fitted(g.c, g.at((g.left+g.right)/2, 0.84), "no spine: no switch joins two rails; traffic between rails crosses the NVLink domain first (PXN)",
				tickSize, false, Grey, draw.XCenter, g.W*vg.Length(g.right-g.left-0.08), g.H*vg.Length(g.boxH))
		}
	}
}

// drawRack frames the ToR and its servers as one rack.
func (d *topoDiagram) drawRack(g topoGeom) {
	c := g.c
	lo, hi := g.at(g.left+0.005, g.yNode-g.boxH/2-0.02), g.at(g.right-0.005, g.yLeaf+g.boxH/2+0.02)
	r := vg.Rectangle{Min: lo, Max: hi}
	c.SetLineStyle(draw.LineStyle{Color: Ink, Width: vg.Points(1.2)})
	c.Stroke(r.Path())
	label := fmt.Sprintf("rack %s of %s: its ToR and %s × %d GPUs", textfmt.Int(d.globalUnit()+1), textfmt.Int(d.p.Units),
		textfmt.Plural(d.unitNodes, "server"), d.p.NodeGPUs())
	if n := d.p.Scenario.Network.ServersPerToR; n > 0 {
		label += fmt.Sprintf(" (servers_per_tor = %d)", n)
	}
	tag(c, g.at(g.left+0.02, g.yLeaf+g.boxH/2+0.02), label, Ink, draw.XLeft)
}

// drawToRServers draws a ToR's servers one by one, each with every one
// of its ports (a line per port, coloured by rail) up to the ToR.
func (d *topoDiagram) drawToRServers(g topoGeom) {
	c := g.c
	shown, more := fitBoxes(d.unitNodes, 8)
	n := shown + boolInt(more)
	xs := spread(g.left+0.03, g.right-0.03, n)
	w := 0.8 * (g.right - g.left - 0.06) / float64(n)
	ports := min(d.p.RailsPerPlane, 8)
	top := (g.left + g.right) / 2
	for i := range shown {
		k := i
		if more && i == shown-1 {
			k = d.unitNodes - 1
		}
		x := xs[i+boolInt(more && i == shown-1)]
		for j := range ports {
			px := x - w/2 + w*(float64(j)+0.5)/float64(ports)
			line(c, g.at(px, g.yNode+g.boxH/2), g.at(top, g.yLeaf-g.boxH/2), railColour(j), 0.8)
		}
		box(c, g.at(x-w/2, g.yNode-g.boxH/2), g.at(x+w/2, g.yNode+g.boxH/2), color.RGBA{0xee, 0xee, 0xee, 0xff})
		fitted(c, g.at(x, g.yNode), fmt.Sprintf("server %d: %d GPUs", k+1, d.p.NodeGPUs()), tickSize, true, Ink, draw.XCenter,
			g.W*vg.Length(w*0.94), g.H*vg.Length(g.boxH))
	}
	if more {
		text(c, g.at(xs[shown-1], g.yNode), "…", labelSize, true, Ink, draw.XCenter)
	}
}

// drawTwinLeaf draws a dual-plane ToR pair for one rail at x, w wide:
// plane 1's ToR (left, solid) and plane 2's r′ (right, light, dashed),
// with the NICs' two ports forking to them.
func (d *topoDiagram) drawTwinLeaf(g topoGeom, x, w float64, col color.Color, name string) {
	c := g.c
	fork := g.yLeaf - g.boxH/2 - 0.025
	line(c, g.at(x, g.yNode+g.boxH/2), g.at(x, fork), col, 2)
	line(c, g.at(x, fork), g.at(x-w/4, g.yLeaf-g.boxH/2), col, 1.5)
	dashed(c, g.at(x, fork), g.at(x+w/4, g.yLeaf-g.boxH/2), col, 1.5)
	box(c, g.at(x-w/2, g.yLeaf-g.boxH/2), g.at(x, g.yLeaf+g.boxH/2), col)
	text(c, g.at(x-w/4, g.yLeaf), name, tickSize, true, textOn(col), draw.XCenter)
	light := tint(col, 0.55)
	r := vg.Rectangle{Min: g.at(x, g.yLeaf-g.boxH/2), Max: g.at(x+w/2, g.yLeaf+g.boxH/2)}
	c.SetColor(light)
	c.Fill(r.Path())
	c.SetLineStyle(draw.LineStyle{Color: Ink, Width: vg.Points(0.6), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}})
	c.Stroke(r.Path())
	text(c, g.at(x+w/4, g.yLeaf), name+"′", tickSize, true, textOn(light), draw.XCenter)
}

// nvlinkBand is the height of rail-only's NVLink band over the nodes.
const nvlinkBand = 0.035

// nodeTop is where links leave the nodes: their box's top, or the top of
// rail-only's NVLink band over it.
func (d *topoDiagram) nodeTop(g topoGeom) float64 {
	if d.isRailOnly() {
		return g.yNode + g.boxH/2 + nvlinkBand
	}
	return g.yNode + g.boxH/2
}

// drawNVLinkJoin draws the NVLink domain over the nodes, where a
// rail-only fabric's rails meet; red where the server's GPUs do not
// share one domain (the plan's finding).
func (d *topoDiagram) drawNVLinkJoin(g topoGeom) {
	c := g.c
	lo, hi := g.at(g.left+0.02, g.yNode+g.boxH/2), g.at(g.right-0.02, g.yNode+g.boxH/2+nvlinkBand)
	fill := color.Color(color.RGBA{0x5b, 0x3a, 0x8c, 0xff}) // apart from every rail's colour
	msg := fmt.Sprintf("NVLink domain: each node's %d GPUs join its %s (rail-only's only path between rails)",
		d.p.NodeGPUs(), textfmt.Plural(d.p.RailNetworks(), "rail"))
	if d.p.RailOnlyGap() != "" {
		fill = color.RGBA{0xc0, 0x39, 0x2b, 0xff}
		msg = "NVLink does not span the server: traffic between rails has no path but the host (see the findings)"
	}
	box(c, lo, hi, fill)
	fitted(c, vg.Point{X: (lo.X + hi.X) / 2, Y: (lo.Y + hi.Y) / 2}, msg, tickSize, true, textOn(fill), draw.XCenter, (hi.X-lo.X)*0.96, hi.Y-lo.Y)
}

// tint mixes col with white: share 0 is col, 1 white.
func tint(col color.Color, share float64) color.Color {
	r, g, b, _ := col.RGBA()
	mix := func(v uint32) uint8 { return uint8(float64(v>>8)*(1-share) + 255*share) }
	return color.RGBA{mix(r), mix(g), mix(b), 0xff}
}

func dashed(c draw.Canvas, a, b vg.Point, col color.Color, width float64) {
	c.StrokeLine2(draw.LineStyle{Color: col, Width: vg.Points(width), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}}, a.X, a.Y, b.X, b.Y)
}

// planesFootnote says which of several planes (or rail networks) the
// drawing shows.
func (d *topoDiagram) planesFootnote() string {
	p := d.p
	switch {
	case d.allRails():
		s := fmt.Sprintf("Every rail's switch drawn: rail-only builds %d networks of one switch, one per rail.", p.RailNetworks())
		if more := d.planesSummarised(); more > 0 {
			s += fmt.Sprintf(" Counts are for plane 1 of %d, the title's for all.", more+1)
		}
		return s
	case d.isRailOnly():
		return fmt.Sprintf("Rail 1's network of %d drawn; the others are alike (each node's port of a rail goes to that rail's network). Counts in the drawing are per network, the title's for all.", p.Planes)
	case d.isDualPlane():
		return fmt.Sprintf("Plane 1 of %d drawn with each rail's twin ToR r′ in plane 2, which the NICs' second ports reach; plane 2's spines are alike. Counts in the drawing are per plane, the title's for all planes.", p.Planes)
	}
	return fmt.Sprintf("Plane 1 of %d drawn; the others are alike (each node port goes to one plane). Counts in the drawing are per plane, the title's for all planes.", p.Planes)
}
