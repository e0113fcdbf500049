package charts

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"sort"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// ReportPageSize is US Letter, landscape.
var reportW, reportH = 11 * vg.Inch, 8.5 * vg.Inch

// WriteReport writes a multi-page PDF: a one-page executive summary (the
// answer, cost with its range, the JCT gain, what drives cost), every
// chart the input can draw, the bill of materials with part names and
// cost tables, the inputs and what the network adds, and the sources of
// the data and prices.
// progress, if not nil, is called after each page with pages done and the
// total.
func WriteReport(w io.Writer, in Input, cat *planner.Catalog, progress func(done, total int)) (err error) {
	if err := needPlan(in, "report"); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("draw report: %v", r)
		}
	}()
	var figs []*Figure
	for _, c := range All() {
		f, err := c.Build(in)
		if err != nil {
			continue // charts whose input is missing are left out of the report
		}
		figs = append(figs, f)
	}
	// The summary's page index comes from the pages as laid out: lay the
	// report out on a canvas that draws nothing until the index it is
	// given is the one it finds (the index's own length can move a note
	// to the next page), then draw it.
	idx := reportIndex{}
	text := newTextMeasures()
	for range maxLayoutPasses {
		got := layOutReport(&pager{c: blankPages{}, text: text}, in, cat, figs, idx, nil)
		if got == idx {
			break
		}
		idx = got
	}
	pc, err := newPDFCanvas(reportW, reportH)
	if err != nil {
		return err
	}
	pg := &pager{c: pc, text: text}
	drawn := layOutReport(pg, in, cat, figs, idx, func() {
		if progress != nil {
			progress(pg.pages, max(idx.total, pg.pages))
		}
	})
	if drawn != idx {
		// The dry runs did not settle: the summary's index would name
		// pages the report does not have. Refuse rather than mislead.
		return fmt.Errorf("report: the page index did not settle in %d layouts (it says %+v, the pages are %+v)", maxLayoutPasses, idx, drawn)
	}
	_, err = pc.WriteTo(w)
	return err
}

// maxLayoutPasses bounds the dry runs that settle the page index: the
// first finds the pages, the second checks them; a third covers an index
// whose new length moved a line. A variable so that a test can starve
// the settling and see the report refuse.
var maxLayoutPasses = 3

// reportIndex is where each part of the report starts and ends (1-based
// pages; zero where the part is absent).
type reportIndex struct {
	notes, charts, bom, inputs, sources pageSpan
	total                               int
}

// pageSpan is a part's first and last page.
type pageSpan struct{ first, last int }

// text is "page 5" or "pages 5 to 7".
func (s pageSpan) text() string {
	if s.last <= s.first {
		return fmt.Sprintf("page %d", s.first)
	}
	return fmt.Sprintf("pages %d to %d", s.first, s.last)
}

// layOutReport lays the whole report out on pg, the summary's index
// reading idx, and returns the index of the pages as laid out. done, if
// not nil, is called after each page.
func layOutReport(pg *pager, in Input, cat *planner.Catalog, figs []*Figure, idx reportIndex, done func()) reportIndex {
	if done == nil {
		done = func() {}
	}
	var got reportIndex
	section := func(span *pageSpan, draw func()) {
		pg.newPage()
		span.first = pg.pages
		draw()
		span.last = pg.pages
		done()
	}
	pg.start()
	rest := summaryPage(pg, in, len(figs), idx)
	done()
	if len(rest) > 0 {
		section(&got.notes, func() { notesPage(pg, rest) })
	}
	got.charts.first = pg.pages + 1
	for _, f := range figs {
		pg.newPage()
		if _, dry := pg.c.(blankPages); !dry { // a chart fills its one page
			dc := draw.New(pg.c)
			dc.Max.Y -= vg.Points(10)
			dc.Min.Y += vg.Points(26) // keep clear of the page footer
			f.Draw(dc)
		}
		done()
	}
	got.charts.last = pg.pages
	section(&got.bom, func() { bomPage(pg, in.Plan) })
	section(&got.inputs, func() { assumptionsPage(pg, in) })
	section(&got.sources, func() { sourcesPage(pg, in, cat) })
	pg.footer()
	got.total = pg.pages
	return got
}

