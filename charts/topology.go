package charts

import (
	"fmt"
	"image/color"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// Focus picks what the topology diagram draws expanded: pod Pod (from 1)
// and, in it, scalable unit Unit (from 1); 0 takes the first.
type Focus struct{ Pod, Unit int }

// Topology draws the plan's fabric as a diagram that reads at any size:
// one plane (the others alike), the core layer, one pod with its spines
// and one scalable unit expanded to its leaves (coloured by rail) and
// nodes, the rest summarised ("x 127 more pods"). Link bundles carry
// their count and speed; an oversubscribed leaf and headroom are said.
func Topology(in Input) (*Figure, error) {
	p := in.Plan
	if p == nil {
		return nil, fmt.Errorf("topology: %w: no plan", ErrMissingInput)
	}
	d := newTopoDiagram(p, in.Focus)
	pl := plot.New()
	pl.HideAxes()
	pl.Title.Text = d.title()
	pl.Title.TextStyle.Font = sans
	pl.Title.TextStyle.Font.Size = titleSize
	pl.Title.TextStyle.Color = Ink
	pl.Title.Padding = vg.Points(8)
	pl.Add(d)
	return &Figure{Name: "topology", Panels: [][]*plot.Plot{{pl}}, Footnote: d.footnote(in.where("the Export cable map… button", "fabricplan cables --csv")), Data: []Series{d.counts()}}, nil
}

// topoDiagram is the diagram as a gonum plotter: it draws in the plot's
// canvas, so the window, the exports and the report share one renderer.
type topoDiagram struct {
	p              *planner.Plan
	pods           []planner.PodRun
	cores          []planner.CoreRun
	lpu, npu       int // leaves and nodes of a full scalable unit
	pod, unit      int // the expanded pod and unit (from 0)
	podRun         planner.PodRun
	pods1, units1  int // pods per plane, units in the expanded pod
	unitNodes      int // nodes of the expanded unit
	coreN, groupsN int
	spinesPerGroup int // spine indices one core group joins (the most)
}

func newTopoDiagram(p *planner.Plan, f Focus) *topoDiagram {
	d := &topoDiagram{p: p}
	d.pods, d.cores, d.lpu, d.npu = p.Layout()
	for _, r := range d.pods {
		d.pods1 += r.Count
	}
	for _, c := range d.cores {
		d.coreN += c.Groups * c.Cores
		d.groupsN += c.Groups
		d.spinesPerGroup = max(d.spinesPerGroup, c.Spines)
	}
	d.pod = min(max(f.Pod, 1), d.pods1) - 1
	k := d.pod
	for _, r := range d.pods {
		if k < r.Count {
			d.podRun = r
			break
		}
		k -= r.Count
	}
	d.units1 = max(1, d.podRun.Units)
	d.unit = min(max(f.Unit, 1), d.units1) - 1
	// Nodes of the expanded unit: full units hold npu; the plan's last
	// unit may hold fewer.
	first := d.globalUnit() * d.npu
	d.unitNodes = min(d.npu, p.Servers-first)
	return d
}

// globalUnit is the expanded unit's index in the plane.
func (d *topoDiagram) globalUnit() int {
	if d.podRun.ByRail {
		// Pods by rail: every lpu pods share the same units.
		return d.pod/d.lpu*d.pods[0].Units + d.unit
	}
	leaves := 0
	k := d.pod
	for _, r := range d.pods {
		n := min(k, r.Count)
		leaves += n * r.Leaves
		k -= n
	}
	return leaves/d.lpu + d.unit
}

func (d *topoDiagram) title() string {
	p := d.p
	return fmt.Sprintf("%s GPUs: %s in %s, %s",
		textfmt.Int(p.GPUs), textfmt.Plural(p.TotalSwitches(), "switch"), textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.Links.Total, "link"))
}

