package app

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// card is one key figure: a caption, a large number and a detail line,
// set tight; the six key figures come first (keyFigures).
type card struct {
	value  *canvas.Text
	detail *wrapLabel
	box    fyne.CanvasObject
}

func newCard(caption string) *card {
	c := &card{value: canvas.NewText("–", theme.Color(theme.ColorNameForeground)), detail: newWrapLabel("")}
	c.value.TextSize = 22
	c.value.TextStyle.Bold = true
	c.detail.SizeName = theme.SizeNameCaptionText
	title := canvas.NewText(caption, theme.Color(theme.ColorNamePlaceHolder))
	title.TextSize = theme.CaptionTextSize()
	title.TextStyle.Bold = true
	bg := canvas.NewRectangle(color.NRGBA{0x80, 0x80, 0x80, 0x18})
	bg.CornerRadius = 6
	head := container.New(&insetLayout{left: 8, top: 6, right: 8}, container.NewVBox(title, newFigureText(c.value)))
	c.box = container.NewStack(bg, container.NewBorder(head, nil, nil, nil, c.detail))
	return c
}

// figureText shows a card's large number, text, as the text alone
// would show (at the place and size its parent gives it) but with its
// least size from measurer: each edit changes the numbers, and every
// layout of the cards asked Fyne to shape each new one again.
type figureText struct {
	widget.BaseWidget
	text *canvas.Text
}

func newFigureText(text *canvas.Text) *figureText {
	f := &figureText{text: text}
	f.ExtendBaseWidget(f)
	return f
}

// CreateRenderer is part of fyne.Widget.
func (f *figureText) CreateRenderer() fyne.WidgetRenderer { return &figureRenderer{f.text} }

// figureRenderer lays a figureText's text over the whole widget.
type figureRenderer struct{ text *canvas.Text }

func (r *figureRenderer) Layout(size fyne.Size) {
	r.text.Move(fyne.NewPos(0, 0))
	r.text.Resize(size)
}

func (r *figureRenderer) MinSize() fyne.Size           { return minSize(r.text) }
func (r *figureRenderer) Refresh()                     { r.text.Refresh() }
func (r *figureRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.text} }
func (r *figureRenderer) Destroy()                     {}

// insetLayout places one object inside margins.
type insetLayout struct{ left, top, right, bottom float32 }

func (l *insetLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(l.left, l.top))
		o.Resize(fyne.NewSize(size.Width-l.left-l.right, size.Height-l.top-l.bottom))
	}
}

func (l *insetLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var m fyne.Size
	for _, o := range objs {
		m = m.Max(o.MinSize())
	}
	return m.Add(fyne.NewSize(l.left+l.right, l.top+l.bottom))
}

// cardsOverTable gives the cards (objs[0], a scroller) the height they
// need, up to what leaves the table below (objs[1]) tableRoom or, in a
// short window, 60% of the tab; the cards scroll past that. The key
// figures at their top (key) always get their height, so they never
// need scrolling (unless the tab itself is shorter).
type cardsOverTable struct{ cards, key fyne.CanvasObject }

// tableRoom is the height the lower tables keep: their tab bar, header,
// four rows and the detail line.
const tableRoom = 290

func (l *cardsOverTable) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	need := l.cards.MinSize().Height
	h := min(need, max(size.Height*0.4, size.Height-tableRoom))
	h = min(max(h, l.key.MinSize().Height), size.Height)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(size.Width, h))
	objs[1].Move(fyne.NewPos(0, h))
	objs[1].Resize(fyne.NewSize(size.Width, size.Height-h))
}

func (l *cardsOverTable) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(max(objs[0].MinSize().Width, objs[1].MinSize().Width), objs[0].MinSize().Height+objs[1].MinSize().Height)
}

func (c *card) set(value, detail string) {
	if value != c.value.Text {
		c.value.Text = value
		c.value.Refresh()
	}
	if detail != c.detail.Text {
		c.detail.SetText(detail)
	}
}