// pager writes text top-down on report pages and starts a new page when
// one fills up.
type pager struct {
	c     pageCanvas
	y     vg.Length
	pages int
	text  *textMeasures // shared by every layout of one report (nil: none kept)
}

// pageCanvas is a canvas of report pages: the PDF, or blankPages.
type pageCanvas interface {
	vg.CanvasSizer
	NextPage()
}

// blankPages is a pageCanvas that draws nothing: the report is laid out
// on it to find which page each part lands on.
type blankPages struct{}

func (blankPages) SetLineWidth(vg.Length)                 {}
func (blankPages) SetLineDash([]vg.Length, vg.Length)     {}
func (blankPages) SetColor(color.Color)                   {}
func (blankPages) Rotate(float64)                         {}
func (blankPages) Translate(vg.Point)                     {}
func (blankPages) Scale(float64, float64)                 {}
func (blankPages) Push()                                  {}
func (blankPages) Pop()                                   {}
func (blankPages) Stroke(vg.Path)                         {}
func (blankPages) Fill(vg.Path)                           {}
func (blankPages) FillString(font.Face, vg.Point, string) {}
func (blankPages) DrawImage(vg.Rectangle, image.Image)    {}
func (blankPages) Size() (w, h vg.Length)                 { return reportW, reportH }
func (blankPages) NextPage()                              {}

const margin = 0.6 * vg.Inch

func (pg *pager) start() {
	pg.pages = 1
	pg.y = reportH - margin
	pg.background()
}

func (pg *pager) background() {
	dc := draw.New(pg.c)
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
}

func (pg *pager) newPage() {
	pg.footer()
	pg.c.NextPage()
	pg.pages++
	pg.y = reportH - margin
	pg.background()
}

func (pg *pager) footer() {
	sty := textStyle(9, false)
	sty.Color = Grey
	dc := draw.New(pg.c)
	dc.FillText(sty, vg.Point{X: margin, Y: vg.Points(18)},
		fmt.Sprintf("Fabric Planner report, page %d. Prices, power and job times are estimates; sources on the last page.", pg.pages))
}

func textStyle(size vg.Length, bold bool) draw.TextStyle {
	sty := draw.TextStyle{Color: Ink, Font: sans, Handler: plot.DefaultTextHandler}
	if bold {
		sty.Font.Weight = xfont.WeightBold
	}
	sty.Font.Size = size
	return sty
}

// line writes one line of text at x and moves down.
func (pg *pager) line(text string, size vg.Length, bold bool) {
	pg.room(size * 1.5)
	sty := textStyle(size, bold)
	dc := draw.New(pg.c)
	dc.FillText(sty, vg.Point{X: margin, Y: pg.y - size}, text)
	pg.y -= size * 1.45
}

func (pg *pager) gap(h vg.Length) { pg.y -= h }

// room starts a new page when less than h is left.
func (pg *pager) room(h vg.Length) {
	if pg.y-h < margin {
		pg.newPage()
	}
}

// table writes rows in columns; widths in points, right-aligns columns
// whose index is in right.
func (pg *pager) table(header []string, rows [][]string, widths []vg.Length, right map[int]bool) {
	pg.tableAt(9.5, header, rows, widths, right)
}

// tableAt is table in size-point type.
func (pg *pager) tableAt(size vg.Length, header []string, rows [][]string, widths []vg.Length, right map[int]bool) {
	pg.wrappedTable(size, header, rows, widths, right, nil)
}

