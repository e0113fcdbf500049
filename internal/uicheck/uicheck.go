// Package uicheck finds what a window cuts off: widgets that reach past
// the canvas, and text widgets given less room than their text needs. It
// walks the drawn object tree (containers, scroll views and widgets'
// renderers) as the canvas lays it out, for tests and the screenshot
// mode; the release binary does not link it.
package uicheck

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// tolerance is how far, in pixels, an edge may pass a bound before it
// counts: layouts round to half pixels.
const tolerance = 1

// Problem is one widget the window cuts off.
type Problem struct {
	What   string        // the widget's type and text
	Pos    fyne.Position // its top-left corner on the canvas
	Size   fyne.Size     // its size as laid out
	Reason string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s at (%.0f, %.0f) size %.0fx%.0f: %s", p.What, p.Pos.X, p.Pos.Y, p.Size.Width, p.Size.Height, p.Reason)
}

// Check walks the content of c and returns every visible widget outside
// the canvas (except inside a scroll view, whose viewport is checked
// instead), and every label, button, check or select narrower than its
// text (unless it truncates or wraps).
func Check(c fyne.Canvas) []Problem {
	content := c.Content()
	if content == nil {
		return nil
	}
	w := walker{canvas: c.Size()}
	w.walk(content, fyne.NewPos(0, 0), false)
	return w.problems
}

type walker struct {
	canvas   fyne.Size
	stack    []string // the types of the objects around the one walked
	problems []Problem
}

func (w *walker) walk(o fyne.CanvasObject, parent fyne.Position, scrolled bool) {
	if o == nil || !o.Visible() {
		return
	}
	at := parent.Add(o.Position())
	size := o.Size()
	if size.Width <= 0 || size.Height <= 0 {
		return
	}
	w.stack = append(w.stack, fmt.Sprintf("%T", o))
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	if !scrolled {
		if at.X < -tolerance || at.Y < -tolerance || at.X+size.Width > w.canvas.Width+tolerance || at.Y+size.Height > w.canvas.Height+tolerance {
			w.add(o, at, size, fmt.Sprintf("reaches past the %.0fx%.0f canvas", w.canvas.Width, w.canvas.Height))
		}
		if why := squeezed(o, size); why != "" {
			w.add(o, at, size, why)
		}
	}
	switch v := o.(type) {
	case *container.Scroll:
		w.walk(v.Content, at, true)
	case *widget.Table, *widget.List, *widget.Tree, *widget.GridWrap, *widget.Entry:
		// They scroll their rows (and a table its header) inside their
		// own bounds, checked above.
		w.within(o.(fyne.Widget), at)
	case *fyne.Container:
		for _, child := range v.Objects {
			w.walk(child, at, scrolled)
		}
	case fyne.Widget:
		for _, child := range test.WidgetRenderer(v).Objects() {
			w.walk(child, at, scrolled)
		}
	}
}

// within walks a self-scrolling widget's parts as scrolled.
func (w *walker) within(o fyne.Widget, at fyne.Position) {
	for _, child := range test.WidgetRenderer(o).Objects() {
		w.walk(child, at, true)
	}
}

func (w *walker) add(o fyne.CanvasObject, at fyne.Position, size fyne.Size, reason string) {
	what := describe(o)
	if len(w.stack) > 0 {
		what += " in " + strings.Join(w.stack[max(0, len(w.stack)-3):], " < ")
	}
	w.problems = append(w.problems, Problem{What: what, Pos: at, Size: size, Reason: reason})
}

// squeezed says why a text widget shows less than its text, "" if not.
func squeezed(o fyne.CanvasObject, size fyne.Size) string {
	switch v := o.(type) {
	case *widget.Label:
		if v.Truncation != fyne.TextTruncateOff || v.Wrapping != fyne.TextWrapOff {
			return ""
		}
	case *widget.Button, *widget.Check, *widget.Select, *widget.RadioGroup:
	default:
		return ""
	}
	if need := o.MinSize().Width; size.Width+tolerance < need {
		return fmt.Sprintf("%.0f px wide, its text needs %.0f", size.Width, need)
	}
	return ""
}

// describe names a widget by type and, where it has one, its text.
func describe(o fyne.CanvasObject) string {
	name := fmt.Sprintf("%T", o)
	text := ""
	switch v := o.(type) {
	case *widget.Label:
		text = v.Text
	case *widget.Button:
		text = v.Text
	case *widget.Check:
		text = v.Text
	case *widget.Select:
		text = v.Selected
	case *widget.Entry:
		text = v.Text
	}
	if text != "" {
		if len(text) > 60 {
			text = text[:60] + "…"
		}
		name += " " + strings.TrimSpace(fmt.Sprintf("%q", text))
	}
	return name
}
