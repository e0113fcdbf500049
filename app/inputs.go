package app

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/internal/textfmt"
)

// GPU-count presets offered next to the GPU entry.
var gpuPresets = []int{256, 1024, 4096, 16384, 32768, 100000}

// input binds one widget to one model key. The widget only reports what
// was typed or picked (model.Set) and shows what the model says: its text,
// choices, whether it is editable, and its problems.
type input struct {
	field   model.Field
	widget  fyne.CanvasObject
	errText *widget.Label

	show    func(text string)   // puts the model's text in the widget
	options func(opts []string) // nil for inputs without choices
	enable  func(on bool)       // locks or unlocks the widget
	hint    func(placeholder string)
}

// inputsPanel is the left-hand form.
type inputsPanel struct {
	u       *UI
	content fyne.CanvasObject
	inputs  []*input
	byKey   map[string]*input
	general *widget.Label // problems that name no shown input
	prices  *priceEditor
	filling bool // true while widgets are set from the model
}

func newInputsPanel(u *UI) *inputsPanel {
	in := &inputsPanel{u: u, byKey: map[string]*input{}, general: widget.NewLabel("")}
	in.general.Wrapping = fyne.TextWrapWord
	in.general.Importance = widget.DangerImportance
	in.general.Hide()
	groups := map[string][]fyne.CanvasObject{}
	for _, f := range model.Fields() {
		it := in.bind(f)
		obj := it.widget
		if f.Key == "cluster.gpus" {
			obj = container.NewVBox(obj, in.presets())
		}
		groups[f.Group] = append(groups[f.Group], in.row(it, obj)...)
	}
	in.prices = newPriceEditor(in)
	priceErr := newErrLabel()
	in.byKey["prices"] = &input{field: model.Field{Key: "prices"}, errText: priceErr}
	acc := widget.NewAccordion(
		widget.NewAccordionItem(model.GroupMore, container.NewVBox(groups[model.GroupMore]...)),
		widget.NewAccordionItem("Prices", container.NewVBox(in.prices.content, priceErr)),
		widget.NewAccordionItem(model.GroupWorkload, container.NewVBox(groups[model.GroupWorkload]...)),
		widget.NewAccordionItem(model.GroupFailures, container.NewVBox(groups[model.GroupFailures]...)),
		widget.NewAccordionItem(model.GroupNetworks, container.NewVBox(groups[model.GroupNetworks]...)),
		widget.NewAccordionItem(model.GroupHall, container.NewVBox(groups[model.GroupHall]...)),
	)
	title := widget.NewLabelWithStyle("Cluster and fabric", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	in.content = container.NewVScroll(container.NewVBox(title, container.NewVBox(groups[""]...), in.general, acc))
	return in
}

func newErrLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

// row lays an input out as its label above its widget above its errors.
func (in *inputsPanel) row(it *input, obj fyne.CanvasObject) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	if it.field.Kind != model.Toggle {
		l := widget.NewLabel(it.field.Label)
		l.TextStyle.Bold = true
		out = append(out, l)
	}
	return append(out, obj, it.errText)
}