// wrappedTable is tableAt whose cells in the columns of wrap that are too
// long for their column wrap onto more lines of their row (so a part
// name and its part number are never cut); other cells are shortened to
// fit.
func (pg *pager) wrappedTable(size vg.Length, header []string, rows [][]string, widths []vg.Length, right, wrap map[int]bool) {
	lineH := size * 1.3
	write := func(cells []string, bold bool) {
		sty := textStyle(size, bold)
		lines := make([][]string, len(cells))
		styles := make([]draw.TextStyle, len(cells))
		n := 1
		for i, cell := range cells {
			styles[i] = sty
			if !wrap[i] {
				lines[i] = []string{pg.fit(cell, widths[i], sty)}
				continue
			}
			// A little smaller type first (to 85%), then more lines.
			for k := 1.0; k >= 0.85-1e-9; k -= 0.05 {
				styles[i] = textStyle(size*vg.Length(k), bold)
				if pg.text.width(cell, styles[i]) <= widths[i]-vg.Points(10) {
					break
				}
			}
			for _, l := range pg.text.wrap(cell, widths[i]-vg.Points(10), styles[i]) {
				lines[i] = append(lines[i], pg.fit(l, widths[i], styles[i]))
			}
			n = max(n, len(lines[i]))
		}
		pg.room(size*1.6 + lineH*vg.Length(n-1))
		dc := draw.New(pg.c)
		x := margin
		for i, cellLines := range lines {
			cs := styles[i]
			for k, l := range cellLines {
				at := vg.Point{X: x, Y: pg.y - size - lineH*vg.Length(k)}
				if right[i] {
					cs.XAlign = draw.XRight
					at.X = x + widths[i] - vg.Points(8)
				}
				dc.FillText(cs, at, l)
			}
			x += widths[i]
		}
		pg.y -= size*1.55 + lineH*vg.Length(n-1)
	}
	if header != nil {
		write(header, true)
	}
	for _, r := range rows {
		write(r, false)
	}
}

// fit shortens text with "..." to fit width.
func (pg *pager) fit(s string, width vg.Length, sty draw.TextStyle) string {
	for len(s) > 3 && pg.text.width(s, sty) > width-vg.Points(10) {
		s = s[:len(s)-4] + "..."
	}
	return s
}

// summaryPage is the report's first page: what a reader who stops there
// needs to know, in sentences, with every figure labelled an estimate,
// and the index of the pages after it (idx). It keeps to its one page:
// the notes that do not fit before the index are returned, for a page
// of their own.
func summaryPage(pg *pager, in Input, charts int, idx reportIndex) (rest []string) {
	// Notes move to a page of their own first; only when what is left
	// still does not fit does the type get smaller, a step at a time.
	k := vg.Length(1)
	for k > summaryMinScale && !summaryFits(pg, in, charts, idx, k) {
		k -= summaryScaleStep
	}
	return summaryAt(pg, in, charts, idx, k)
}

// summaryFits says the summary keeps to one page with its type at k
// times its size. The index names a notes page only where notes move
// there, so the type is chosen from the summary as it reads with every
// note on page 1 and, if some move, as it reads with them moved: never
// from what the last layout found, which would let a summary that fits
// only in smaller type with its notes moved (the longer index) and in
// full-size type without them flip between the two layouts for ever.
func summaryFits(pg *pager, in Input, charts int, idx reportIndex, k vg.Length) bool {
	try := func(idx reportIndex) (rest []string, pages int) {
		trial := &pager{c: blankPages{}, text: pg.text}
		trial.start()
		rest = summaryAt(trial, in, charts, idx, k)
		return rest, trial.pages
	}
	kept := idx
	kept.notes = pageSpan{}
	rest, pages := try(kept)
	if len(rest) == 0 {
		return pages == 1
	}
	moved := idx
	moved.notes = pageSpan{summaryPages + 1, summaryPages + 1}
	_, pages = try(moved)
	return pages == 1
}

// summaryPages is the summary's length: one page, the notes that do not
// fit on the page after it.
const summaryPages = 1

// The summary's type may shrink to summaryMinScale of its size, in steps
// of summaryScaleStep, to keep it on its one page.
const summaryMinScale, summaryScaleStep = 0.75, 0.05