// counts are the figures the diagram labels, all planes, for tests and
// readers: they must equal the plan's.
func (d *topoDiagram) counts() Series {
	p := d.p
	return Series{Name: "counts",
		Labels: []string{"planes", "pods per plane", "scalable units per plane", "leaf switches", "spine switches", "core switches",
			"server-leaf links", "leaf-spine links", "spine-core links"},
		Values: []float64{float64(p.Planes), float64(d.pods1), float64(p.Units), float64(p.Switches(planner.TierLeaf)),
			float64(p.Switches(planner.TierSpine)), float64(p.Switches(planner.TierCore)),
			float64(p.Links.ServerLeaf), float64(p.Links.LeafSpine), float64(p.Links.SpineCore)}}
}

// footnote says what the drawing leaves out and where the cable map of
// every link is (cableMap: the window's button or the CLI command).
func (d *topoDiagram) footnote(cableMap string) string {
	p := d.p
	var parts []string
	if p.Planes > 1 {
		parts = append(parts, d.planesFootnote())
	}
	speeds := fmt.Sprintf("Links are %dG", p.PortGbps)
	if sp := p.SpeedsText(); sp != "" {
		speeds = "Port speeds: " + sp
	}
	parts = append(parts, speeds+wiringClause(p)+".")
	if p.MixedSwitches() {
		parts = append(parts, "Switches: "+p.SwitchesText()+".")
	}
	for _, h := range p.Headroom {
		if h.Switches > 0 {
			parts = append(parts, fmt.Sprintf("Headroom not counted: %s more %s switches (%s).", textfmt.Int(h.Switches), h.Tier, h.Reason))
		}
	}
	parts = append(parts, "Cable map of every link: "+cableMap+".")
	return strings.Join(parts, " ")
}

func wiringWords(p *planner.Plan) string {
	w := p.SpineWiring
	if p.CoreWiring == planner.WiringNear {
		w = planner.WiringNear
	}
	if w == "" {
		return "direct"
	}
	return w
}

// DataRange and Plot make topoDiagram a plot.Plotter on a unit square.
func (d *topoDiagram) DataRange() (xmin, xmax, ymin, ymax float64) { return 0, 1, 0, 1 }

// podLabel names the dashed frame round spines, unit and nodes: the
// pod of a three-tier fabric, else the whole plane or fabric.
func (d *topoDiagram) podLabel() string {
	p := d.p
	label := "the whole fabric"
	switch {
	case d.isRailOnly() && p.Tiers >= 2:
		label = fmt.Sprintf("rail 1's network (of %d)", p.RailNetworks())
		if p.Tiers == 3 {
			label = fmt.Sprintf("rail 1's network (of %d), pod %d of %s", p.RailNetworks(), d.pod+1, textfmt.Int(d.pods1))
		}
	case p.Tiers == 3:
		label = fmt.Sprintf("pod %d of %s", d.pod+1, textfmt.Int(d.pods1))
	case p.Planes > 1:
		label = "the whole plane"
	}
	return label
}

// nodeText names the expanded unit's nodes: its SU (and rack, where an
// SU spans racks), the nodes and their gps GPUs each.
func (d *topoDiagram) nodeText(gps int) string {
	p := d.p
	nodeText := fmt.Sprintf("SU %d: %s × %d GPUs", d.globalUnit()+1, textfmt.Plural(d.unitNodes, "node"), gps)
	if per := unitsPerSU(p); per > 0 {
		g := d.globalUnit()
		racks := "rack " + fmt.Sprint(g%per+1)
		if _, span := planRacks(p); span > 1 {
			first := g%per*span + 1
			racks = fmt.Sprintf("racks %d–%d", first, first+span-1)
		}
		nodeText = fmt.Sprintf("SU %d, %s: %s × %d GPUs", g/per+1, racks, textfmt.Plural(d.unitNodes, "node"), gps)
	}
	return nodeText
}

// leafCaption is the line under the unit's leaves: how many, which
// rail, and their ports down and up (red when oversubscribed), with its
// colour.
func (d *topoDiagram) leafCaption(leaves, rail0, ports, up int) (string, color.Color) {
	p := d.p
	leafWord := "leaf"
	switch {
	case d.podRun.ByRail:
		leafWord = fmt.Sprintf("leaf (rail %d of %d; each pod takes one rail's leaves)", rail0+1, d.lpu)
	case d.lpu > 1:
		leafWord = "leaves (one per rail)"
	}
	ratio := fmt.Sprintf("%d down : %d up", ports, up)
	if p.Tiers == 1 {
		ratio = fmt.Sprintf("%d ports holding every node port", ports)
	}
	ratioCol := Ink
	if s := ratioSuffix(p); s != "" {
		ratio += s
		ratioCol = color.RGBA{0xc0, 0x39, 0x2b, 0xff}
	}
	return fmt.Sprintf("%d %s, each %s", leaves, leafWord, ratio), ratioCol
}