// dim greys the figure out: it is not the plan of the inputs shown.
func (c *card) dim(on bool) {
	col := theme.Color(theme.ColorNameForeground)
	imp := widget.MediumImportance
	if on {
		col, imp = theme.Color(theme.ColorNameDisabled), widget.LowImportance
	}
	c.value.Color = col
	c.value.Refresh()
	c.detail.Importance = imp
	c.detail.Refresh()
}

// summaryTab shows the key figures as large numbers and the bill of
// materials with each price's source.
type summaryTab struct {
	u       *UI
	content fyne.CanvasObject
	cards   map[string]*card
	bom     *widget.Table
	rows    []planner.BOMLine
	// totalScale writes the BOM's totals, all in one scale.
	totalScale textfmt.MoneyScale
	// notes is the Notes tab's text, laid out (wrapped) only while that
	// tab shows (setInTab): in a hidden tab, at the 16 pixels it was
	// given, each changed bullet was measured word by word.
	notes    *wrapLabel
	notesTab *container.TabItem
	// stepTab and suTab hold the step note and the per-SU heading, laid
	// out only while they show as the notes are (each edit of the count
	// changes both); they, bomTab and netsTab hold the tables, refreshed
	// only while they show (refreshInTab).
	stepTab, suTab, bomTab, netsTab *container.TabItem
	dimmed                          bool
	// The per-SU table: its heading and note, and its rows.
	perSU     *widget.Table
	suHeading *wrapLabel
	unitBill  planner.UnitBill
	// The step-time breakdown of the JCT model.
	step     *widget.Table
	stepNote *wrapLabel
	steps    []perf.BreakdownRow
	lower    *container.AppTabs
	// The cheaper design the plan found, one line and a button that
	// loads it (hidden when there is none).
	cheaper     *wrapLabel
	cheaperLoad *widget.Button
	cheaperBar  *fyne.Container
	offer       *planner.Cheaper
	// nets is the whole cluster: what the back end adds, above the
	// cards, and every network in a tab below.
	nets *networksView
	// details show a table's selected row in full under it.
	details []*rowDetail
	// serving holds the inference or RL cards, under the key figures;
	// hidden for a training plan.
	serving *fyne.Container
	// keyGrid holds the key figures' cards, at the top of cardScroll.
	keyGrid    *fyne.Container
	cardScroll *container.Scroll
}

// keyFigures are the cards the Summary shows first, where a 1024x640
// window shows them without scrolling: what a planner reads first. The
// sixth is the workload's headline (headlineFigures): the JCT gain of a
// training plan, the tokens/s per GPU of an inference plan, the weight
// sync of an RL plan.
var keyFigures = []string{"GPUs", "Switches", "Fabric cost", "Cost per GPU", "Power", cardJCTGain}

// headlineFigures are the cards that take the key figures' sixth place,
// one at a time, by the plan's workload kind.
var headlineFigures = []string{cardJCTGain, cardTokensPerGPU, cardWeightSync}

// moreFigures are the cards after the key figures and the whole cluster's
// line.
var moreFigures = []string{"Servers", "Back-end NIC ports", "Links (cables)", "Transceivers"}

// servingFigures are the cards of an inference plan beyond its headline,
// shown under the key figures for that kind only.
var servingFigures = []string{cardTokensPerDollar}

// The headline and serving cards' captions.
const (
	cardJCTGain         = "JCT gain over TCP/IP"
	cardTokensPerGPU    = "Tokens/s per GPU"
	cardTokensPerDollar = "Tokens per dollar"
	cardWeightSync      = "RL weight sync"
)

// bomWidths are the BOM's column widths.
var bomWidths = []float32{230, 150, 70, 100, 90, 90, 520}

var bomHeaders = []string{"Item", "Where", "Qty", "Unit price", "Total", "Power", "Source of the price"}

// stepColumns head the step-time breakdown.
var stepColumns = []string{"Part of the step (RDMA)", "Time", "How"}