// summaryAt is summaryPage with its type at k times its size.
func summaryAt(pg *pager, in Input, charts int, idx reportIndex, k vg.Length) (rest []string) {
	p := in.Plan
	pg.line("Fabric Planner report", 24*k, true)
	for _, l := range pg.text.wrap(planTitle(p), reportW-2*margin, textStyle(16*k, false)) {
		pg.line(l, 16*k, false)
	}
	pg.line("Generated "+in.generated().Format("2006-01-02 15:04 MST"), 10*k, false)
	pg.gap(12 * k)
	pg.line("The answer", 13*k, true)
	pg.para(answer(p), 13*k)
	pg.gap(8 * k)
	rows := [][]string{
		{"Cost (estimate)", fmt.Sprintf("%s, %s", planMoney(p).text(p.Cost.Total), p.PerGPUText())},
		{"Cost range", fmt.Sprintf("%s to %s with every part at its catalog low or high price", planMoney(p).text(p.Cost.LowUSD), planMoney(p).text(p.Cost.HighUSD))},
		{"Power (estimate)", fmt.Sprintf("%s, %s per GPU", textfmt.Watts(p.Power.Total), textfmt.Watts(p.Power.Total/float64(p.GPUs)))},
		{"Share of capex", share(p)},
	}
	rows = append(networkRows(p), rows...)
	if j := p.JCT; j != nil {
		rows = append(rows, []string{"Job completion (model)", fmt.Sprintf("%s RDMA, %s TCP/IP (protocol's share): %s faster (%s training %s)",
			j.TimeUnit().Format(j.Planned.Days), j.TimeUnit().Format(j.Baseline.Days), textfmt.Gain(j.Gain), j.ModelName, textfmt.Tokens(j.Workload.TokensTotal))})
	} else {
		rows = append(rows, []string{"Job completion (model)", "no estimate: the workload does not fit this cluster"})
	}
	if f := p.Networks.FrontEndJCTOrNil(); f != nil {
		rows = append(rows, []string{"Without a back end (model)", fmt.Sprintf("%s on the front end alone (TCP over its NICs and links): the back end is %s faster",
			textfmt.Duration(f.Days), textfmt.Gain(f.Gain))})
	}
	if r := p.Resilience; r != nil {
		g := r.Goodput
		rows = append(rows, []string{"Failures (estimate)", fmt.Sprintf("%.2f job interruptions a day (one every %s)",
			g.InterruptionsPerDay, textfmt.Hours(g.MTBIHours))})
		text := fmt.Sprintf("%.1f%% with %s", 100*g.ETTR, g.IntervalText())
		if p.JCT != nil {
			text += "; JCT counting failures " + g.JCTText()
		}
		rows = append(rows, []string{"Goodput (estimate)", text}, []string{"Spares", p.SparesLine()})
	}
	// A long figure wraps in its cell rather than being cut.
	pg.wrappedTable(11*k, nil, rows, []vg.Length{190, 560}, nil, map[int]bool{1: true})
	pg.gap(10 * k)
	pg.line("What drives cost", 13*k, true)
	drivers := p.CostSensitivity()
	if len(drivers) == 0 {
		pg.line("Every price is fixed by the scenario: no part has a price range.", 10*k, false)
	}
	for i, d := range drivers {
		if i == 3 {
			break
		}
		pg.para(fmt.Sprintf("%d. %s (%s of them): the total moves from %s to %s across its price range.",
			i+1, d.Name, textfmt.Int(d.Qty), planMoney(p).text(d.LowUSD), planMoney(p).text(d.HighUSD)), 11*k)
	}
	index := indexText(charts, idx)
	noteSize, indexSize := 9.5*k, 9.5*k
	if len(p.Notes) > 0 {
		pg.gap(8 * k)
		pg.line("Notes", 11*k, true)
		// Room for the index, and for a line that says where the
		// notes that do not fit went.
		reserve := 8*k + pg.height(index, indexSize) + pg.height(moreNotes(len(p.Notes), idx), noteSize)
		if allNotesFit(pg, p.Notes, noteSize, 8*k+pg.height(index, indexSize)) {
			reserve = 0 // no line says where notes went: none go
		}
		for i, n := range p.Notes {
			if pg.y-pg.height("- "+n, noteSize)-reserve < margin {
				rest = p.Notes[i:]
				break
			}
			pg.para("- "+n, noteSize)
		}
		if len(rest) > 0 {
			pg.para(moreNotes(len(rest), idx), noteSize)
		}
	}
	pg.gap(8 * k)
	pg.para(index, indexSize)
	return rest
}