// ratioSuffix says an oversubscribed leaf's ratio, "" at 1:1.
func ratioSuffix(p *planner.Plan) string {
	over := p.Scenario.Network.Oversubscription
	if over == "" || over == "1:1" || p.Tiers == 1 {
		return ""
	}
	return " — " + over + " oversubscribed"
}

// topoGeom is where the diagram's layers sit, as shares of its canvas:
// the expanded part from left to right, summaries to the right.
type topoGeom struct {
	c                           draw.Canvas
	W, H                        vg.Length
	left, right                 float64
	yCore, ySpine, yLeaf, yNode float64
	boxH                        float64
}

// at is the canvas point at shares fx, fy of the diagram.
func (g topoGeom) at(fx, fy float64) vg.Point {
	return vg.Point{X: g.c.Min.X + vg.Length(fx)*g.W, Y: g.c.Min.Y + vg.Length(fy)*g.H}
}

func (d *topoDiagram) geometry(c draw.Canvas) topoGeom {
	g := topoGeom{c: c, W: c.Max.X - c.Min.X, H: c.Max.Y - c.Min.Y, left: 0.02, right: 0.66,
		yCore: 0.9, ySpine: 0.66, yLeaf: 0.38, yNode: 0.08, boxH: 0.09}
	if d.p.Tiers < 3 {
		g.ySpine = 0.84
	}
	if d.p.Tiers == 1 {
		g.yLeaf = 0.6
	}
	return g
}

// Plot draws the layers from the top: cores, the pod's spines, the
// unit's leaves, its nodes; summaries to the right; and what the design
// style adds (a ToR's rack, a dual-plane NIC's second ToR, rail-only's
// rails joined in the NVLink domain).
func (d *topoDiagram) Plot(c draw.Canvas, _ *plot.Plot) {
	p := d.p
	g := d.geometry(c)
	// Pod frame (dashed) around spines, unit and nodes.
	if p.Tiers >= 2 {
		top := g.ySpine + g.boxH/2 + 0.05
		frame(c, g.at(g.left-0.01, g.yNode-g.boxH/2-0.03), g.at(g.right+0.01, top))
		tag(c, g.at(g.left, top), d.podLabel(), Grey, draw.XLeft)
	}
	d.drawNodes(g)
	xs, leaves, up := d.drawLeaves(g)
	if p.Tiers >= 2 {
		d.drawSpines(g, xs, leaves, up)
	}
	if p.Tiers == 3 {
		d.drawCores(g)
	}
	d.drawStyle(g, xs)
	d.drawSummaries(g)
}

// drawNodes draws the expanded unit's nodes: one box, or a ToR's
// servers one by one.
func (d *topoDiagram) drawNodes(g topoGeom) {
	if d.isToR() {
		d.drawToRServers(g)
		return
	}
	box(g.c, g.at(g.left+0.02, g.yNode-g.boxH/2), g.at(g.right-0.02, g.yNode+g.boxH/2), color.RGBA{0xee, 0xee, 0xee, 0xff})
	text(g.c, g.at((g.left+g.right)/2, g.yNode), d.nodeText(d.p.Scenario.Cluster.GPUsPerServer), labelSize, true, Ink, draw.XCenter)
}