func newSummaryTab(u *UI) *summaryTab {
	t := &summaryTab{u: u, cards: map[string]*card{}, nets: newNetworksView()}
	key := container.NewGridWithColumns(len(keyFigures) / 2)
	more := container.NewGridWithColumns(len(moreFigures))
	t.serving = container.NewGridWithColumns(len(servingFigures))
	for _, names := range []struct {
		grid  *fyne.Container
		names []string
	}{{key, append(keyFigures[:len(keyFigures)-1:len(keyFigures)-1], headlineFigures...)}, {more, moreFigures}, {t.serving, servingFigures}} {
		for _, name := range names.names {
			c := newCard(name)
			t.cards[name] = c
			names.grid.Add(c.box)
		}
	}
	t.bom = widget.NewTableWithHeaders(
		func() (int, int) { return len(t.rows), len(bomHeaders) },
		func() fyne.CanvasObject { return newTextCell(t.bom) },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			imp := widget.MediumImportance
			if t.dimmed {
				imp = widget.LowImportance
			}
			// Measuring text is what a refresh costs: set only what changed.
			setTextCell(o, fitText(t.bomCell(id.Row, id.Col), bomWidths[id.Col]), imp)
		})
	t.bom.ShowHeaderColumn = false
	t.bom.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.bom.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if l := o.(*widget.Label); id.Row < 0 && id.Col >= 0 && l.Text != bomHeaders[id.Col] {
			l.SetText(bomHeaders[id.Col])
		}
	}
	for i, w := range bomWidths {
		t.bom.SetColumnWidth(i, w)
	}
	t.notes = newWrapLabel("")
	t.suHeading = newWrapLabel("")
	t.perSU = newTextTable([]string{"", "Item", "One SU", "Cluster"}, []float32{120, 470, 130, 110},
		func() int { return len(t.unitBill.Rows) }, t.unitCell)
	t.stepNote = newWrapLabel("")
	t.step = newTextTable(stepColumns, []float32{270, 95, 700},
		func() int { return len(t.steps) }, t.stepCell)
	// Cards above, as tall as they need up to a share of the tab (and
	// scrolling past it); the BOM and the planner's notes below.
	bom, bomDetail := withRowDetail(t.bom, bomHeaders, func() int { return len(t.rows) },
		t.bomCell)
	perSU, suDetail := withRowDetail(t.perSU, []string{"", "Item", "One SU", "Cluster"},
		func() int { return len(t.unitBill.Rows) }, t.unitCell)
	step, stepDetail := withRowDetail(t.step, stepColumns, func() int { return len(t.steps) }, t.stepCell)
	t.details = []*rowDetail{bomDetail, suDetail, stepDetail}
	t.notesTab = container.NewTabItem("Notes", container.NewVScroll(t.notes))
	t.suTab = container.NewTabItem("Per scalable unit", container.NewBorder(t.suHeading, nil, nil, nil, perSU))
	t.stepTab = container.NewTabItem("Step time", container.NewBorder(t.stepNote, nil, nil, nil, step))
	t.bomTab = container.NewTabItem("Bill of materials (* estimate)", bom)
	t.netsTab = container.NewTabItem("Networks", t.nets.table)
	t.lower = container.NewAppTabs(t.bomTab, t.suTab, t.stepTab, t.notesTab, t.netsTab)
	t.cheaper = newWrapLabel("")
	t.cheaperLoad = widget.NewButton("Load this design", t.loadCheaper)
	t.cheaperBar = container.NewBorder(nil, nil, nil, t.cheaperLoad, t.cheaper)
	t.cheaperBar.Hide()
	lower := container.NewBorder(t.cheaperBar, nil, nil, nil, t.lower)
	t.serving.Hide()
	for _, name := range headlineFigures[1:] {
		t.cards[name].box.Hide() // until an inference or RL plan
	}
	// The serving row follows the key figures, in the scrolled cards (a
	// hidden row takes no height).
	top := container.NewVBox(key, t.serving, t.nets.adds, more)
	t.keyGrid = key
	t.cardScroll = container.NewVScroll(container.NewThemeOverride(top, compactTheme{}))
	// The tables scroll as a whole where the key figures leave them less
	// than their least height (a small window on a plan whose cards say
	// much): clipped, not drawn over the cards and tab bar above.
	t.content = container.New(&cardsOverTable{cards: top, key: key}, t.cardScroll,
		container.NewVScroll(container.NewThemeOverride(lower, compactTheme{})))
	return t
}