// allNotesFit says notes, in size-point type, fit on pg's page above
// below (the room the index takes): then none moves, and the line that
// would say where they went needs no room.
func allNotesFit(pg *pager, notes []string, size, below vg.Length) bool {
	y := pg.y - below
	for _, n := range notes {
		y -= pg.height("- "+n, size)
	}
	return y >= margin
}

// indexText is the summary's last line: the page each part of the
// report starts on, as idx found them laid out.
func indexText(charts int, idx reportIndex) string {
	var parts []string
	if idx.notes.first > 0 {
		parts = append(parts, "the notes continued ("+idx.notes.text()+")")
	}
	if charts > 0 {
		parts = append(parts, fmt.Sprintf("%s (%s)", textfmt.Plural(charts, "chart"), idx.charts.text()))
	}
	parts = append(parts, "the bill of materials ("+idx.bom.text()+")", "the inputs ("+idx.inputs.text()+")",
		"the sources of every price and figure ("+idx.sources.text()+")")
	return "Then: " + textfmt.JoinAnd(parts) + "."
}

// moreNotes says where n notes that do not fit on the summary are.
func moreNotes(n int, idx reportIndex) string {
	return fmt.Sprintf("%s on %s.", textfmt.Plural(n, "more note"), idx.notes.text())
}

// notesPage continues the summary's notes.
func notesPage(pg *pager, notes []string) {
	pg.line("Notes, continued from page 1", 16, true)
	pg.gap(4)
	for _, n := range notes {
		pg.para("- "+n, 9.5)
	}
}

// answer says in one sentence what the back-end network adds.
func answer(p *planner.Plan) string {
	n := p.Scenario.Network
	switches := textfmt.Int(p.TotalSwitches()) + " " + p.Switch.Name + " switches"
	if p.MixedSwitches() {
		switches = textfmt.Int(p.TotalSwitches()) + " switches (" + p.SwitchesText() + ")"
	}
	if p.TotalSwitches() == 1 {
		switches = "1 " + p.Switch.Name + " switch"
	}
	article := "a"
	if strings.HasPrefix(fmt.Sprint(n.NICGbps), "8") {
		article = "an" // "an 800G"
	}
	return fmt.Sprintf("%s GPUs in %s on %s %dG %s back-end network need %s in %s, %s, %s and %s.",
		textfmt.Int(p.GPUs), textfmt.Plural(p.Servers, "server"), article, n.NICGbps, n.Fabric.Name(),
		switches, textfmt.Plural(p.Tiers, "tier"),
		textfmt.Plural(p.NICPorts, "NIC port"), textfmt.Plural(p.Links.Total, "cable"),
		textfmt.Plural(p.ServerTransceivers+p.SwitchTransceivers, "transceiver"))
}

// height is the height para takes to write text in size-point type.
func (pg *pager) height(text string, size vg.Length) vg.Length {
	n := len(pg.text.wrap(text, reportW-2*margin, textStyle(size, false)))
	return vg.Length(n)*size*1.45 + size*0.05
}

// sourceIndent sets a source's lines in under its item, in points.
const sourceIndent vg.Length = 10 // about the four spaces it replaces