// drawLeaves draws the unit's leaves, coloured by rail (a pod by rail
// holds one of them, its rail's; a rail-only fabric of one tier draws
// every rail's switch), with their links down to the nodes; it returns
// the leaves' centres, how many leaves the unit has and a full leaf's
// uplinks.
func (d *topoDiagram) drawLeaves(g topoGeom) (xs []float64, leaves, up int) {
	p, c := d.p, g.c
	leaves, rail0 := d.unitLeaves()
	shown, more := fitBoxes(leaves, 16)
	xs = spread(g.left+0.03, g.right-0.03, shown+boolInt(more))
	ports, up := d.podRun.UnitLeaf(d.unit)
	w := 0.8 * (g.right - g.left - 0.06) / float64(shown+boolInt(more))
	if d.isToR() {
		w = min(w, 0.3*(g.right-g.left)) // a ToR box, not a bar across the rack
	}
	for i := range shown {
		k := i
		if more && i == shown-1 {
			k = leaves - 1
		}
		col, name := d.leafLook(rail0 + k)
		x := xs[i+boolInt(more && i == shown-1)]
		if d.isDualPlane() {
			d.drawTwinLeaf(g, x, w, col, name)
			continue
		}
		if !d.isToR() { // a ToR's links fan out to its servers
			line(c, g.at(x, d.nodeTop(g)), g.at(x, g.yLeaf-g.boxH/2), col, 2)
		}
		box(c, g.at(x-w/2, g.yLeaf-g.boxH/2), g.at(x+w/2, g.yLeaf+g.boxH/2), col)
		text(c, g.at(x, g.yLeaf), name, tickSize, true, textOn(col), draw.XCenter)
	}
	if more {
		text(c, g.at(xs[shown-1], g.yLeaf), "…", labelSize, true, Ink, draw.XCenter)
	}
	caption, ratioCol := d.leafCaption(leaves, rail0, ports, up)
	if sc := d.styleCaption(leaves, ports, up); sc != "" {
		caption = sc + ratioSuffix(p)
	}
	tag(c, g.at(g.left+0.02, g.yLeaf-g.boxH/2-0.035), caption, ratioCol, draw.XLeft)
	tag(c, g.at((g.left+g.right)/2, (g.yNode+g.yLeaf)/2-0.03), d.serverLinksText(leaves), Ink, draw.XCenter)
	return xs, leaves, up
}

// serverLinksText labels the links from the drawn nodes to the drawn
// leaves.
func (d *topoDiagram) serverLinksText(leaves int) string {
	p := d.p
	n := d.unitNodes * p.RailsPerPlane * leaves / max(d.lpu, 1)
	if nets := p.RailNetworks(); nets > 1 && p.Tiers == 1 {
		n = d.unitNodes * leaves // one link from each node to each rail's switch
	}
	s := fmt.Sprintf("%s server links × %dG", textfmt.Int(n), p.PortGbps)
	if d.isToR() && d.unitNodes > 1 {
		s += fmt.Sprintf(" (%d from each server)", p.RailsPerPlane)
	}
	return s
}

// drawSpines draws the pod's spines and the fan of links to them from
// the unit's leaves.
func (d *topoDiagram) drawSpines(g topoGeom, xs []float64, leaves, up int) {
	p, c := d.p, g.c
	spines := d.podRun.Spines
	sShown, sMore := fitBoxes(spines, 16)
	sx := spread(g.left+0.03, g.right-0.03, sShown+boolInt(sMore))
	w := 0.8 * (g.right - g.left - 0.06) / float64(sShown+boolInt(sMore))
	for i := range sShown {
		x := sx[i+boolInt(sMore && i == sShown-1)]
		box(c, g.at(x-w/2, g.ySpine-g.boxH/2), g.at(x+w/2, g.ySpine+g.boxH/2), colour(0))
		n := i + 1
		if sMore && i == sShown-1 {
			n = spines
		}
		text(c, g.at(x, g.ySpine), fmt.Sprint(n), tickSize, true, color.White, draw.XCenter)
	}
	if sMore {
		text(c, g.at(sx[sShown-1], g.ySpine), "…", labelSize, true, Ink, draw.XCenter)
	}
	// The fan from the unit's leaves (plane 1's half of a dual-plane
	// pair) to the spines.
	shift := 0.0
	if d.isDualPlane() {
		shift = -0.2 * (g.right - g.left - 0.06) / float64(len(xs))
	}
	// Leaves' links meet at the spine row's middle; a lone leaf (a
	// top-of-rack unit, a rail-only network's leaf) fans out to every
	// spine drawn, as it is wired, instead of one line that reads as a
	// single link.
	ends := []float64{(g.left + g.right) / 2}
	if len(xs) == 1 {
		ends = sx
	}
	for _, x := range xs {
		for _, e := range ends {
			line(c, g.at(x+shift, g.yLeaf+g.boxH/2), g.at(e, g.ySpine-g.boxH/2), Grey, 0.6)
		}
	}
	tag(c, g.at((g.left+g.right)/2, (g.yLeaf+g.ySpine)/2), fmt.Sprintf("%s leaf-spine links × %dG from this %s (%s in the %s)",
		textfmt.Int(leaves*up), p.TierGbps("leaf_spine"), d.unitWord(), textfmt.Int(d.podRun.LeafSpine), podWord(p)), Ink, draw.XCenter)
	// On the frame's top edge, clear of the spine boxes at any size.
	// With cores above, the spine-core links' label sits there: the
	// spines are counted by their numbered boxes (the last is the pod's
	// count) and in the totals.
	if p.Tiers < 3 {
		tag(c, g.at(g.right, g.ySpine+g.boxH/2+0.05), fmt.Sprintf("%s spine switches", textfmt.Int(spines)), Ink, draw.XRight)
	}
}

