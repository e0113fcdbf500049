package charts

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// Rack colours: compute racks shade from light to dark blue with their
// peak power against the budget; over budget is red.
var (
	rackLight  = color.RGBA{0xd6, 0xe6, 0xf5, 0xff}
	rackDark   = color.RGBA{0x21, 0x66, 0xac, 0xff}
	rackOver   = color.RGBA{0xd6, 0x27, 0x28, 0xff}
	rackLeaf   = color.RGBA{0xfd, 0xae, 0x61, 0xff}
	rackSpine  = color.RGBA{0x1a, 0x98, 0x50, 0xff}
	rackCore   = color.RGBA{0x76, 0x2a, 0x83, 0xff}
	rackNVLink = color.RGBA{0x99, 0x99, 0x99, 0xff}
)

// needHall reports a plan without a data-hall layout.
func needHall(in Input, chart string) (*hall.Hall, error) {
	if in.Plan == nil || in.Plan.Hall == nil {
		return nil, fmt.Errorf("%w: the %s chart needs a data-hall layout: add a [facility] table to the scenario (or --facility on)", ErrMissingInput, chart)
	}
	return in.Plan.Hall, nil
}

// rackColour is a rack's fill on the floor plan.
func rackColour(r hall.Rack, budget float64) color.Color {
	switch r.Kind {
	case hall.RackLeaf:
		return rackLeaf
	case hall.RackSpine:
		return rackSpine
	case hall.RackCore:
		return rackCore
	}
	if r.PeakKW > budget+1e-9 {
		return rackOver
	}
	return blend(rackLight, rackDark, r.PeakKW/budget)
}

func blend(a, b color.RGBA, t float64) color.Color {
	t = max(0, min(1, t))
	mix := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xff}
}

// FloorPlan draws the data hall from above: every rack in its row,
// compute racks shaded by peak power against the rack budget (red: over
// it), leaf, spine and core racks in their own colours.
func FloorPlan(in Input) (*Figure, error) {
	h, err := needHall(in, "floor plan")
	if err != nil {
		return nil, err
	}
	f := h.Figures
	pl := plot.New()
	pl.HideAxes()
	pl.Title.Text = fmt.Sprintf("Data hall: %s racks in %s rows, %.0f m × %.0f m (%s m²)", textfmt.Int(f.Racks), textfmt.Int(f.Rows),
		h.WidthM, h.LengthM, textfmt.Int(int(h.AreaM2+0.5)))
	pl.Title.TextStyle.Font = sans
	pl.Title.TextStyle.Font.Size = titleSize
	pl.Title.TextStyle.Color = Ink
	pl.Title.Padding = vg.Points(8)
	fp := &floorPlan{h: h}
	if in.Tier != "" {
		if fp.runs, err = newFloorRuns(in.Plan, in.Tier); err != nil {
			return nil, err
		}
		pl.Title.Text += ", " + strings.ReplaceAll(fp.runs.tier, "_", "-") + " runs"
	}
	pl.Add(fp)
	kinds := []string{hall.RackCompute, hall.RackLeaf, hall.RackSpine, hall.RackCore}
	s := Series{Name: "racks"}
	for _, k := range kinds {
		s.Labels = append(s.Labels, k)
		s.Values = append(s.Values, float64(f.RacksByKind[k]))
	}
	s.Labels = append(s.Labels, "over budget")
	s.Values = append(s.Values, float64(f.RacksOverBudget))
	note := fmt.Sprintf("Compute racks shaded by peak power against the %g kW rack budget (darker: nearer it; red: over it). %s; hungriest rack %.1f kW peak, %.1f kW typical.",
		f.RackKWBudget, overWords(f), f.RackKWMax, f.RackKWTypicalMax)
	note += fmt.Sprintf(" Racks %g m × %g m, cold aisles %g m, hot %g m (data/facility.toml).", h.Facility.RackWidthM, h.Facility.RackDepthM, h.Facility.ColdAisleM, h.Facility.HotAisleM)
	data := []Series{s}
	if r := fp.runs; r != nil {
		note += fmt.Sprintf(" Lines: the %s links, one line per pair of racks they join (%s links in %s pairs), drawn along the row then across the rows as the trays run; a ring marks links inside one rack.",
			strings.ReplaceAll(r.tier, "_", "-"), textfmt.Int(r.links), textfmt.Int(len(r.pairs)))
		var labels []string
		var links []float64
		for _, pr := range r.pairs {
			labels = append(labels, h.Racks[pr.A].Name+"–"+h.Racks[pr.B].Name)
			links = append(links, float64(pr.Links))
		}
		data = append(data, Series{Name: r.tier + " links per rack pair", Labels: labels, Values: links})
	}
	if in.Rack != "" {
		if fp.sel, err = newRackSelection(in); err != nil {
			return nil, err
		}
		pl.Title.Text += ", rack " + in.Rack
		note += fp.sel.note(h)
		data = append(data, fp.sel.series(h))
	}
	return &Figure{Name: "floorplan", Panels: [][]*plot.Plot{{pl}}, Footnote: note, Data: data}, nil
}