// showCheaper shows the plan's cheapest alternative design, if any.
func (t *summaryTab) showCheaper(p *planner.Plan) {
	t.offer = nil
	for i, c := range p.Cheaper {
		if t.offer == nil || c.CostUSD < t.offer.CostUSD {
			t.offer = &p.Cheaper[i]
		}
	}
	if t.offer == nil {
		t.cheaperBar.Hide()
		return
	}
	what := fmt.Sprintf("%s for %s, %s (%.0f%%) less", t.offer.Design, p.MoneyScale().Format(t.offer.CostUSD), p.MoneyScale().Format(t.offer.SavingUSD),
		100*t.offer.SavingUSD/p.Cost.Total)
	text := fmt.Sprintf("Cheaper with the same ports and %s: %s.", p.Scenario.Network.Oversubscription, what)
	if t.offer.Caveat != "" {
		text = fmt.Sprintf("Cheaper with the same ports and %s: %s; %s.", p.Scenario.Network.Oversubscription, what, t.offer.Caveat)
	}
	if text != t.cheaper.Text {
		t.cheaper.SetText(text)
	}
	t.cheaperBar.Show()
}

// loadCheaper makes the offered design the inputs, as one undoable edit.
func (t *summaryTab) loadCheaper() {
	if t.offer == nil || t.dimmed {
		return
	}
	u := t.u
	s := u.m.Scenario()
	t.offer.Apply(&s)
	design := t.offer.Design
	u.m.Replace(s)
	u.inputs.fill()
	u.changed()
	u.setStatus("Using the cheaper design: "+design+" (Undo goes back).", widget.MediumImportance)
}

// fitText cuts s with an ellipsis to about what a cell of width pixels
// shows. Counting runes is approximate but costs nothing; Fyne's own
// truncation measures the text again on every refresh, which made a BOM
// refresh take tens of milliseconds.
func fitText(s string, width float32) string {
	return textfmt.Clip(s, max(2, int((width-2*theme.InnerPadding())/(theme.TextSize()*0.55))))
}

// bomCell is one cell of the bill of materials; the totals column is
// written in one money scale (that of its largest amount).
func (t *summaryTab) bomCell(row, col int) string {
	l := t.rows[row]
	switch col {
	case 0:
		return l.Part()
	case 1:
		return l.Place()
	case 2:
		return textfmt.Int(l.Qty)
	case 3:
		s := textfmt.USDExact(l.UnitUSD)
		switch {
		case l.QuoteExpired:
			s += " quote EXPIRED"
		case l.Quote != nil:
			s += " quoted"
		case l.Estimate:
			s += " *"
		}
		return s
	case 4:
		return t.totalScale.Format(l.TotalUSD)
	case 5:
		return textfmt.Watts(l.TotalWatts)
	}
	return l.Source
}

