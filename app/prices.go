package app

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/planner"
	"fabricplan/planner/scenariofile"
)

// priceEditor overrides catalog prices: pick an item, type a price (empty
// restores the catalog's), and see every override in force.
type priceEditor struct {
	in      *inputsPanel
	item    *widget.Select
	price   *widget.Entry
	source  *widget.Label
	summary *widget.Label
	quotes  *widget.Label
	content fyne.CanvasObject
}

func newPriceEditor(in *inputsPanel) *priceEditor {
	u := in.u
	e := &priceEditor{in: in, price: widget.NewEntry(), source: widget.NewLabel(""), summary: widget.NewLabel(""), quotes: widget.NewLabel("")}
	e.quotes.Wrapping = fyne.TextWrapWord
	e.source.Wrapping = fyne.TextWrapWord
	e.source.Importance = widget.LowImportance
	e.summary.Wrapping = fyne.TextWrapWord
	e.item = widget.NewSelect(u.m.PriceKeys(), func(string) {
		in.filling = true
		defer func() { in.filling = false }()
		e.fill("")
	})
	e.price.OnChanged = func(text string) {
		if in.filling || e.item.Selected == "" {
			return
		}
		u.edit(e.key(), text)
	}
	reset := widget.NewButton("Restore all catalog prices", func() {
		u.m.ResetPrices()
		in.fill()
		u.changed()
	})
	load := widget.NewButton("Load vendor quotes…", u.QuotesDialog)
	drop := widget.NewButton("Drop quotes", func() {
		u.m.SetQuotes(nil)
		in.fill()
		u.changed()
	})
	e.content = container.NewVBox(widget.NewLabel("Item"), e.item, widget.NewLabel("Price (US$, empty: catalog)"), e.price, e.source, e.summary, reset,
		widget.NewSeparator(), e.quotes, container.NewGridWithColumns(2, load, drop))
	return e
}

// QuotesDialog asks for a quotes file (.csv or .toml) and prices the plan
// at it.
func (u *UI) QuotesDialog() {
	u.openPathDialog(regularFiles{".csv", ".toml"}, func(path string) { u.LoadQuotes(path, u.showError) })
}

// LoadQuotes reads and checks a quotes file off the UI goroutine, dated
// by the window's clock, then prices the plan at it (one undoable edit);
// a file that does not parse goes to onError and changes nothing.
func (u *UI) LoadQuotes(path string, onError func(error)) {
	u.work.add()
	go func() {
		defer u.work.done()
		var qs *planner.Quotes
		err := protect("reading the quotes", func() (err error) {
			qs, err = scenariofile.LoadQuotes(path, u.now())
			return err
		})
		u.onUI(func() {
			if err != nil {
				if !u.reportPanic(err) {
					onError(err)
				}
				return
			}
			u.m.SetQuotes(qs)
			u.inputs.fill()
			u.changed()
		})
	}()
}

// now is the window's clock: the day quotes' validity is checked against.
func (u *UI) now() time.Time {
	if u.opts.Now != nil {
		return u.opts.Now()
	}
	return time.Now()
}

func (e *priceEditor) key() string { return "prices." + e.item.Selected }

// fill shows the selected item's override, catalog price and source, and
// every override in force; skip is the key being typed in.
func (e *priceEditor) fill(skip string) {
	m := e.in.u.m
	if e.item.Selected != "" {
		k := e.key()
		e.price.SetPlaceHolder(m.Hint(k))
		if k != skip && e.price.Text != m.Text(k) {
			e.price.SetText(m.Text(k))
		}
		src := ""
		if p, ok := m.Catalog().ItemPrice(e.item.Selected); ok {
			src = p.Pricing.Label() + ". " + p.Source
		}
		e.source.SetText(src)
	}
	e.summary.SetText(m.PriceOverrides())
	e.quotes.SetText(m.QuotesSummary())
}