// indented writes text wrapped to the page width, set in by sourceIndent.
func (pg *pager) indented(text string, size vg.Length) {
	for _, l := range pg.text.wrap(text, reportW-2*margin-sourceIndent, textStyle(size, false)) {
		pg.room(size * 1.5)
		dc := draw.New(pg.c)
		dc.FillText(textStyle(size, false), vg.Point{X: margin + sourceIndent, Y: pg.y - size}, l)
		pg.y -= size * 1.45
	}
}

// para writes text wrapped to the page width.
func (pg *pager) para(text string, size vg.Length) {
	for _, l := range pg.text.wrap(text, reportW-2*margin, textStyle(size, false)) {
		pg.line(l, size, false)
	}
}

// assumptionsPage lists the scenario's inputs and, in detail, what the
// back-end network adds.
func assumptionsPage(pg *pager, in Input) {
	p := in.Plan
	s := p.Scenario
	pg.line("Inputs and assumptions", 16, true)
	n := s.Network
	rows := [][]string{
		{"GPUs", textfmt.Int(s.Cluster.GPUs), "GPUs per server", fmt.Sprint(s.Cluster.GPUsPerServer)},
		{"Fabric", n.Fabric.Name(), "NIC", fmt.Sprintf("%s (%dG)", p.NIC.Key, n.NICGbps)},
		{"NICs per server", fmt.Sprint(n.NICsPerServer), "Ports per NIC", fmt.Sprint(n.PortsPerNIC)},
		{"Planes", fmt.Sprint(n.Planes), "Switch", fmt.Sprintf("%s (asked: %s)", p.SwitchesText(), n.Switch)},
		{"Oversubscription", n.Oversubscription, "Tiers asked", tiersAsked(n.Tiers)},
		{"Rail-optimized", fmt.Sprint(n.RailOptimized), "RoCE load balancing", n.LoadBalancing},
		{"Server-leaf media", tierMediaText(p, "server_leaf", n.Media.ServerLeaf, n.Media.ServerLeafM), "Leaf-spine media", tierMediaText(p, "leaf_spine", n.Media.LeafSpine, n.Media.LeafSpineM)},
	}
	if s.Cluster.ServerPriceUSD > 0 {
		rows = append(rows, []string{"Server price", textfmt.USDExact(s.Cluster.ServerPriceUSD), "Price overrides", fmt.Sprint(len(s.Prices))})
	}
	if j := p.JCT; j != nil {
		w := j.Workload
		rows = append(rows, []string{"Workload", j.ModelName + " on " + j.GPU.Name, "Parallelism", fmt.Sprintf("tp %d, pp %d (vpp %d), dp %d, ep %d", w.TP, w.PP, w.VPP, j.DP, w.EP)},
			[]string{"Batch", textfmt.Int(w.GlobalBatchTokens) + " tokens", "Token budget", textfmt.Tokens(w.TokensTotal)})
	}
	// Values wrap in their cells rather than being cut.
	values := map[int]bool{1: true, 3: true}
	pg.wrappedTable(9.5, nil, rows, []vg.Length{130, 230, 140, 250}, nil, values)
	pg.gap(10)
	pg.line("What the back-end network adds", 13, true)
	key := [][]string{
		{"Servers", textfmt.Int(p.Servers), "Back-end NIC ports", fmt.Sprintf("%s (%d per server)", textfmt.Int(p.NICPorts), p.ServerPorts)},
		{"Tiers / planes", fmt.Sprintf("%d / %d", p.Tiers, p.Planes), "Switches", fmt.Sprintf("%s: leaf %s, spine %s, core %s", textfmt.Int(p.TotalSwitches()),
			textfmt.Int(p.Switches(planner.TierLeaf)), textfmt.Int(p.Switches(planner.TierSpine)), textfmt.Int(p.Switches(planner.TierCore)))},
		{"Switch ports", fmt.Sprintf("%s of %s", textfmt.Int(p.PortsUsed), textfmt.Int(p.PortsTotal)), "Links (cables)", textfmt.Int(p.Links.Total)},
		{"Transceivers", textfmt.Int(p.ServerTransceivers + p.SwitchTransceivers), "Cost (estimate)", fmt.Sprintf("%s, %s", planMoney(p).text(p.Cost.Total), p.PerGPUText())},
		{"Power (estimate)", textfmt.Watts(p.Power.Total), "Share of capex", share(p)},
	}
	if j := p.JCT; j != nil {
		key = append(key, []string{"Step time", fmt.Sprintf("%s (TCP/IP: %s)", textfmt.Seconds(j.Planned.StepS), textfmt.Seconds(j.Baseline.StepS)),
			"JCT gain (model)", fmt.Sprintf("%s: %s vs %s", textfmt.Gain(j.Gain), j.TimeUnit().Format(j.Planned.Days), j.TimeUnit().Format(j.Baseline.Days))})
	}
	pg.wrappedTable(9.5, nil, key, []vg.Length{130, 230, 140, 250}, nil, values)
}