func overWords(f hall.Figures) string {
	if f.RacksOverBudget == 0 {
		return "No rack over budget"
	}
	return textfmt.Plural(f.RacksOverBudget, "rack") + " over budget"
}

// floorPlan is the hall as a plotter on a unit square, with a link
// tier's runs over it when runs is set.
type floorPlan struct {
	h    *hall.Hall
	runs *floorRuns
	sel  *rackSelection // the selected rack, nil for none
}

func (d *floorPlan) DataRange() (xmin, xmax, ymin, ymax float64) { return 0, 1, 0, 1 }

// Plot draws the racks to scale, the hall's length downward, with a
// legend below.
func (d *floorPlan) Plot(c draw.Canvas, _ *plot.Plot) {
	h := d.h
	legendH := vg.Points(22)
	if d.runs != nil {
		legendH += vg.Points(14)
	}
	W, H := c.Max.X-c.Min.X, c.Max.Y-c.Min.Y-legendH
	scale := min(W/vg.Length(h.WidthM), H/vg.Length(h.LengthM))
	x0 := c.Min.X + (W-scale*vg.Length(h.WidthM))/2
	y0 := c.Max.Y - (H-scale*vg.Length(h.LengthM))/2 // the hall's front edge, top of the canvas
	rw, rd := scale*vg.Length(h.Facility.RackWidthM), scale*vg.Length(h.Facility.RackDepthM)
	outline := vg.Rectangle{Min: vg.Point{X: x0, Y: y0 - scale*vg.Length(h.LengthM)}, Max: vg.Point{X: x0 + scale*vg.Length(h.WidthM), Y: y0}}
	c.SetLineStyle(draw.LineStyle{Color: Grey, Width: vg.Points(0.6)})
	c.Stroke(outline.Path())
	at := func(r hall.Rack) vg.Point {
		return vg.Point{X: x0 + scale*vg.Length(r.X), Y: y0 - scale*vg.Length(r.Y)}
	}
	fillRacks(c, h, at, rw, rd)
	if d.runs != nil {
		d.runs.draw(c, at, h, rw)
	}
	if d.sel != nil {
		d.sel.draw(c, at, h, rw, rd)
	}
	// Row names where there is room: every row, or every n-th.
	sty := textStyle(tickSize, false)
	if step := rowLabelStep(len(h.Rows), rd, sty.Height("R")); step > 0 {
		for i, row := range h.Rows {
			if i%step != 0 || row.X > h.Rows[0].X+1e-9 {
				continue // rows of the first block only: the others' left is the block before
			}
			// In the aisle left of the row when it fits there, else left
			// of the hall's outline, never across it.
			name := fmt.Sprintf("R%d", i+1)
			pt := vg.Point{X: x0 + scale*vg.Length(row.X) - vg.Points(2), Y: y0 - scale*vg.Length(row.Y)}
			if pt.X-sty.Width(name) < outline.Min.X+vg.Points(1) {
				pt.X = outline.Min.X - vg.Points(2)
			}
			if pt.X-sty.Width(name) < c.Min.X {
				continue
			}
			text(c, pt, fmt.Sprintf("R%d", i+1), tickSize, false, Ink, draw.XRight)
		}
	}
	d.legend(c)
}

