package app

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
)

// priceEditor overrides catalog prices: pick an item, type a price (empty
// restores the catalog's), and see every override in force.
type priceEditor struct {
	in      *inputsPanel
	item    *widget.Select
	price   *widget.Entry
	source  *widget.Label
	summary *widget.Label
	content fyne.CanvasObject
}

func newPriceEditor(in *inputsPanel) *priceEditor {
	u := in.u
	e := &priceEditor{in: in, price: widget.NewEntry(), source: widget.NewLabel(""), summary: widget.NewLabel("")}
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
	e.content = container.NewVBox(widget.NewLabel("Item"), e.item, widget.NewLabel("Price (US$, empty: catalog)"), e.price, e.source, e.summary, reset)
	return e
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
		_, src := model.CatalogPrice(m.Catalog(), e.item.Selected)
		e.source.SetText(src)
	}
	e.summary.SetText(m.PriceOverrides())
}