func tiersAsked(t int) string {
	if t == 0 {
		return "fewest that fit"
	}
	return fmt.Sprint(t)
}

func share(p *planner.Plan) string {
	if p.Cost.FabricShare == 0 {
		return "no server price given"
	}
	return fmt.Sprintf("%.1f%% of cluster capex", 100*p.Cost.FabricShare)
}

// planMoney is the scale of the plan's amounts in the report
// (planner.Plan.MoneyScale), so the summary, the cost drivers, the BOM's
// totals and the cost table share one.
func planMoney(p *planner.Plan) money { return money{p.MoneyScale()} }

func bomPage(pg *pager, p *planner.Plan) {
	pg.line("Bill of materials", 16, true)
	var rows [][]string
	usd := planMoney(p) // one scale for the totals column and the table below
	for _, l := range p.BOM {
		unit := textfmt.USDExact(l.UnitUSD)
		if l.Estimate {
			unit += " *"
		}
		rows = append(rows, []string{l.Category, l.Part(), l.Place(), textfmt.Int(l.Qty), unit,
			usd.text(l.TotalUSD), textfmt.Watts(l.TotalWatts)})
	}
	// The part's whole name wraps in its cell: the part number is what a
	// buyer orders.
	pg.wrappedTable(9.5, []string{"Category", "Part", "Where", "Qty", "Unit price", "Total", "Power"}, rows,
		[]vg.Length{60, 250, 115, 50, 80, 70, 75}, map[int]bool{3: true, 4: true, 5: true, 6: true}, map[int]bool{1: true, 2: true})
	pg.line("* estimate: see the sources page", 8.5, false)
	pg.gap(10)
	pg.line("Cost and power by component", 13, true)
	c, w := p.Cost, p.Power
	pg.table([]string{"Component", "Cost", "Share", "Power", "Share"}, [][]string{
		{"NICs", usd.text(c.NICs), pct(c.NICs, c.Total), textfmt.Watts(w.NICs), pct(w.NICs, w.Total)},
		{"Switches", usd.text(c.Switches), pct(c.Switches, c.Total), textfmt.Watts(w.Switches), pct(w.Switches, w.Total)},
		{"Transceivers", usd.text(c.Transceivers), pct(c.Transceivers, c.Total), textfmt.Watts(w.Transceivers), pct(w.Transceivers, w.Total)},
		{"Cables", usd.text(c.Cables), pct(c.Cables, c.Total), textfmt.Watts(w.Cables), pct(w.Cables, w.Total)},
		{"Total", usd.text(c.Total), "100%", textfmt.Watts(w.Total), "100%"},
		{"Per GPU", textfmt.USDExact(c.PerGPU), "", textfmt.Watts(w.Total / float64(p.GPUs)), ""},
	}, []vg.Length{130, 110, 80, 110, 80}, map[int]bool{1: true, 2: true, 3: true, 4: true})
	pg.gap(10)
	unitBillSection(pg, p.UnitBill())
}