// drawCores draws the core layer and the pod's links to it.
func (d *topoDiagram) drawCores(g topoGeom) {
	c := g.c
	box(c, g.at(g.left+0.05, g.yCore-g.boxH/2), g.at(g.right-0.05, g.yCore+g.boxH/2), colour(4))
	joins := "group j joins spine j of every pod"
	if d.spinesPerGroup > 1 {
		joins = fmt.Sprintf("a group joins up to %d spine numbers of every pod", d.spinesPerGroup)
	}
	model := ""
	if sw := d.p.SwitchOf(planner.TierCore); sw != d.p.Switch {
		model = " " + sw.Key
	}
	fitted(c, g.at((g.left+g.right)/2, g.yCore), fmt.Sprintf("core: %s%s switches in %s (%s)",
		textfmt.Int(d.coreN), model, textfmt.Plural(d.groupsN, "group"), joins), tickSize, true, color.White, draw.XCenter,
		g.W*vg.Length(g.right-g.left-0.12), g.H*vg.Length(g.boxH))
	line(c, g.at((g.left+g.right)/2, g.ySpine+g.boxH/2), g.at((g.left+g.right)/2, g.yCore-g.boxH/2), Grey, 1.5)
	tag(c, g.at((g.left+g.right)/2, (g.ySpine+g.yCore)/2+0.01), fmt.Sprintf("%s spine-core links × %dG from this pod",
		textfmt.Int(d.podRun.SpineCore), d.p.TierGbps("spine_core")), Ink, draw.XCenter)
}

