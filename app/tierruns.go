package app

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// tierRunsSplit is the share of the Layout tab's width the picture
// keeps while a tier's runs show beside it.
const tierRunsSplit = 0.64

// tierRunsLongest is how many of a tier's longest runs the window lists.
const tierRunsLongest = 8

// tierLabels name the link tiers in the window, by planner key.
var tierLabels = []struct{ key, label string }{
	{"server_leaf", "Server-leaf"},
	{"leaf_spine", "Leaf-spine"},
	{"spine_core", "Spine-core"},
}

// tierRunsView is the Layout tab's tier picker and the picked tier's
// runs: counts by medium and length, cable metres, transceivers, the
// cabling's cost and the longest runs with their racks. The longest
// runs take a walk of every link, so the detail is worked out off the
// UI goroutine; a newer plan or pick cancels the walk under way.
type tierRunsView struct {
	u      *UI
	bar    *fyne.Container
	pick   *widget.RadioGroup
	detail *widget.Label
	panel  *container.Scroll
	plan   *planner.Plan
	gen    int
	cancel context.CancelFunc
	// want is a tier picked before the plan offered it.
	want string
	// onPick is called after a pick (the floor plan draws the tier's
	// runs).
	onPick func()
}

func newTierRunsView(u *UI) *tierRunsView {
	v := &tierRunsView{u: u, detail: widget.NewLabel("")}
	v.detail.Wrapping = fyne.TextWrapWord
	v.detail.Selectable = true
	v.pick = widget.NewRadioGroup(nil, func(string) {
		v.show(v.plan)
		if v.onPick != nil {
			v.onPick()
		}
	})
	v.pick.Horizontal = true
	// Fyne sizes a radio item's text box the item's full width, starting
	// after the button, so the box reaches an icon and a padding past the
	// item: keep that much room after the group, or a row that ends with
	// it reaches past the window.
	overhang := canvas.NewRectangle(color.Transparent)
	overhang.SetMinSize(fyne.NewSize(theme.IconInlineSize()+theme.InnerPadding(), 0))
	v.bar = container.NewHBox(widget.NewLabel("Runs of:"), v.pick, overhang)
	v.panel = container.NewVScroll(v.detail)
	v.panel.Hide()
	return v
}

// show offers the tiers of plan p and works out the picked tier's runs
// in the background (nothing picked: the panel hides).
func (v *tierRunsView) show(p *planner.Plan) {
	v.plan = p
	if p == nil {
		return
	}
	v.offer(p)
	v.gen++
	if v.cancel != nil {
		v.cancel()
		v.cancel = nil
	}
	key := tierKey(v.pick.Selected)
	if key == "" {
		v.panel.Hide()
		return
	}
	gen := v.gen
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	v.detail.SetText("Working out the " + v.pick.Selected + " runs…")
	v.panel.Show()
	v.u.work.add()
	go func() {
		defer v.u.work.done()
		var d planner.TierRuns
		err := protect("listing a tier's runs", func() (err error) {
			d, err = p.RunsOf(ctx, key, tierRunsLongest)
			return err
		})
		v.u.onUI(func() {
			if gen != v.gen {
				return // a newer plan or pick
			}
			cancel()
			v.cancel = nil
			if err != nil {
				v.detail.SetText(err.Error())
				return
			}
			v.detail.SetText(tierRunsText(d))
			v.panel.ScrollToTop()
		})
	}()
}

// offer sets the picker's options to the plan's link tiers, dropping a
// pick the plan no longer has.
func (v *tierRunsView) offer(p *planner.Plan) {
	var opts []string
	for _, t := range p.LinkTiers {
		if l := tierLabel(t.Name); l != "" {
			opts = append(opts, l)
		}
	}
	if v.want == "" && slices.Equal(opts, v.pick.Options) {
		return
	}
	v.pick.Options = opts
	if slices.Contains(opts, v.want) {
		v.pick.Selected, v.want = v.want, ""
	}
	keep := false
	for _, o := range opts {
		keep = keep || o == v.pick.Selected
	}
	if !keep {
		v.pick.Selected = ""
	}
	v.pick.Refresh()
}

// selectTier picks the tier labelled label (case-insensitive, "-" or
// "_" alike), now or, before the first plan, once the plan offers it;
// false when no tier has that name.
func (v *tierRunsView) selectTier(label string) bool {
	label = strings.ReplaceAll(label, "_", "-")
	for _, t := range tierLabels {
		if equalFold(t.label, label) {
			v.want = t.label
			if p := v.u.m.Plan(); p != nil {
				v.show(p)
			}
			return true
		}
	}
	return false
}

func tierKey(label string) string {
	for _, t := range tierLabels {
		if t.label == label {
			return t.key
		}
	}
	return ""
}

func tierLabel(key string) string {
	for _, t := range tierLabels {
		if t.key == key {
			return t.label
		}
	}
	return ""
}

// shortMedium names a medium in a few letters: the cable kind, or the
// fibre's mode for links on transceivers.
func shortMedium(m planner.Medium) string {
	switch m {
	case planner.Optics:
		return "single-mode"
	case planner.Multimode:
		return "multimode"
	}
	return m.Label()
}

// tierRunsText is a tier's runs as the panel shows them.
func tierRunsText(d planner.TierRuns) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s links, %s m of cable, %s; cabling %s (cables and transceivers).\n",
		tierLabel(d.Tier), textfmt.Int(d.Links), textfmt.Int(int(d.CableM+0.5)), textfmt.Plural(d.Optics, "transceiver"), textfmt.USD(d.CostUSD))
	if !d.Laid {
		b.WriteString("No data-hall layout: every link is costed at the tier's length.\n")
	}
	b.WriteString("\nLinks by medium and length sold:")
	var med planner.Medium
	for i, r := range d.Runs {
		if i == 0 || r.Medium != med {
			med = r.Medium
			fmt.Fprintf(&b, "\n%s: ", shortMedium(r.Medium))
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s × %g m", textfmt.Int(r.Links), r.Metres)
	}
	if len(d.Longest) > 0 {
		b.WriteString("\n\nLongest runs (racks are R<row>-<position>):")
	}
	for _, l := range d.Longest {
		fmt.Fprintf(&b, "\n%.1f m run, %g m %s: %s U%d → %s U%d (%s → %s)", l.RunM, l.Metres, shortMedium(l.Medium),
			l.From, l.FromU, l.To, l.ToU, l.ADevice, l.BDevice)
	}
	return b.String()
}
