package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// withKeys makes Enter run onEnter and Esc run onEsc while d is shown
// (Fyne's dialogs take no keys); the window's own key handler is back
// once d closes. Keys typed into a focused entry stay the entry's.
func (u *UI) withKeys(d dialog.Dialog, onEnter, onEsc func()) {
	c := u.win.Canvas()
	prev := c.OnTypedKey()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape:
			onEsc()
		case fyne.KeyReturn, fyne.KeyEnter:
			onEnter()
		default:
			if prev != nil {
				prev(ev)
			}
		}
	})
	d.SetOnClosed(func() { c.SetOnTypedKey(prev) })
}

// errorDialog shows err; Enter or Esc closes it.
func (u *UI) errorDialog(err error) {
	if u.reportPanic(err) {
		return // a recovered panic gets the crash dialog, not an error box
	}
	d := dialog.NewError(err, u.win)
	u.withKeys(d, d.Hide, d.Hide)
	d.Show()
}

// askYesNo asks a question; Enter answers yes, Esc no.
func (u *UI) askYesNo(title, message string, onYes func()) {
	d := dialog.NewConfirm(title, message, func(ok bool) {
		if ok {
			onYes()
		}
	}, u.win)
	u.withKeys(d, d.Confirm, d.Hide)
	d.Show()
}

// askUnsaved asks what to do with unsaved changes before action: Save
// (then action, once saved), Don't save (action), or Cancel. Enter saves,
// Esc cancels.
func (u *UI) askUnsaved(action func()) {
	var d *dialog.CustomDialog
	save := widget.NewButton("Save", func() {
		d.Hide()
		u.saveThen(action)
	})
	save.Importance = widget.HighImportance
	discard := widget.NewButton("Don't save", func() {
		d.Hide()
		action()
	})
	cancel := widget.NewButton("Cancel", func() { d.Hide() })
	msg := widget.NewLabel("“" + u.m.Name() + "” has unsaved changes. Save them first?")
	msg.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Unsaved changes", container.NewVBox(msg, container.NewHBox(discard, layout.NewSpacer(), cancel, save)), u.win)
	d.Resize(fyne.NewSize(460, 170))
	u.withKeys(d, save.OnTapped, cancel.OnTapped)
	d.Show()
}

// withAlpha is c with alpha a.
func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}

// askYesNoOr asks a question with an action for each answer; Enter
// answers yes, Esc no.
func (u *UI) askYesNoOr(title, message string, onYes, onNo func()) {
	d := dialog.NewConfirm(title, message, func(ok bool) {
		if ok {
			onYes()
		} else {
			onNo()
		}
	}, u.win)
	u.withKeys(d, d.Confirm, d.Dismiss)
	d.Show()
}