// bind makes the widget for field f and ties it to the model.
func (in *inputsPanel) bind(f model.Field) *input {
	it := &input{field: f, errText: newErrLabel()}
	onChange := func(text string) {
		if in.filling {
			return
		}
		in.u.edit(f.Key, text)
	}
	switch f.Kind {
	case model.Text:
		e := widget.NewEntry()
		e.OnChanged = onChange
		it.widget, it.enable = e, enabler(e)
		it.hint = func(h string) {
			if h != e.PlaceHolder { // setting it lays the hint out again
				e.SetPlaceHolder(h)
			}
		}
		it.show = func(t string) {
			if e.Text != t {
				e.SetText(t)
			}
		}
	case model.Choice:
		s := widget.NewSelect(nil, func(v string) {
			if v != "" {
				onChange(v)
			}
		})
		it.widget, it.enable = s, enabler(s)
		it.show = func(t string) {
			if s.Selected != t {
				s.SetSelected(t)
			}
		}
		it.options = func(opts []string) {
			if strings.Join(s.Options, "\x00") != strings.Join(opts, "\x00") {
				s.SetOptions(opts)
			}
		}
	case model.Radio:
		r := widget.NewRadioGroup(nil, func(v string) {
			if v == "" { // a tap on the selected button clears it: put it back
				in.fillExcept("")
				return
			}
			onChange(v)
		})
		r.Horizontal = true
		it.widget, it.enable = r, enabler(r)
		it.show = func(t string) {
			if r.Selected != t {
				r.SetSelected(t)
			}
		}
		it.options = func(opts []string) {
			if strings.Join(r.Options, "\x00") != strings.Join(opts, "\x00") {
				r.Options = opts
				r.Refresh()
			}
		}
	case model.Toggle:
		w := newWrappedCheck(f.Label, func(b bool) { onChange(strconv.FormatBool(b)) })
		c := w.check
		it.widget, it.enable = w, enabler(w)
		it.show = func(t string) {
			if c.Checked != (t == "true") {
				c.SetChecked(t == "true")
			}
		}
	}
	in.inputs = append(in.inputs, it)
	in.byKey[f.Key] = it
	return it
}

func enabler(w fyne.Disableable) func(bool) {
	return func(on bool) {
		if on {
			w.Enable()
		} else {
			w.Disable()
		}
	}
}

// presets are buttons that type a common GPU count.
func (in *inputsPanel) presets() fyne.CanvasObject {
	var buttons []fyne.CanvasObject
	for _, g := range gpuPresets {
		buttons = append(buttons, widget.NewButton(compact(g), func() {
			in.filling = true
			in.byKey["cluster.gpus"].show(strconv.Itoa(g))
			in.filling = false
			in.u.edit("cluster.gpus", strconv.Itoa(g))
		}))
	}
	return container.NewGridWithColumns(3, buttons...)
}

// fill shows the model in every input.
func (in *inputsPanel) fill() { in.fillExcept("") }

// fillExcept shows the model in every input but skip (the one being
// typed in, whose text and cursor stay as the user left them).
func (in *inputsPanel) fillExcept(skip string) {
	in.sync(func(it *input) bool { return true }, skip)
	in.prices.fill(skip)
}

// refreshOptions sets the choices that fit once a plan is in (which
// switches build is known only then).
func (in *inputsPanel) refreshOptions() {
	in.sync(func(it *input) bool { return it.options != nil }, "")
}

// sync shows the model in the inputs that which picks: choices, text
// (except skip's), hint and whether they can be edited.
func (in *inputsPanel) sync(which func(*input) bool, skip string) {
	in.filling = true
	defer func() { in.filling = false }()
	m := in.u.m
	for _, it := range in.inputs {
		if !which(it) {
			continue
		}
		k := it.field.Key
		if it.options != nil {
			it.options(m.Options(k))
		}
		if k != skip {
			it.show(m.Text(k))
		}
		if it.hint != nil {
			it.hint(m.Hint(k))
		}
		it.enable(m.Enabled(k))
	}
}

// showProblems puts each problem under its input, and those that name
// none in the general label.
func (in *inputsPanel) showProblems() {
	st := in.u.m.State()
	shown := map[string][]string{}
	var general []string
	for _, p := range append(st.Problems, st.Findings...) {
		key := p.Key
		if strings.HasPrefix(key, "prices.") {
			key = "prices"
		}
		if _, ok := in.byKey[key]; ok {
			shown[key] = append(shown[key], p.Text)
			continue
		}
		general = append(general, p.String())
	}
	for key, it := range in.byKey {
		if msgs := shown[key]; len(msgs) > 0 {
			it.errText.SetText(strings.Join(msgs, "\n"))
			it.errText.Show()
		} else if it.errText.Visible() {
			it.errText.Hide()
		}
	}
	if len(general) > 0 {
		in.general.SetText(strings.Join(general, "\n"))
		in.general.Show()
	} else {
		in.general.Hide()
	}
}

// compact labels a preset: 1,024 or 100k.
func compact(n int) string {
	if n >= 100000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return textfmt.Int(n)
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