// unitBillSection is the reference architectures' per-SU table.
func unitBillSection(pg *pager, b planner.UnitBill) {
	// Keep the table on one page: heading, note and a row per item.
	pg.room(vg.Length(len(b.Rows)+1)*9.5*1.55 + 60)
	pg.line("Per scalable unit", 13, true)
	pg.line(b.Heading(), 9, false)
	pg.gap(2)
	var rows [][]string
	group := ""
	for _, r := range b.Rows {
		g := r.Group
		if g == group {
			g = ""
		}
		group = r.Group
		rows = append(rows, []string{g, r.Item, r.UnitText(), textfmt.Int(r.Cluster)})
	}
	// An item's whole name wraps in its cell, as the BOM's parts do.
	pg.wrappedTable(9.5, []string{"", "Item", "One SU", "Cluster"}, rows, []vg.Length{85, 360, 90, 85},
		map[int]bool{2: true, 3: true}, map[int]bool{1: true})
	if b.Shares() {
		pg.line(planner.ShareNote, 8.5, false)
	}
}

func pct(part, total float64) string {
	if total == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*part/total)
}

func sourcesPage(pg *pager, in Input, cat *planner.Catalog) {
	pg.line("Sources", 16, true)
	pg.line("Every price and wattage in data/catalog.toml names its source and date; items used in this plan:", 9.5, false)
	pg.gap(4)
	used := map[string]bool{}
	for _, l := range in.Plan.BOM {
		used[l.Key] = true
	}
	keys := make([]string, 0, len(used))
	for k := range used {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	quoted := map[string]string{}
	for _, l := range in.Plan.BOM {
		if l.Quote != nil {
			quoted[l.Key] = l.Source
		}
	}
	for _, k := range keys {
		src, asOf := sourceOf(cat, k)
		if q := quoted[k]; q != "" {
			src = append([]string{"priced at the " + q}, src...)
		}
		pg.line(fmt.Sprintf("%s (as of %s)", k, asOf), 9.5, true)
		for _, s := range src {
			pg.indented(s, 8.5)
		}
	}
	pg.gap(6)
	if m := in.Market; m != nil {
		pg.line("Market data", 11, true)
		pg.line(fmt.Sprintf("%s: %s; %s; server figures from its text.", m.Citation(), m.Technology.Table, m.Device.Table), 9, false)
	}
	if j := in.Plan.JCT; j != nil {
		pg.line("Job-time model", 11, true)
		pg.para("Alpha-beta collective model (nccl-tests PERFORMANCE.md bus-bandwidth factors; NCCL 2.30 tuning.cc latencies). "+
			"Constants in data/jct.toml with their sources; validated against Megatron-LM (SC21) Table 1, Llama 3 405B (2024) and nccl-tests "+
			"measurements, see the README. GPU: "+j.GPU.Source, 9)
	}
}

func sourceOf(cat *planner.Catalog, key string) ([]string, string) {
	var s planner.Source
	var pr planner.Pricing
	switch {
	case cat.Switches[key] != nil:
		s, pr = cat.Switches[key].Source, cat.Switches[key].Pricing
	case cat.NICs[key] != nil:
		s, pr = cat.NICs[key].Source, cat.NICs[key].Pricing
	case cat.Transceivers[key] != nil:
		s, pr = cat.Transceivers[key].Source, cat.Transceivers[key].Pricing
	case cat.Cables[key] != nil:
		s, pr = cat.Cables[key].Source, cat.Cables[key].Pricing
	}
	var out []string
	label := ""
	if pr.Condition != "" {
		label = pr.Label()
	}
	for _, kv := range [][2]string{{"price is", label}, {"ports", s.Ports}, {"price", s.Price}, {"watts", s.Watts}, {"reach", s.Reach}} {
		if kv[1] != "" {
			out = append(out, kv[0]+": "+kv[1])
		}
	}
	return out, s.AsOf
}