func (t *summaryTab) update(p *planner.Plan) {
	c := t.cards
	servers := fmt.Sprintf("%s GPUs, %d per server", textfmt.Int(p.GPUs), p.Scenario.Cluster.GPUsPerServer)
	if sys := p.System; sys != nil && sys.RackScale() {
		servers = fmt.Sprintf("compute trays of %d GPUs in %s %s racks", sys.GPUsPerNode(), textfmt.Int(p.Systems), sys.Key)
	} else if sys != nil {
		servers = fmt.Sprintf("%s GPUs in %s", textfmt.Int(p.GPUs), sys.Key)
	}
	c["Servers"].set(textfmt.Int(p.Servers), servers)
	c["GPUs"].set(textfmt.Int(p.GPUs), gpusDetail(p))
	node := "server"
	if p.System != nil && p.System.RackScale() {
		node = "tray"
	}
	c["Back-end NIC ports"].set(textfmt.Int(p.NICPorts), fmt.Sprintf("%d per %s at %dG, %s", p.ServerPorts, node, p.PortGbps, p.NIC.Key))
	c["Switches"].set(textfmt.Int(p.TotalSwitches()), fmt.Sprintf("%s: leaf %s, spine %s, core %s; %s, %s", p.SwitchesText(),
		textfmt.Int(p.Switches(planner.TierLeaf)), textfmt.Int(p.Switches(planner.TierSpine)), textfmt.Int(p.Switches(planner.TierCore)),
		textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.Planes, "plane"))+ratiosLine(p))
	c["Links (cables)"].set(textfmt.Int(p.Links.Total), p.Links.Parts())
	c["Transceivers"].set(textfmt.Int(p.ServerTransceivers+p.SwitchTransceivers), fmt.Sprintf("server side %s, switch side %s",
		textfmt.Int(p.ServerTransceivers), textfmt.Int(p.SwitchTransceivers)))
	share, perGPUBand := "", ""
	for _, b := range p.SanityBands {
		if b.High <= 1 {
			share = fmt.Sprintf("; %.1f%% of cluster capex, %s analysts' %.0f–%.0f%%", 100*b.Value, b.Position, 100*b.Low, 100*b.High)
			continue
		}
		perGPUBand = fmt.Sprintf("\nwithout NICs %s, %s analysts' %s–%s", textfmt.USDExact(b.Value), b.Position,
			textfmt.USDExact(b.Low), textfmt.USDExact(b.High)) // per GPU: to the dollar, as the card
		if b.Note != "" {
			perGPUBand += ": " + b.Note
		}
	}
	if share == "" && p.Cost.FabricShare > 0 {
		share = fmt.Sprintf("; %.1f%% of cluster capex", 100*p.Cost.FabricShare)
	}
	// The amounts of the view share one scale ("$2.24M, $0.648M"): the
	// cards, the BOM's totals and the networks table.
	cost := p.MoneyScale()
	c["Fabric cost"].set(cost.Format(p.Cost.Total), fmt.Sprintf("estimate, %s basis, %s–%s%s", p.Cost.Basis,
		cost.Format(p.Cost.LowUSD), cost.Format(p.Cost.HighUSD), share))
	parts := cost
	c["Cost per GPU"].set(textfmt.USDExact(p.Cost.PerGPU), fmt.Sprintf("%s; NICs %s, switches %s, optics %s, cables %s%s", p.BoughtText(), parts.Format(p.Cost.NICs),
		parts.Format(p.Cost.Switches), parts.Format(p.Cost.Transceivers), parts.Format(p.Cost.Cables), perGPUBand))
	c["Power"].set(textfmt.Watts(p.Power.Total), fmt.Sprintf("estimate; %s per GPU", textfmt.Watts(p.Power.Total/float64(p.GPUs))))
	if j := p.JCT; j != nil {
		c[cardJCTGain].set(jctCard(j))
	} else {
		c[cardJCTGain].set("–", "no estimate: the workload does not fit this cluster")
	}
	t.showServing(p)
	t.steps = nil
	stepNote := "No JCT estimate: the workload does not fit this cluster."
	if j := p.JCT; j != nil {
		t.steps = j.Breakdown()
		stepNote = fmt.Sprintf("%s on %s, dp %s. Effects are shares of the parts above them: the step minus the step with that one effect made ideal.",
			j.ModelName, j.GPU.Name, textfmt.Int(j.DP))
		if c := j.StepCaveat(); c != "" {
			stepNote = fmt.Sprintf("%s on %s, dp %s. Step: %s (the Notes tab says why and the fix). Effects are shares of the parts above them.",
				j.ModelName, j.GPU.Name, textfmt.Int(j.DP), c)
		}
	}
	t.setInTab(t.stepNote, t.stepTab, stepNote)
	t.refreshInTab(t.step, t.stepTab)
	t.rows = p.BOM
	t.totalScale = cost
	t.refreshInTab(t.bom, t.bomTab)
	t.nets.update(p)
	t.refreshInTab(t.nets.table, t.netsTab)
	t.unitBill = p.UnitBill()
	heading := t.unitBill.Heading()
	if t.unitBill.Shares() {
		heading += " " + planner.ShareNote
	}
	t.setInTab(t.suHeading, t.suTab, heading)
	t.refreshInTab(t.perSU, t.suTab)
	t.showCheaper(p)
	for _, d := range t.details {
		d.refresh()
	}
	t.setInTab(t.notes, t.notesTab, planNotes(p))
	// The cards' height follows their text: lay out again, without
	// refreshing (and measuring) every label below.
	box := t.content.(*fyne.Container)
	box.Layout.Layout(box.Objects, box.Size())
}

