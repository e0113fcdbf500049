package app

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// tapRadio taps the option label of g as a user would.
func tapRadio(t *testing.T, g *widget.RadioGroup, label string) {
	t.Helper()
	for i, o := range g.Options {
		if o == label {
			test.Tap(test.WidgetRenderer(g).Objects()[i].(fyne.Tappable))
			return
		}
	}
	t.Fatalf("no option %q in %v", label, g.Options)
}

// layoutDGXSU lays out one DGX H100 SU (256 GPUs) at 40.8 kW a rack
// (NVIDIA: 4 DGX H100 a rack) with the leaves at the end of the row, on
// the Layout tab.
func layoutDGXSU(t *testing.T) *UI {
	t.Helper()
	u := newTestUI(t)
	for _, kv := range [][2]string{{"cluster.system", "dgx-h100"}, {"cluster.gpus", "256"}, {"facility.layout", "true"},
		{"facility.rack_kw", "40.8"}, {"facility.leaf_placement", "end"}} {
		u.edit(kv[0], kv[1])
	}
	u.WaitIdle()
	u.SelectTab(TabLayout)
	u.WaitIdle()
	if u.m.Plan().Hall == nil {
		t.Fatal("no hall after turning the layout on")
	}
	return u
}

// Tapping a tier in the Layout tab shows its runs; tapping it again
// hides them. The first server-leaf run is worked by hand in planner's
// TestRunsOfLongest: server 1 in R2-01 at U1 to leaf 8 in R2-09 at U33,
// (2.4 - 4 x 0.04445) + (2.4 - 32.5 x 0.04445) + 4.8 + 2 = 9.98 m,
// sold at 10 m; the SU has 256 server-leaf links and 256 leaf-spine
// links (8 leaves x 32 uplinks). Catches: the tap not reaching the
// detail, the wrong tier detailed, a panel left showing after the pick
// is cleared, tiers offered that the plan does not have.
func TestLayoutTierRunsTap(t *testing.T) {
	u := layoutDGXSU(t)
	v := u.layout.runs
	if got := strings.Join(v.pick.Options, ","); got != "Server-leaf,Leaf-spine" {
		t.Fatalf("tiers offered %q, want Server-leaf,Leaf-spine (two tiers)", got)
	}
	if v.panel.Visible() {
		t.Fatal("runs panel shown before any pick")
	}
	for _, tc := range []struct {
		tier string
		want []string
	}{
		{"Server-leaf", []string{"Server-leaf: 256 links", "10.0 m run, 10 m", "R2-01 U1 → R2-09 U33 (su1-node1 → p1-su1-leaf-r8)"}},
		{"Leaf-spine", []string{"Leaf-spine: 256 links", "Links by medium and length sold:"}},
	} {
		tapRadio(t, v.pick, tc.tier)
		u.WaitIdle()
		if !v.panel.Visible() {
			t.Fatalf("%s: panel hidden", tc.tier)
		}
		for _, w := range tc.want {
			if !strings.Contains(v.detail.Text, w) {
				t.Errorf("%s: detail lacks %q:\n%s", tc.tier, w, v.detail.Text)
			}
		}
	}
	tapRadio(t, v.pick, "Leaf-spine") // a second tap clears the pick
	u.WaitIdle()
	if v.panel.Visible() {
		t.Error("panel still shown after the pick was cleared")
	}
}

// An edit typed between the tap and its result: the detail must end on
// the new plan's runs (512 GPUs: 512 server-leaf links), not the old
// plan's 256, and equal what the new plan details. Catches: the detail
// not worked out again when the plan changes, the old walk's result
// landing over the new one.
func TestLayoutTierRunsFollowEdit(t *testing.T) {
	u := layoutDGXSU(t)
	v := u.layout.runs
	tapRadio(t, v.pick, "Server-leaf") // its result waits in the queue
	u.edit("cluster.gpus", "512")
	u.WaitIdle()
	p := u.m.Plan()
	d, err := p.RunsOf(context.Background(), "server_leaf", tierRunsLongest)
	if err != nil {
		t.Fatal(err)
	}
	if d.Links != 512 || !strings.HasPrefix(v.detail.Text, "Server-leaf: 512 links") || v.detail.Text != tierRunsText(d) {
		t.Errorf("after 512 GPUs the detail reads:\n%s\nwant the new plan's:\n%s", v.detail.Text, tierRunsText(d))
	}
}
