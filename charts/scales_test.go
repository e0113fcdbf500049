package charts

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// moneyToken is an amount as charts write it: "$1.35B", "$940.10M",
// "$15,000", "-$2.5k".
var moneyToken = regexp.MustCompile(`\$\d[\d,]*(?:\.\d+)?([kMB]?)`)

// shortCount is a tick label that writes a count in a short scale ("8k",
// "64k", "1Mi", "1.5M").
var shortCount = regexp.MustCompile(`^\d+(?:\.\d+)?(?:k|Mi|M)$`)

// scaleMix lists what mixes scales in one drawn chart: a panel whose
// amounts are written in more than one scale ("$2B" ticks beside a
// "$940.10M" label), an amount outside the panels (footnote, figure
// title) in a scale no panel uses, and a count tick in a short scale.
func scaleMix(boxes []TextBox, panels []vg.Rectangle) []string {
	inPanel := func(b TextBox) int {
		cx, cy := (b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2
		for i, r := range panels {
			if cx >= r.Min.X && cx <= r.Max.X && cy >= r.Min.Y && cy <= r.Max.Y {
				return i
			}
		}
		return -1
	}
	scales := map[int]map[string][]string{} // panel (-1: outside) -> scale -> amounts
	var out []string
	for _, b := range boxes {
		if shortCount.MatchString(strings.TrimSpace(b.Text)) {
			out = append(out, fmt.Sprintf("count tick %q is in a short scale; counts are written in full", b.Text))
		}
		for _, m := range moneyToken.FindAllStringSubmatch(b.Text, -1) {
			if strings.Trim(m[0], "$0,.") == "" {
				continue // $0 is in every scale
			}
			i := inPanel(b)
			if scales[i] == nil {
				scales[i] = map[string][]string{}
			}
			scales[i][m[1]] = append(scales[i][m[1]], m[0])
		}
	}
	used := map[string]bool{}
	for i, s := range scales {
		if i < 0 {
			continue
		}
		for k := range s {
			used[k] = true
		}
		if len(s) > 1 {
			out = append(out, fmt.Sprintf("panel %d writes one amount in %d scales: %s", i+1, len(s), describe(s)))
		}
	}
	if outside := scales[-1]; len(outside) > 0 {
		for k, amounts := range outside {
			if len(used) > 0 && !used[k] {
				out = append(out, fmt.Sprintf("outside the panels %v is in a scale no panel uses", amounts))
			}
		}
		if len(used) == 0 && len(outside) > 1 {
			out = append(out, "the text outside the panels mixes scales: "+describe(outside))
		}
	}
	return out
}

func describe(s map[string][]string) string {
	var parts []string
	for k, v := range s {
		name := k
		if name == "" {
			name = "whole dollars"
		}
		parts = append(parts, fmt.Sprintf("%s %v", name, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// Every chart, for every example scenario and the odd ones, writes each
// amount of one panel in one scale (ticks, bar values, legend, title),
// the footnote's amounts in the panels' scales, and counts in full.
// Mutations caught: a label formatted on its own (textfmt.USD)
// beside the panel's ticks ("$2B" axis, "$940.10M" legend at 100k GPUs;
// "$15k" and "$5,000" on one per-GPU axis; "$92.7M" and "$104.21M" on one
// tornado), a footnote amount in a scale of its own, and short count
// ticks ("8k") beside a title's "400,000".
func TestChartsKeepOneScalePerQuantity(t *testing.T) {
	for _, fd := range fitDrawings(t) {
		if fd.format != "png" {
			continue // the text is the same in every format
		}
		for _, msg := range scaleMix(fd.d.Text, fd.panels) {
			t.Errorf("%s: %s", fd, msg)
		}
	}
}

// The check itself, on hand-made text: one panel with "$2B" ticks and a
// "$940.10M" label fails; the same amounts as "$0.940B" pass; a footnote
// amount in a scale no panel uses fails; "8k" as a tick fails. Mutation
// caught: a scale check that never fails.
func TestScaleMixCatchesMixedScales(t *testing.T) {
	panel := []vg.Rectangle{{Min: vg.Point{X: 0, Y: 100}, Max: vg.Point{X: 500, Y: 400}}}
	box := func(s string, y vg.Length) TextBox {
		return TextBox{Text: s, Min: vg.Point{X: 10, Y: y}, Max: vg.Point{X: 60, Y: y + 8}}
	}
	for _, c := range []struct {
		name  string
		boxes []TextBox
		fails bool
	}{
		{"ticks in B, label in M", []TextBox{box("$0", 150), box("$2B", 200), box("this plan: $940.10M, 5.1 hours", 300)}, true},
		{"all in B", []TextBox{box("$0", 150), box("$2B", 200), box("this plan: $0.940B, 5.1 hours", 300)}, false},
		{"k and whole dollars", []TextBox{box("$15k", 200), box("$5,000", 250)}, true},
		{"footnote in its own scale", []TextBox{box("$2B", 200), box("All prices low: $80.62M", 20)}, true},
		{"footnote in the panel's scale", []TextBox{box("$2B", 200), box("All prices low: $0.806B", 20)}, false},
		{"short count tick", []TextBox{box("8k", 200), box("Goodput at 400,000", 300)}, true},
		{"full count tick", []TextBox{box("8,192", 200), box("Goodput at 400,000", 300)}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := scaleMix(c.boxes, panel)
			if (len(got) > 0) != c.fails {
				t.Errorf("scaleMix = %v, want a failure: %v", got, c.fails)
			}
		})
	}
}

// maxFootLines is the most lines a footnote takes at the window's
// smallest chart size (760 x 460 px): about a fifth of the page's height.
const maxFootLines = 5

// Every chart, for every example scenario and the odd ones, cuts no text
// short (no "…" but the topology's lone mark for boxes not drawn) at the
// export and the window's smallest size, and keeps its footnote to
// maxFootLines at the smallest. Mutations caught: a part name cut at 34
// characters in the tornado ("2x400G OSFP DR8 twin-port (MMS4X0…"), a
// switch name cut under its bar ("tomahaw…" at 760x460), the market's
// full footnote drawn in 7 lines at 760x460.
func TestChartsCutNoTextAndKeepFootnotesShort(t *testing.T) {
	small := fitSizes[len(fitSizes)-1]
	for _, fd := range fitDrawings(t) {
		if fd.format != "png" {
			continue // the text is the same in every format
		}
		for _, b := range fd.d.Text {
			if strings.Contains(b.Text, "…") && b.Text != "…" {
				t.Errorf("%s: %q is cut short", fd, b.Text)
			}
		}
		if fd.size != small {
			continue
		}
		w, h := small.points()
		if n := len(fd.fig.footLines(vg.Rectangle{Max: vg.Point{X: w, Y: h}}, footStyle())); fd.fig.Footnote != "" && n > maxFootLines {
			t.Errorf("%s: the footnote takes %d lines, want at most %d", fd, n, maxFootLines)
		}
	}
}