// setInTab sets the text of l, a label in the lower tab tab, laying it
// out (and so measuring it) only while that tab shows: AppTabs
// refreshes a tab's contents when it is selected. Text unchanged is not
// set again.
func (t *summaryTab) setInTab(l *wrapLabel, tab *container.TabItem, text string) {
	if text == l.Text {
		return
	}
	l.Text = text
	if t.lower.Selected() == tab {
		l.Refresh()
	}
}

// refreshInTab refreshes table, in the lower tab tab, only while that
// tab shows: selecting any tab refreshes every tab's contents (AppTabs'
// theme pass), so a hidden table shows the plan's rows when it is shown
// again. A table shown once and then hidden kept its cells, and every
// edit set each changed one again, shaping its text.
func (t *summaryTab) refreshInTab(table fyne.CanvasObject, tab *container.TabItem) {
	if t.lower.Selected() == tab {
		table.Refresh()
	}
}

// showServing shows the headline of the plan's workload kind in the key
// figures' sixth place (the JCT gain of training, the output tokens/s
// per GPU of inference, the weight sync of RL) and, for inference, the
// tokens per dollar under the key figures; the serving row is hidden for
// the other kinds.
func (t *summaryTab) showServing(p *planner.Plan) {
	c := t.cards
	inf, rl := p.Inference, p.RL
	headline := cardJCTGain
	switch {
	case inf != nil:
		headline = cardTokensPerGPU
	case rl != nil:
		headline = cardWeightSync
	}
	relayout := !c[headline].box.Visible()
	for _, name := range headlineFigures {
		if name != headline {
			c[name].box.Hide()
		}
	}
	c[headline].box.Show()
	switch {
	case inf != nil:
		c[cardTokensPerGPU].set(textfmt.Int(int(math.Round(inf.TokensSPerGPU))), fmt.Sprintf("model: output tokens/s per GPU of the whole cluster (%s prefill, %s decode GPUs); decode %s per GPU at TPOT %s, TTFT %s",
			textfmt.Int(inf.PrefillGPUs), textfmt.Int(inf.DecodeGPUs), textfmt.Int(int(math.Round(inf.Decode.TokensSPerGPU))), textfmt.Seconds(inf.Decode.TPOTS), textfmt.Seconds(inf.TTFTS)))
		c[cardTokensPerDollar].set(textfmt.Int(int(inf.TokensPerDollar)), fmt.Sprintf("estimate: output tokens per dollar of compute and back end over %.0f years, with energy; %s per kWh",
			inf.LifeYears, textfmt.Int(int(inf.TokensPerKWh))))
		c[cardTokensPerGPU].box.Show()
		c[cardTokensPerDollar].box.Show()
	case rl != nil:
		c[cardWeightSync].set(textfmt.Seconds(rl.WeightSyncS), fmt.Sprintf("model: %s GB %s, %.1f%% of the time between syncs; network %s, reload %s",
			textfmt.Int(int(math.Round(rl.SyncGB))), rl.Mode, 100*rl.ShareOfStep, textfmt.Seconds(rl.NetworkS), textfmt.Seconds(rl.ReloadS)))
		c[cardWeightSync].box.Show()
	}
	if inf != nil {
		t.serving.Show()
	} else {
		t.serving.Hide()
	}
	if relayout { // another kind's headline took the sixth place
		t.keyGrid.Refresh()
	}
}