// rowLabelStep is how many rows one name covers so names do not
// overlap; 0 when rows are too thin to name.
func rowLabelStep(rows int, rowH, textH vg.Length) int {
	if rowH <= 0 || rows == 0 {
		return 0
	}
	step := 1
	for vg.Length(step)*rowH*1.6 < textH*1.2 {
		step *= 2
		if step > rows {
			return 0
		}
	}
	return step
}

func (d *floorPlan) legend(c draw.Canvas) {
	items := []struct {
		col  color.Color
		name string
	}{{rackLight, "compute, light load"}, {rackDark, "compute, at budget"}, {rackOver, "over budget"}, {rackLeaf, "leaf"}, {rackSpine, "spine"}, {rackCore, "core"}}
	sty := textStyle(tickSize, false)
	total := vg.Length(0)
	for _, it := range items {
		total += vg.Points(14) + sty.Width(it.name) + vg.Points(12)
	}
	x := c.Min.X + (c.Max.X-c.Min.X-total)/2
	y := c.Min.Y + vg.Points(8)
	if r := d.runs; r != nil {
		words := r.legendWords()
		lx := c.Min.X + (c.Max.X-c.Min.X-sty.Width(words)-vg.Points(30))/2
		ly := y + vg.Points(14)
		for k, w := range []vg.Length{vg.Points(runWidths[0]), vg.Points(runWidths[len(runWidths)-1])} {
			xk := lx + vg.Length(k)*vg.Points(13)
			c.StrokeLine2(draw.LineStyle{Color: runColour[r.tier], Width: w}, xk, ly-vg.Points(5), xk+vg.Points(10), ly+vg.Points(5))
		}
		text(c, vg.Point{X: lx + vg.Points(30), Y: ly}, words, tickSize, false, Ink, draw.XLeft)
	}
	for _, it := range items {
		box(c, vg.Point{X: x, Y: y - vg.Points(5)}, vg.Point{X: x + vg.Points(10), Y: y + vg.Points(5)}, it.col)
		text(c, vg.Point{X: x + vg.Points(14), Y: y}, it.name, tickSize, false, Ink, draw.XLeft)
		x += vg.Points(14) + sty.Width(it.name) + vg.Points(12)
	}
}

// Racks draws two rack elevations side by side: the hungriest compute
// rack and the first network rack (leaf, else spine), every device at
// its units, the reserved units at the top.
func Racks(in Input) (*Figure, error) {
	h, err := needHall(in, "rack elevation")
	if err != nil {
		return nil, err
	}
	p := in.Plan
	comp, netw := -1, -1
	for i, r := range h.Racks {
		switch {
		case r.Kind == hall.RackCompute && (comp < 0 || r.PeakKW > h.Racks[comp].PeakKW):
			comp = i
		case r.Kind != hall.RackCompute && (netw < 0 || h.Racks[netw].Kind != hall.RackLeaf && r.Kind == hall.RackLeaf):
			netw = i
		}
	}
	var row []*plot.Plot
	var data []Series
	for _, i := range []int{comp, netw} {
		if i < 0 {
			continue
		}
		r := h.Racks[i]
		pl := plot.New()
		pl.HideAxes()
		pl.Title.Text = fmt.Sprintf("%s rack %s: %.1f kW peak, %.1f typical, %s-cooled", upperFirst(r.Kind), r.Name, r.PeakKW, r.TypicalKW, r.Cooling)
		pl.Title.TextStyle.Font = sans
		pl.Title.TextStyle.Font.Size = labelSize
		pl.Title.TextStyle.Color = Ink
		slots := p.Elevation(i)
		pl.Add(&elevation{units: h.Facility.RackUnits, slots: slots})
		row = append(row, pl)
		s := Series{Name: r.Name}
		for _, sl := range slots {
			s.Labels = append(s.Labels, sl.Label)
			s.Values = append(s.Values, float64(sl.U))
		}
		data = append(data, s)
	}
	note := fmt.Sprintf("%dU racks, %dU reserved at the top; a compute rack holds %s within the %g kW budget and the free units.",
		h.Facility.RackUnits, h.Facility.ReservedUnits, textfmt.Plural(h.Figures.NodesPerRack, "node"), h.Facility.RackKW)
	if sys := p.System; sys != nil && sys.RackScale() {
		note = fmt.Sprintf("%dU racks, %dU reserved at the top; each %s fills its own rack: %s and %d NVLink switch trays (tray order an estimate: half the trays below the switch trays).",
			h.Facility.RackUnits, h.Facility.ReservedUnits, sys.Name, textfmt.Plural(sys.Nodes, "compute tray"), sys.SwitchTrays)
	}
	return &Figure{Name: "racks", Panels: [][]*plot.Plot{row}, Footnote: note, Data: data}, nil
}