// drawSummaries draws the summaries on the right: totals at the top,
// then pods, units and planes beside the layer they summarise.
func (d *topoDiagram) drawSummaries(g topoGeom) {
	p, c := d.p, g.c
	sx := g.right + 0.04
	boxH, yLeaf, yNode := g.boxH, g.yLeaf, g.yNode
	d.drawTotals(c, g.at(sx, 0.97), g.H*vg.Length(0.97-d.summaryTop(yLeaf, yNode, boxH)))
	if more := d.units1 - 1; more > 0 {
		stack(c, g.at(sx, yLeaf-boxH/2), g.at(0.98, yLeaf+boxH/2))
		markTarget(c, TargetNextUnit, g.at(sx, yLeaf-boxH/2), g.at(0.98, yLeaf+boxH/2+0.02))
		// Fitted to the stack, as the planes' line below: "4-rack
		// groups" is longer than "racks".
		fitted(c, g.at((sx+0.98)/2, yLeaf), d.moreUnitsText(more), tickSize, true, Ink, draw.XCenter,
			g.W*vg.Length(0.98-sx)*0.94, g.H*vg.Length(boxH))
	}
	if p.Tiers == 3 && d.pods1 > 1 {
		y := 0.58
		stack(c, g.at(sx, y-boxH/2), g.at(0.98, y+boxH/2))
		markTarget(c, TargetNextPod, g.at(sx, y-boxH/2), g.at(0.98, y+boxH/2+0.02))
		text(c, g.at((sx+0.98)/2, y), "× "+textfmt.Plural(d.pods1-1, "more pod"), tickSize, true, Ink, draw.XCenter)
		// The pod kinds go in the room between this stack and the next.
		below := yNode + boxH/2 + 0.02
		if d.units1 > 1 {
			below = yLeaf + boxH/2 + 0.02
		}
		room := g.H*vg.Length(y-boxH/2-0.01-below) - vg.Points(2) - 2*stackOffset // the next stack's shadows
		kinds := textStyle(tickSize*0.9, false)
		room = min(room, 3*kinds.Height("X"))
		fitted(c, g.at(sx, y-boxH/2-0.01).Sub(vg.Point{Y: room / 2}), d.podKinds(), tickSize*0.9, false, Ink, draw.XLeft,
			g.W*vg.Length(0.98-sx), room)
	}
	if more := d.planesSummarised(); more > 0 {
		stack(c, g.at(sx, yNode-boxH/2), g.at(0.98, yNode+boxH/2))
		fitted(c, g.at((sx+0.98)/2, yNode), d.planesText(more), tickSize, true, Ink, draw.XCenter, g.W*vg.Length(0.98-sx)*0.94, g.H*vg.Length(boxH))
	}
}

// summaryTop is the height, as a share of the diagram's, of the top of
// the highest stack drawn under the counts (0: none).
func (d *topoDiagram) summaryTop(yLeaf, yNode, boxH float64) float64 {
	switch {
	case d.p.Tiers == 3 && d.pods1 > 1:
		return 0.58 + boxH/2 + 0.03
	case d.units1 > 1:
		return yLeaf + boxH/2 + 0.03
	case d.planesSummarised() > 0:
		return yNode + boxH/2 + 0.03
	}
	return 0
}

// drawTotals lists the counts down from top (the middle of the first
// line) in room: a line apart, the text made smaller (down to 70%) when
// the list is taller than room.
func (d *topoDiagram) drawTotals(c draw.Canvas, top vg.Point, room vg.Length) {
	lines := d.totals()
	n := vg.Length(len(lines))
	size := vg.Length(tickSize)
	step := func() vg.Length { return textStyle(size, false).Height("Xg") * 1.05 }
	for size > tickSize*0.7 && step()*n > room {
		size -= tickSize * 0.05
	}
	// Lines spread to the old spacing where there is room to spare.
	gap := max(step(), min(room/n, (c.Max.Y-c.Min.Y)*0.036))
	for i, l := range lines {
		text(c, vg.Point{X: top.X, Y: top.Y - gap*vg.Length(i)}, l, size, i == 0, Ink, draw.XLeft)
	}
}

// totals are the per-plane counts listed at the top right.
func (d *topoDiagram) totals() []string {
	p := d.p
	P := p.Planes
	if d.allRails() {
		P /= p.RailNetworks() // the drawing shows every rail of a plane
	}
	out := []string{"Per plane"}
	switch {
	case p.RailNetworks() > 1 && !d.allRails():
		out[0] = "Per rail network" // rail-only past one tier: rail 1's network drawn
	case P == 1:
		out[0] = "Counts"
	}
	add := func(n int, what string) {
		if n > 0 {
			out = append(out, "  "+textfmt.Plural(n, what))
		}
	}
	add(p.Switches(planner.TierLeaf)/P, "leaf switch")
	add(p.Switches(planner.TierSpine)/P, "spine switch")
	add(p.Switches(planner.TierCore)/P, "core switch")
	if racks, _ := planRacks(p); racks > 0 {
		add(racks, "rack")
		add(p.UnitCount(), "scalable unit")
	} else {
		add(p.Units, "scalable unit")
	}
	add(p.Links.ServerLeaf/P, "server-leaf link")
	add(p.Links.LeafSpine/P, "leaf-spine link")
	add(p.Links.SpineCore/P, "spine-core link")
	return out
}

