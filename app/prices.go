package app

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/planner"
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
	e.item = widget.NewSelect(u.cat.PriceKeys(), func(key string) {
		was := u.loading
		u.loading = true
		e.showItem(key)
		u.loading = was
	})
	e.price.OnChanged = func(text string) {
		if u.loading || e.item.Selected == "" {
			return
		}
		key := e.item.Selected
		if strings.TrimSpace(text) == "" {
			delete(u.scenario.Prices, key)
		} else {
			v, err := parseMoney(text)
			if err != nil {
				in.setError("prices", err.Error())
				return
			}
			if u.scenario.Prices == nil {
				u.scenario.Prices = map[string]float64{}
			}
			u.scenario.Prices[key] = v
		}
		e.showOverrides()
		u.changed()
	}
	reset := widget.NewButton("Restore all catalog prices", func() {
		u.scenario.Prices = nil
		e.showItem(e.item.Selected)
		e.showOverrides()
		u.changed()
	})
	e.content = container.NewVBox(widget.NewLabel("Item"), e.item, widget.NewLabel("Price (US$, empty: catalog)"), e.price, e.source, e.summary, reset)
	return e
}

// showItem shows the override (or the catalog price as a hint) of key.
func (e *priceEditor) showItem(key string) {
	u := e.in.u
	catalog, src := catalogPrice(u.cat, key)
	e.price.SetPlaceHolder(fmt.Sprintf("catalog: %s", planner.FormatUSDExact(catalog)))
	if v, ok := u.scenario.Prices[key]; ok {
		e.price.SetText(optionalFloat(v))
	} else {
		e.price.SetText("")
	}
	e.source.SetText(src)
}

// showOverrides lists the prices in force that differ from the catalog.
func (e *priceEditor) showOverrides() {
	prices := e.in.u.scenario.Prices
	if len(prices) == 0 {
		e.summary.SetText("No overrides: every price is the catalog's.")
		return
	}
	keys := make([]string, 0, len(prices))
	for k := range prices {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + planner.FormatUSDExact(prices[k])
	}
	e.summary.SetText("Overrides: " + strings.Join(parts, ", "))
}

func (e *priceEditor) fill(s planner.Scenario) {
	if e.item.Selected != "" {
		e.showItem(e.item.Selected)
	}
	e.showOverrides()
}

// catalogPrice is an item's catalog price and where it came from.
func catalogPrice(cat *planner.Catalog, key string) (float64, string) {
	switch {
	case cat.Switches[key] != nil:
		return cat.Switches[key].PriceUSD, cat.Switches[key].Source.Price
	case cat.NICs[key] != nil:
		return cat.NICs[key].PriceUSD, cat.NICs[key].Source.Price
	case cat.Transceivers[key] != nil:
		return cat.Transceivers[key].PriceUSD, cat.Transceivers[key].Source.Price
	case cat.Cables[key] != nil:
		c := cat.Cables[key]
		return c.PriceBaseUSD, fmt.Sprintf("per cable: $%.0f + $%.2f per metre (an override sets the price of one cable). %s", c.PriceBaseUSD, c.PricePerMUSD, c.Source.Price)
	}
	return 0, ""
}