// frameWidth is the rack's offset from the canvas's left and its width.
// The unit numbers need a little room on the left; labels of devices too
// thin for their own go on the right, so the rack leans left, and narrows
// (to no less than half) so the widest of them fits beside it.
func (e *elevation) frameWidth(c draw.Canvas, sty draw.TextStyle, uh vg.Length) (left, w vg.Length) {
	w = min(c.Max.X-c.Min.X-vg.Points(150), uh*vg.Length(e.units)*0.6)
	left = min((c.Max.X-c.Min.X-w)/2, vg.Points(36))
	if side, inside := e.labelWidths(sty, uh); side > 0 {
		// Not so narrow that a label which fitted inside no longer does.
		w = max(min(w, c.Max.X-c.Min.X-left-side-vg.Points(8)), min(w, inside+vg.Points(6)), w/2)
	}
	return left, w
}

// labelWidths are the width of the widest label of a device too thin to
// hold it (so drawn beside the rack), at its shortest form (before a
// colon), and of the widest label a device tall enough holds; side is 0
// when every device holds its own.
func (e *elevation) labelWidths(sty draw.TextStyle, uh vg.Length) (side, inside vg.Length) {
	for _, s := range e.slots {
		if sty.Height(s.Label) <= uh*vg.Length(s.Units)-vg.Points(3) {
			inside = max(inside, sty.Width(s.Label))
			continue
		}
		label, _, _ := strings.Cut(s.Label, ":")
		side = max(side, sty.Width(runLabel(label, []hall.RackSlot{s})))
	}
	return side, inside
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// elevation is one rack's front view on a unit square.
type elevation struct {
	units int
	slots []hall.RackSlot
}

func (e *elevation) DataRange() (xmin, xmax, ymin, ymax float64) { return 0, 1, 0, 1 }

func (e *elevation) Plot(c draw.Canvas, _ *plot.Plot) {
	H := c.Max.Y - c.Min.Y - vg.Points(8)
	uh := H / vg.Length(e.units)
	sty := textStyle(tickSize, false)
	left, w := e.frameWidth(c, sty, uh)
	x0 := c.Min.X + left
	y0 := c.Min.Y + vg.Points(4)
	frame := vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x0 + w, Y: y0 + uh*vg.Length(e.units)}}
	c.SetColor(color.RGBA{0xf6, 0xf6, 0xf6, 0xff})
	c.Fill(frame.Path())
	for u := 5; u <= e.units; u += 5 {
		y := y0 + uh*(vg.Length(u)-0.5)
		text(c, vg.Point{X: x0 - vg.Points(4), Y: y}, fmt.Sprintf("U%d", u), tickSize, false, Grey, draw.XRight)
	}
	for i := 0; i < len(e.slots); {
		s := e.slots[i]
		run := 1 // alike devices in a row: one label when each is too thin for its own
		stem, _ := numbered(s.Label)
		for i+run < len(e.slots) && e.slots[i+run].Kind == s.Kind && sameStem(e.slots[i+run].Label, stem) &&
			touching(e.slots[i+run-1], e.slots[i+run]) {
			run++
		}
		fill := map[string]color.Color{"node": rackDark, "nvlink": rackNVLink, "switch": rackLeaf, "reserved": color.RGBA{0xdd, 0xdd, 0xdd, 0xff}}[s.Kind]
		tall := sty.Height(s.Label) <= uh*vg.Length(s.Units)-vg.Points(3)
		label := s.Label
		if short, _, cut := strings.Cut(label, ":"); cut && (!tall || sty.Width(label) > w-vg.Points(6)) {
			label = short // "reserved: patch, mgmt" as "reserved" in a narrow rack, or beside it
		}
		fits := tall && sty.Width(label) <= w-vg.Points(6)
		lowY, highY := vg.Length(math.Inf(1)), vg.Length(math.Inf(-1))
		for _, d := range e.slots[i : i+run] {
			lo := vg.Point{X: x0 + vg.Points(2), Y: y0 + uh*vg.Length(d.U-1) + vg.Points(0.5)}
			hi := vg.Point{X: x0 + w - vg.Points(2), Y: y0 + uh*vg.Length(d.U-1+d.Units) - vg.Points(0.5)}
			lowY, highY = min(lowY, lo.Y), max(highY, hi.Y)
			box(c, lo, hi, fill)
			if fits {
				text(c, vg.Point{X: (lo.X + hi.X) / 2, Y: (lo.Y + hi.Y) / 2}, strings.Replace(d.Label, s.Label, label, 1), tickSize, false, textOn(fill), draw.XCenter)
			}
		}
		if !fits {
			at := vg.Point{X: x0 + w + vg.Points(4), Y: (lowY + highY) / 2}
			text(c, at, besideLabel(runLabel(label, e.slots[i:i+run]), sty, c.Max.X-at.X), tickSize, false, Ink, draw.XLeft)
		}
		i += run
	}
	c.SetLineStyle(draw.LineStyle{Color: Ink, Width: vg.Points(1)})
	c.Stroke(frame.Path())
}

