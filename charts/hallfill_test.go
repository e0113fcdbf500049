package charts

import (
	"image"
	"testing"

	"gonum.org/v1/plot/vg"
)

// Racks merged into blocks, and runs merged into stretches, draw the
// same picture as racks and runs drawn one by one: on a 16,384-GPU
// hall drawn small (racks under the merge width) with each tier's runs,
// at most 0.1% of pixels (1% with runs) differ by more than a shade
// from every pixel around them in the other picture. Mutations caught: racks of another colour or row merged into a
// block (a rack drawn the wrong colour), the gaps between merged racks
// left out, overlapping stretches merged past their ends (a run drawn
// where there is none), stretches not extended at the corners.
func TestFloorPlanMergedDrawsTheSame(t *testing.T) {
	in := hallInput(t, "dgx-h100", 16384)
	size := Size{700, 460, 96}
	render := func(mergeBelow vg.Length, merged bool, tier string) image.Image {
		t.Helper()
		saved, savedRuns := mergeRacksBelow, mergeRuns
		mergeRacksBelow, mergeRuns = mergeBelow, merged
		defer func() { mergeRacksBelow, mergeRuns = saved, savedRuns }()
		in.Tier = tier
		fig, err := FloorPlan(in)
		if err != nil {
			t.Fatal(err)
		}
		img, err := fig.Image(size)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	for _, tier := range []string{"", "server_leaf", "leaf_spine", "spine_core"} {
		one := render(0, false, tier)
		blocks := render(vg.Points(100), true, tier)
		b := one.Bounds()
		differ := 0
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if !nearMatch(one, blocks, x, y) || !nearMatch(blocks, one, x, y) {
					differ++
				}
			}
		}
		limit := 0.001
		if tier != "" {
			// Thin runs stacked pair on pair darken where they overlap
			// (their partly covered pixels add up); merged, a stretch
			// is drawn once: a lighter shade along the thinnest lines.
			limit = 0.01
		}
		share := float64(differ) / float64(b.Dx()*b.Dy())
		t.Logf("tier %q: %.3f%% of pixels differ", tier, 100*share)
		if share > limit {
			t.Errorf("tier %q: %.2f%% of pixels differ merged (%d)", tier, 100*share, differ)
		}
	}
}

// nearMatch says whether a's pixel at x, y is within a shade of one of
// b's at most a pixel away: antialiased edges of overlapping strokes
// add up to a slightly different shade than one stroke's edge.
func nearMatch(a, b image.Image, x, y int) bool {
	r0, g0, b0, _ := a.At(x, y).RGBA()
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			r1, g1, b1, _ := b.At(x+dx, y+dy).RGBA()
			if !far(r0, r1) && !far(g0, g1) && !far(b0, b1) {
				return true
			}
		}
	}
	return false
}

// far says two 16-bit channels differ by more than a shade (48 of 255).
func far(a, b uint32) bool {
	d := int(a>>8) - int(b>>8)
	return d > 48 || d < -48
}

// mergeSpans joins overlapping and touching stretches, and only those;
// worked by hand.
func TestMergeSpans(t *testing.T) {
	cases := []struct {
		in, want []span
	}{
		{[]span{{5, 7}, {1, 3}, {2, 4}}, []span{{1, 4}, {5, 7}}},
		{[]span{{1, 3}, {3, 5}}, []span{{1, 5}}},             // touching
		{[]span{{1, 10}, {2, 3}}, []span{{1, 10}}},           // inside
		{[]span{{1, 2}, {2.5, 3}}, []span{{1, 2}, {2.5, 3}}}, // apart
	}
	for _, c := range cases {
		got := mergeSpans(append([]span(nil), c.in...))
		if len(got) != len(c.want) {
			t.Errorf("mergeSpans(%v) = %v, want %v", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("mergeSpans(%v) = %v, want %v", c.in, got, c.want)
				break
			}
		}
	}
}