// unitsPerSU is the diagram's units (leaf groups) in the reference SU
// where the leaves take whole racks (an NVL72 SuperPOD: 8 racks of 18
// trays on QM9700 leaves; 2 groups of 4 racks on Q3400 leaves), so that
// the diagram names racks; 0 otherwise.
func unitsPerSU(p *planner.Plan) int {
	if p.Unit.LeafAlignment != planner.AlignRack || p.ServersPerUnit <= 0 || p.Unit.Servers <= p.ServersPerUnit || p.Unit.Servers%p.ServersPerUnit != 0 {
		return 0
	}
	return p.Unit.Servers / p.ServersPerUnit
}

// moreUnitsText is the line on the stack of the pod's other units:
// "× 17 more 4-rack groups in this fabric", and, where the pod's last
// unit is a short group of racks, its racks, so that the racks named add
// up to the plan's ("(the last 2 racks)").
func (d *topoDiagram) moreUnitsText(more int) string {
	s := fmt.Sprintf("× %s in this %s", textfmt.Plural(more, "more "+d.unitWord()), podWord(d.p))
	racks, span := planRacks(d.p)
	if racks == 0 || span <= 1 || d.isToR() {
		return s
	}
	last := d.globalUnit() - d.unit + d.units1 - 1 // the pod's last unit in the plane
	if nodes := d.p.Servers - last*d.npu; nodes > 0 {
		rn := d.p.System.RackNodes
		if n := (nodes + rn - 1) / rn; n < span { // racks, the partial last one counted
			s += fmt.Sprintf(" (the last %s)", textfmt.Plural(n, "rack"))
		}
	}
	return s
}

// planRacks is the plan's racks, each the system's rack_nodes nodes (a
// partial last rack counted), and the racks one diagram unit spans,
// where unitsPerSU names racks; 0, 0 otherwise.
func planRacks(p *planner.Plan) (racks, perUnit int) {
	sys := p.System
	if unitsPerSU(p) == 0 || sys == nil || sys.RackNodes <= 0 || p.ServersPerUnit%sys.RackNodes != 0 {
		return 0, 0
	}
	return (p.Servers + sys.RackNodes - 1) / sys.RackNodes, p.ServersPerUnit / sys.RackNodes
}

func podWord(p *planner.Plan) string {
	switch {
	case p.Tiers == 3:
		return "pod"
	case p.RailNetworks() > 1 && p.Tiers > 1:
		return "rail network" // rail-only past one tier: rail 1's network drawn
	case p.Planes > 1:
		return "plane"
	}
	return "fabric"
}

// podKinds describes the pod runs when they differ (a partial last pod).
func (d *topoDiagram) podKinds() string {
	if len(d.pods) == 1 {
		r := d.pods[0]
		return fmt.Sprintf("each %d leaves, %d spines", r.Leaves, r.Spines)
	}
	var parts []string
	for _, r := range d.pods {
		parts = append(parts, fmt.Sprintf("%d × (%d leaves, %d spines)", r.Count, r.Leaves, r.Spines))
	}
	return "pods: " + strings.Join(parts, ", ")
}

// railColour is rail i's colour: the palette without its yellow and
// black, which read badly as box fills.
func railColour(i int) color.Color {
	rails := []color.Color{Palette[0], Palette[1], Palette[2], Palette[3], Palette[4], Palette[5]}
	c := rails[i%len(rails)]
	if i/len(rails)%2 == 1 { // a second round: darker
		r, g, b, _ := c.RGBA()
		return color.RGBA{uint8(r >> 9), uint8(g >> 9), uint8(b >> 9), 0xff}
	}
	return c
}

// textOn is black or white, whichever reads on fill.
func textOn(fill color.Color) color.Color {
	r, g, b, _ := fill.RGBA()
	if 299*r+587*g+114*b > 600*0xffff {
		return Ink
	}
	return color.White
}

// fitBoxes says how many boxes to draw for n switches in a row that
// holds at most max: all, or max-1 with an ellipsis before the last.
func fitBoxes(n, max int) (shown int, more bool) {
	if n <= max {
		return n, false
	}
	return max - 1, true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// spread returns n centres evenly across [a, b].
func spread(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*(float64(i)+0.5)/float64(n)
	}
	return out
}