// besideLabel fits a label beside the rack into room: without its
// parenthesis first ("leaf (ToR)" as "leaf": the rack says where it
// stands), then cut with an ellipsis.
func besideLabel(label string, sty draw.TextStyle, room vg.Length) string {
	if short, _, cut := strings.Cut(label, " ("); cut && sty.Width(label) > room {
		label = short
	}
	return clipToWidth(label, sty, room)
}

// numbered splits a slot label such as "compute tray 7" into its stem
// ("compute tray") and number; ok is false for a label without one.
func numbered(label string) (stem string, ok bool) {
	i := strings.LastIndexByte(label, ' ')
	if i <= 0 {
		return label, false
	}
	if _, err := strconv.Atoi(label[i+1:]); err != nil {
		return label, false
	}
	return label[:i], true
}

// sameStem says whether label is stem itself or stem with a number, so
// "compute tray 1" to "compute tray 18" share one label beside the rack
// when each is too thin for its own.
func sameStem(label, stem string) bool {
	s, _ := numbered(label)
	return s == stem
}

// touching says whether two slots stand next to each other in the rack,
// so one label beside them names no device between them.
func touching(a, b hall.RackSlot) bool {
	return a.U+a.Units == b.U || b.U+b.Units == a.U
}

// runLabel is the one label beside the rack for a run of alike slots:
// the label itself for one, "compute tray 1–18" for numbered ones, and
// "16 × leaf" for unnumbered ones (label may be a shortened form).
func runLabel(label string, run []hall.RackSlot) string {
	if len(run) == 1 {
		return label
	}
	stem, ok := numbered(run[0].Label)
	_, lastOK := numbered(run[len(run)-1].Label)
	if ok && lastOK {
		_, first, _ := strings.Cut(run[0].Label, stem+" ")
		_, last, _ := strings.Cut(run[len(run)-1].Label, stem+" ")
		return fmt.Sprintf("%s %s–%s", stem, first, last)
	}
	return fmt.Sprintf("%d × %s", len(run), label)
}

