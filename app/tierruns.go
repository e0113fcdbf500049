package app

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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
}

func newTierRunsView(u *UI) *tierRunsView {
	v := &tierRunsView{u: u, detail: widget.NewLabel("")}
	v.detail.Wrapping = fyne.TextWrapWord
	v.detail.Selectable = true
	v.pick = widget.NewRadioGroup(nil, func(string) { v.show(v.plan) })
	v.pick.Horizontal = true
	v.bar = container.NewHBox(widget.NewLabel("Runs of:"), v.pick)
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
	if strings.Join(opts, "\x00") == strings.Join(v.pick.Options, "\x00") {
		return
	}
	v.pick.Options = opts
	keep := false
	for _, o := range opts {
		keep = keep || o == v.pick.Selected
	}
	if !keep {
		v.pick.Selected = ""
	}
	v.pick.Refresh()
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

// tierRunsText is a tier's runs as the panel shows them.
func tierRunsText(d planner.TierRuns) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s links, %s m of cable, %s; cabling %s (cables and transceivers).\n",
		tierLabel(d.Tier), textfmt.Int(d.Links), textfmt.Int(int(d.CableM+0.5)), textfmt.Plural(d.Optics, "transceiver"), textfmt.USD(d.CostUSD))
	if !d.Laid {
		b.WriteString("No data-hall layout: every link is costed at the tier's length.\n")
	}
	b.WriteString("\nBy medium and length sold:\n")
	var med planner.Medium
	for i, r := range d.Runs {
		if i == 0 || r.Medium != med {
			if i > 0 {
				b.WriteString("\n")
			}
			med = r.Medium
			fmt.Fprintf(&b, "%s: ", r.Medium.Label())
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s × %g m", textfmt.Int(r.Links), r.Metres)
	}
	b.WriteString("\n")
	if len(d.Longest) > 0 {
		b.WriteString("\nLongest runs (run, length sold):\n")
	}
	for _, l := range d.Longest {
		fmt.Fprintf(&b, "%.1f m, %g m %s: %s (row %d, U%d) → %s (row %d, U%d), %s → %s\n", l.RunM, l.Metres, strings.ToLower(l.Medium.Label()),
			l.From, l.FromRow, l.FromU, l.To, l.ToRow, l.ToU, l.ADevice, l.BDevice)
	}
	return strings.TrimRight(b.String(), "\n")
}