func box(c draw.Canvas, lo, hi vg.Point, fill color.Color) {
	r := vg.Rectangle{Min: lo, Max: hi}
	c.SetColor(fill)
	c.Fill(r.Path())
	c.SetLineStyle(draw.LineStyle{Color: Ink, Width: vg.Points(0.6)})
	c.Stroke(r.Path())
}

// stackOffset is how far each of a stack's two shadows is set up and
// right of the one before.
const stackOffset = vg.Length(4)

// stack is a box with two shadows behind it: several alike, summarised.
func stack(c draw.Canvas, lo, hi vg.Point) {
	off := stackOffset
	fill := color.RGBA{0xf4, 0xf4, 0xf4, 0xff}
	for k := 2; k >= 0; k-- {
		d := off * vg.Length(k)
		box(c, vg.Point{X: lo.X + d, Y: lo.Y + d}, vg.Point{X: hi.X + d, Y: hi.Y + d}, fill)
	}
}

func frame(c draw.Canvas, lo, hi vg.Point) {
	r := vg.Rectangle{Min: lo, Max: hi}
	c.SetLineStyle(draw.LineStyle{Color: Grey, Width: vg.Points(0.8), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}})
	c.Stroke(r.Path())
}

func line(c draw.Canvas, a, b vg.Point, col color.Color, width float64) {
	c.StrokeLine2(draw.LineStyle{Color: col, Width: vg.Points(width)}, a.X, a.Y, b.X, b.Y)
}

func text(c draw.Canvas, pt vg.Point, s string, size vg.Length, bold bool, col color.Color, align draw.XAlignment) {
	sty := textStyle(size, bold)
	sty.Color = col
	sty.XAlign, sty.YAlign = align, draw.YCenter
	c.FillText(sty, pt, s)
}

// fitted writes s centred at pt in a box w wide and h high: on one line
// at size if it fits, else a little smaller (down to 80%), else wrapped
// over lines at that size while they fit the height, else cut with an
// ellipsis.
func fitted(c draw.Canvas, pt vg.Point, s string, size vg.Length, bold bool, col color.Color, align draw.XAlignment, w, h vg.Length) {
	smallest := size * 0.8
	for sz := size; sz >= smallest-1e-9; sz -= size * 0.05 {
		if textStyle(sz, bold).Width(s) <= w {
			text(c, pt, s, sz, bold, col, align)
			return
		}
	}
	// Wrapped, a little smaller again (to 60%) while the lines are too
	// many for the height; cut with an ellipsis only below that.
	var lines []string
	var sty draw.TextStyle
	for sz := smallest; sz >= size*0.6-1e-9; sz -= size * 0.05 {
		sty = textStyle(sz, bold)
		lines = wrapToWidth(s, w, sty)
		if vg.Length(len(lines))*sty.Height("Xg") <= h {
			break
		}
	}
	lh := sty.Height("Xg")
	if vg.Length(len(lines))*lh > h {
		lines = []string{ellipsize(s, w, sty)}
	}
	y := pt.Y + lh*vg.Length(len(lines)-1)/2
	for _, l := range lines {
		text(c, vg.Point{X: pt.X, Y: y}, ellipsize(l, w, sty), sty.Font.Size, bold, col, align)
		y -= lh
	}
}

// tag writes a label on a white ground so it reads over lines: link
// bundles, the pod frame's name.
func tag(c draw.Canvas, pt vg.Point, s string, col color.Color, align draw.XAlignment) {
	sty := textStyle(tickSize, false)
	w, h := sty.Width(s), sty.Height(s)
	x0 := pt.X + vg.Length(align)*w // align: 0 left, -0.5 centre, -1 right
	r := vg.Rectangle{Min: vg.Point{X: x0 - vg.Points(3), Y: pt.Y - h/2 - vg.Points(1)}, Max: vg.Point{X: x0 + w + vg.Points(3), Y: pt.Y + h/2 + vg.Points(1)}}
	c.SetColor(color.White)
	c.Fill(r.Path())
	text(c, pt, s, tickSize, false, col, align)
}
