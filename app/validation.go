package app

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"fabricplan/data"
	"fabricplan/planner/validation"
)

// validationColumns are the Model validation table's columns, as
// `fabricplan validate` prints them.
var validationColumns = []string{"Published point", "Published", "Model", "Error", "Tolerance", "Fitted", "Status", "Source"}

// validationCell is one cell of the Model validation table.
func validationCell(r validation.Result, col int) string {
	p := r.Point
	switch col {
	case 0:
		return p.Name
	case 1:
		return fmt.Sprintf("%.4g %s", p.Published, p.Unit)
	case 2:
		if r.Err != nil {
			return "–"
		}
		return fmt.Sprintf("%.4g", r.Model)
	case 3:
		return fmt.Sprintf("%+.1f%%", 100*r.Error())
	case 4:
		return fmt.Sprintf("±%.0f%%", 100*validation.Tolerance(p.Kind))
	case 5:
		return p.FittedText()
	case 6:
		return r.Status()
	}
	if p.Gap != "" {
		return p.Source + ". Gap: " + p.Gap
	}
	return p.Source
}

// ModelValidationDialog checks the JCT model against every published
// point (data/validation.toml) off the UI goroutine, then shows the
// table `fabricplan validate` prints: published, model, error,
// tolerance, whether the point fitted a constant, and its source.
func (u *UI) ModelValidationDialog() {
	u.status.SetText("Checking the JCT model against published runs…")
	u.work.add()
	go func() {
		defer u.work.done()
		var results []validation.Result
		err := protect("checking the JCT model", func() error {
			points, err := validation.Load(data.FS)
			if err == nil {
				results = validation.Run(points, u.cat)
			}
			return err
		})
		u.onUI(func() {
			u.status.SetText("")
			if err != nil {
				u.showError(err)
				return
			}
			u.showValidation(results)
		})
	}()
}

// showValidation shows the results in a dialog; a row's source opens in
// full below the table when selected.
func (u *UI) showValidation(results []validation.Result) {
	drifted, unfitted := 0, 0
	for _, r := range results {
		if r.Point.Fitted == "" {
			unfitted++
		}
		if r.Drifted() {
			drifted++
		}
	}
	head := widget.NewLabel(fmt.Sprintf("%d published points; %d were not used to fit any constant, and %d of those are past their tolerance. "+
		"The same table: fabricplan validate; docs/jct-validation.md.", len(results), unfitted, drifted))
	head.Wrapping = fyne.TextWrapWord
	detail := widget.NewLabel("Select a row for its full source.")
	detail.Wrapping = fyne.TextWrapWord
	table := newTextTable(validationColumns, []float32{330, 130, 70, 70, 80, 200, 100, 500},
		func() int { return len(results) }, func(row, col int) string { return validationCell(results[row], col) })
	table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(results) {
			r := results[id.Row]
			detail.SetText(r.Point.Name + ": " + validationCell(r, len(validationColumns)-1))
		}
	}
	u.validation = table
	body := container.NewBorder(head, detail, nil, nil, table)
	d := dialog.NewCustom("Model validation", "Close", body, u.win)
	d.Resize(fyne.NewSize(u.win.Canvas().Size().Width*0.92, u.win.Canvas().Size().Height*0.85))
	d.Show()
}
