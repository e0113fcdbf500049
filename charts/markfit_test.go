package charts

import (
	"fmt"
	"image/color"
	"testing"

	"gonum.org/v1/plot/vg"
)

// markSlack is how far, in points, text may reach into a line or a
// shape before it counts: half a point is the width of a hairline.
const markSlack = vg.Length(0.5)

// light says whether c is pale enough (grid lines, white backings, the
// page) or translucent enough (the search's other designs, context
// behind the data) that text may lie over it.
func light(c color.Color) bool {
	if c == nil {
		return true
	}
	_, _, _, a := c.RGBA()
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	return a < 0xc000 || (n.R >= 0xc8 && n.G >= 0xc8 && n.B >= 0xc8)
}

// markClashes lists every string drawn over a line or across the edge of
// a filled shape: a legend over the data, a value label half over a bar,
// a point's name through the target line. Text wholly inside a shape (a
// share printed in its bar, a name in its box) is meant; so is text on a
// pale backing drawn over the mark before the text.
func markClashes(d Drawing) []string {
	var out []string
	page := float64(d.W * d.H)
	for _, b := range d.Text {
		in := TextBox{Min: vg.Point{X: b.Min.X + markSlack, Y: b.Min.Y + markSlack}, Max: vg.Point{X: b.Max.X - markSlack, Y: b.Max.Y - markSlack}}
		if in.Min.X >= in.Max.X || in.Min.Y >= in.Max.Y {
			continue
		}
		for _, m := range d.Marks {
			if light(m.Color) || (m.Fill && float64((m.Max.X-m.Min.X)*(m.Max.Y-m.Min.Y)) > page*0.4) {
				continue
			}
			box := TextBox{Min: m.Min, Max: m.Max}
			var hit bool
			if m.Fill {
				hit = in.Overlaps(box, 0) && !inside(b, box, markSlack)
			} else {
				for _, s := range m.Segments {
					if segmentHitsBox(s[0], s[1], vg.Rectangle{Min: in.Min, Max: in.Max}) {
						hit = true
						break
					}
				}
			}
			if hit && !backed(d.Marks, m, b) {
				what := "line"
				if m.Fill {
					what = "shape"
				}
				out = append(out, fmt.Sprintf("%q lies over a %s (%.1f,%.1f to %.1f,%.1f)", b.Text, what, m.Min.X, m.Min.Y, m.Max.X, m.Max.Y))
			}
		}
	}
	return out
}

// inside says whether box a lies within b, give or take slack.
func inside(a, b TextBox, slack vg.Length) bool {
	return a.Min.X >= b.Min.X-slack && a.Min.Y >= b.Min.Y-slack && a.Max.X <= b.Max.X+slack && a.Max.Y <= b.Max.Y+slack
}

// backed says whether a pale fill drawn after m and before the text
// covers the text: a label's backing, drawn to lift it off the lines.
func backed(marks []Mark, m Mark, b TextBox) bool {
	for _, l := range marks {
		if l.Fill && light(l.Color) && l.seq > m.seq && l.seq < b.seq && inside(b, TextBox{Min: l.Min, Max: l.Max}, markSlack) {
			return true
		}
	}
	return false
}

// Every chart, for every example scenario and the odd ones, at the
// export and the window's smallest size, draws no text over a line or
// across the edge of a bar or a point. Mutations caught: a legend drawn
// over the data (no headroom), a bar's value printed half over the next
// bar, a point's name placed through the target line or another point,
// a tick label through its axis.
func TestChartTextClearsMarks(t *testing.T) {
	for _, fd := range fitDrawings(t) {
		if fd.format != "png" {
			continue // the marks are the same in every format
		}
		if len(fd.d.Marks) == 0 {
			t.Errorf("%s: no marks recorded", fd)
		}
		for _, msg := range markClashes(fd.d) {
			t.Errorf("%s: %s", fd, msg)
		}
	}
}

// The check itself: a label half over a bar, a label through a line and
// a label on a backing over a line, by hand. Mutation caught: a mark
// check that never fails, or fails on every label in its bar.
func TestMarkClashesCatchesTextOverMarks(t *testing.T) {
	label := TextBox{Text: "$104.21M", Min: vg.Point{X: 100, Y: 100}, Max: vg.Point{X: 150, Y: 110}, seq: 5}
	bar := func(x0, x1 vg.Length, seq int) Mark {
		return Mark{Fill: true, Min: vg.Point{X: x0, Y: 90}, Max: vg.Point{X: x1, Y: 120}, Color: Palette[0], seq: seq}
	}
	line := Mark{Segments: [][2]vg.Point{{{X: 120, Y: 0}, {X: 120, Y: 300}}}, Color: Palette[5], seq: 1}
	backing := Mark{Fill: true, Min: vg.Point{X: 97, Y: 98}, Max: vg.Point{X: 153, Y: 112}, Color: color.White, seq: 3}
	for _, c := range []struct {
		name  string
		marks []Mark
		fails bool
	}{
		{"label half over a bar", []Mark{bar(130, 200, 1)}, true},
		{"label inside its bar", []Mark{bar(90, 200, 1)}, false},
		{"label beside a bar", []Mark{bar(20, 99, 1)}, false},
		{"label through a line", []Mark{line}, true},
		{"label on a backing over a line", []Mark{line, backing}, false},
		{"grid line under a label", []Mark{{Segments: line.Segments, Color: color.RGBA{0xdd, 0xdd, 0xdd, 0xff}}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := markClashes(Drawing{Text: []TextBox{label}, Marks: c.marks, W: 600, H: 400})
			if (len(got) > 0) != c.fails {
				t.Errorf("markClashes = %v, want a failure: %v", got, c.fails)
			}
		})
	}
}