// clipToWidth shortens s with an ellipsis until it fits room in sty, so a
// label beside a rack never leaves the page.
func clipToWidth(s string, sty draw.TextStyle, room vg.Length) string {
	if sty.Width(s) <= room {
		return s
	}
	r := []rune(s)
	for len(r) > 1 && sty.Width(string(r)+"…") > room {
		r = r[:len(r)-1]
	}
	return strings.TrimSpace(string(r)) + "…"
}

// mediumShort names each medium in a panel's legend, short enough for
// three panels side by side (the footnote spells them out).
var mediumShort = map[planner.Medium]string{planner.DAC: "DAC", planner.ACC: "ACC", planner.AOC: "AOC",
	planner.Multimode: "MM optics", planner.Optics: "SM optics"}

// mediumOrder is the media in the histogram's stacking order.
var mediumOrder = []planner.Medium{planner.DAC, planner.ACC, planner.AOC, planner.Multimode, planner.Optics}

// soldLengths is the standard lengths the runs are sold at, shortest
// first, with their axis labels.
func soldLengths(runs []planner.LinkRun) ([]float64, []string) {
	var lengths []float64
	for _, r := range runs {
		if !slices.Contains(lengths, r.Metres) {
			lengths = append(lengths, r.Metres)
		}
	}
	slices.Sort(lengths)
	labels := make([]string, len(lengths))
	for i, l := range lengths {
		labels[i] = fmt.Sprintf("%g", l)
	}
	return lengths, labels
}

// CableLengths draws, per link tier, how many links are sold at each
// standard length, stacked by medium.
func CableLengths(in Input) (*Figure, error) {
	h, err := needHall(in, "cable length")
	if err != nil {
		return nil, err
	}
	p := in.Plan
	var row []*plot.Plot
	var data []Series
	for _, t := range p.LinkTiers {
		lengths, labels := soldLengths(t.Runs)
		pl := newPlot(strings.ReplaceAll(t.Name, "_", "-")+" links", "length sold (m)", "links")
		pl.Y.Tick.Marker = countTicks{}
		var below *plotter.BarChart
		top := 0.0
		totals := make([]float64, len(lengths))
		for mi, m := range mediumOrder {
			vals := make(plotter.Values, len(lengths))
			any := false
			for _, r := range t.Runs {
				if r.Medium == m {
					i := slices.Index(lengths, r.Metres)
					vals[i] += float64(r.Links)
					any = true
				}
			}
			if !any {
				continue
			}
			bc, err := plotter.NewBarChart(vals, vg.Points(14))
			if err != nil {
				return nil, err
			}
			bc.Color, bc.LineStyle.Width = colour(mi), 0
			if below != nil {
				bc.StackOn(below)
			}
			below = bc
			pl.Add(bc)
			pl.Legend.Add(mediumShort[m], bc)
			for i, v := range vals {
				totals[i] += v
			}
			data = append(data, Series{Name: t.Name + " " + string(m), Labels: labels, Values: vals})
		}
		for _, v := range totals {
			top = max(top, v)
		}
		pl.Legend.Top, pl.Legend.Left = true, true
		headroom(pl, top, 2)
		nominal(pl, labels...)
		row = append(row, pl)
	}
	if len(row) == 0 {
		return nil, fmt.Errorf("%w: the plan has no links", ErrMissingInput)
	}
	var long []string
	for _, l := range h.Figures.Longest {
		long = append(long, fmt.Sprintf("%s %g m on %s (reach %d m)", strings.ReplaceAll(l.Tier, "_", "-"), l.Metres, strings.ToLower(planner.Medium(l.Medium).Label()), l.ReachM))
	}
	note := "MM optics: multimode fibre and transceivers; SM optics: single-mode. Each link takes the cheapest medium that reaches the longest run between its two racks; lengths round up to the lengths parts are sold in (data/catalog.toml). Longest: " + strings.Join(long, "; ") + "."
	return &Figure{Name: "cablelengths", Panels: [][]*plot.Plot{row}, Footnote: note, Data: data}, nil
}