// planNotes is the Notes tab's text: the JCT's findings, the inference
// or RL estimate's, then the plan's notes, one bullet each.
func planNotes(p *planner.Plan) string {
	notes := ""
	if j := p.JCT; j != nil {
		for _, f := range j.Findings {
			notes += "• JCT: " + f + "\n"
		}
	}
	for _, f := range servingFindings(p) {
		notes += "• " + f + "\n"
	}
	for _, n := range p.Notes {
		notes += "• " + n + "\n"
	}
	return notes
}

// servingFindings are the inference or RL estimate's findings, each
// labelled with its kind.
func servingFindings(p *planner.Plan) []string {
	var out []string
	if r := p.Inference; r != nil {
		for _, f := range r.Findings {
			out = append(out, "Inference: "+f)
		}
	}
	if r := p.RL; r != nil {
		for _, f := range r.Findings {
			out = append(out, "RL: "+f)
		}
	}
	return out
}

// gpusDetail is the GPUs card's line: the nodes that hold them, and the
// GPUs bought where whole servers or racks hold more than were asked.
func gpusDetail(p *planner.Plan) string {
	node := "server"
	if p.System != nil && p.System.RackScale() {
		node = "compute tray"
	}
	text := fmt.Sprintf("in %s", textfmt.Plural(p.Servers, node))
	if b := p.GPUsBought(); b != p.GPUs {
		text += fmt.Sprintf("; %s bought", textfmt.Int(b))
	}
	return text
}

// HiddenKeyFigures names the key figures whose number the Summary tab
// does not show whole in its window as laid out (scrolled away, cut by
// the cards' scroller or past the window's edge), for the screenshot
// check and tests; nil when the tab is not shown.
func (u *UI) HiddenKeyFigures() []string {
	t := u.summary
	if !t.content.Visible() || t.cardScroll.Size().Height <= 0 {
		return nil
	}
	d := fyne.CurrentApp().Driver()
	view := d.AbsolutePositionForObject(t.cardScroll)
	viewEnd := view.Add(t.cardScroll.Size())
	win := u.win.Canvas().Size()
	var hidden []string
	for _, name := range append(keyFigures[:len(keyFigures)-1:len(keyFigures)-1], headlineFigures...) {
		if !t.cards[name].box.Visible() {
			continue // another kind's headline
		}
		v := t.cards[name].value
		at := d.AbsolutePositionForObject(v)
		end := at.Add(v.MinSize())
		if at.X < view.X || at.Y < view.Y || end.X > min(viewEnd.X, win.Width)+0.5 || end.Y > min(viewEnd.Y, win.Height)+0.5 {
			hidden = append(hidden, name)
		}
	}
	return hidden
}

// stepCell is one cell of the step-time breakdown.
func (t *summaryTab) stepCell(row, col int) string {
	r := t.steps[row]
	switch col {
	case 0:
		return r.Label()
	case 1:
		return r.Time()
	}
	return r.Detail
}

// unitCell is one cell of the per-SU table: a group's name on its first
// row only.
func (t *summaryTab) unitCell(row, col int) string {
	rows := t.unitBill.Rows
	r := rows[row]
	switch col {
	case 0:
		if row > 0 && rows[row-1].Group == r.Group {
			return ""
		}
		return r.Group
	case 1:
		return r.Item
	case 2:
		return r.UnitText()
	}
	return textfmt.Int(r.Cluster)
}

// dim greys every card and the BOM out while the plan is stale.
func (t *summaryTab) dim(on bool) {
	if on == t.dimmed {
		return
	}
	t.dimmed = on
	for _, c := range t.cards {
		c.dim(on)
	}
	if on {
		t.cheaperLoad.Disable() // the offer is for the plan shown, not the inputs being planned
	} else {
		t.cheaperLoad.Enable()
	}
	t.refreshInTab(t.bom, t.bomTab)
	t.nets.dim(on)
}

// Dimmed reports whether the summary shows a stale plan greyed out.
func (u *UI) Dimmed() bool { return u.summary.dimmed }

// Figures returns the card values, for tests: caption -> large number.
func (u *UI) Figures() map[string]string {
	out := map[string]string{}
	for k, c := range u.summary.cards {
		out[k] = c.value.Text
	}
	return out
}

// compactTheme is the app theme with half the inner padding, for the
// dense figures of the Summary tab: all cards and eight BOM rows fit at
// 1280x800.
type compactTheme struct{}

func (compactTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return fyne.CurrentApp().Settings().Theme().Color(n, v)
}

func (compactTheme) Font(s fyne.TextStyle) fyne.Resource {
	return fyne.CurrentApp().Settings().Theme().Font(s)
}

func (compactTheme) Icon(n fyne.ThemeIconName) fyne.Resource {
	return fyne.CurrentApp().Settings().Theme().Icon(n)
}

func (compactTheme) Size(n fyne.ThemeSizeName) float32 {
	s := fyne.CurrentApp().Settings().Theme().Size(n)
	if n == theme.SizeNameInnerPadding {
		return s / 2
	}
	return s
}

// jctCard is the JCT card's value and detail: the gain and step, with
// the memory verdict; for a job that does not fit, by how much and the
// step with the cheapest change that fits, labelled.
func jctCard(j *perf.JCT) (string, string) {
	m := j.Memory
	detail := fmt.Sprintf("model, the protocol's share: step %s vs %s; %s vs %s (%s); memory %.0f of %.0f GB per GPU",
		textfmt.Seconds(j.Planned.StepS), textfmt.Seconds(j.Baseline.StepS), j.TimeUnit().Format(j.Planned.Days),
		j.TimeUnit().Format(j.Baseline.Days), j.ModelName, m.TotalGB, m.HBMGB)
	if j.ShortPipeline() {
		detail += fmt.Sprintf("; the bubble is %.0f%% of the step (%s per pipeline for pp %d: see the step tab)",
			100*j.BubbleShare(), textfmt.Plural(j.Microbatches, "micro-batch"), j.Workload.PP)
	}
	switch m.Status {
	case perf.MemoryTight:
		return textfmt.Gain(j.Gain), detail + fmt.Sprintf(", tight (within the %.0f%% margin)", 100*(m.TightGB/m.HBMGB-1))
	case perf.MemoryOver:
		over := fmt.Sprintf("%s does not fit: %.0f of %.0f GB per GPU, %.0f GB over", j.ModelName, m.TotalGB, m.HBMGB, m.OverGB())
		if f := j.Fix; f != nil {
			return "does not fit", over + fmt.Sprintf("; with %s (the cheapest change that fits): step %s, gain %s, %s",
				f.Change, textfmt.Seconds(f.JCT.Planned.StepS), textfmt.Gain(f.JCT.Gain), j.TimeUnit().Format(f.JCT.Planned.Days))
		}
		return "does not fit", over + "; no single change fits: more GPUs, a GPU with more memory or a smaller model"
	}
	return textfmt.Gain(j.Gain), detail
}

// ratiosLine is each tier's port speed when uplink_gbps differs from
// the server ports, and the built ratio of every tier when the spines'
// ratio was asked, each on its own line (empty otherwise).
func ratiosLine(p *planner.Plan) string {
	out := ""
	if sp := p.SpeedsText(); sp != "" {
		out = "\nport speeds " + sp
	}
	if r := p.TierRatiosText(); r != "" {
		return out + "\noversubscription " + r
	}
	return out
}
