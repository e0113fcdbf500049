package app

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

// The Summary's step-time tab lists the JCT model's parts and effects,
// and follows the inputs: static ECMP adds an ECMP row, a plan without an
// estimate empties it. Mutations caught: the tab left on the first plan,
// effects not shown, a stale breakdown beside the "no estimate" note.
func TestSummaryStepTime(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "4096")
	u.WaitIdle()
	s := u.summary
	if !u.SelectTab("Summary/Step time") || s.lower.Selected().Text != "Step time" {
		t.Fatal("Summary/Step time not selectable")
	}
	part := func(name string) int {
		for i := range s.steps {
			if strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.stepCell(i, 0)), "effect:")) == name {
				return i
			}
		}
		return -1
	}
	if part("compute") != 0 || part("step") < 0 || part("back end, all effects") < 0 {
		t.Fatalf("rows %v", s.steps)
	}
	if part(perf.EffectECMP) >= 0 {
		t.Error("static routing row on adaptive InfiniBand")
	}
	pick(u, "network.fabric", model.FabricEthernet)
	pick(u, "network.load_balancing", planner.LBECMP)
	u.WaitIdle()
	i := part(perf.EffectECMP)
	if i < 0 || !strings.HasPrefix(s.stepCell(i, 1), "+") || !strings.Contains(s.stepCell(i, 2), "most loaded link") {
		t.Fatalf("ECMP row %d in %v", i, s.steps)
	}
	// The default workload (tp 8 x pp 4) does not fit 16 GPUs: the plan
	// has no estimate.
	pick(u, "workload.model", model.WorkloadNone)
	typeIn(u, "cluster.gpus", "16")
	if p := u.Plan(); p == nil || p.JCT != nil || p.GPUs != 16 {
		t.Fatalf("16 GPUs: plan %v", p)
	}
	if len(s.steps) != 0 || !strings.Contains(s.stepNote.Text, "No JCT estimate") {
		t.Errorf("no estimate: %d rows, note %q", len(s.steps), s.stepNote.Text)
	}
}

// A job that does not fit in memory keeps every fabric card; the JCT card
// says it does not fit, by how much, and the step with the cheapest change
// that fits, and the step tab says so too. Mutations caught: the window
// blanking the cards on a memory finding (the old error), the JCT card
// showing the gain as if the job ran, the finding left off the step tab.
func TestSummaryInfeasibleKeepsFabric(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "1024")
	pick(u, "workload.model", "llama3-70b")
	typeIn(u, "workload.micro_batch", "4")
	u.WaitIdle()
	p := u.Plan()
	if p == nil || p.JCT == nil || p.JCT.FitsMemory() || u.Dimmed() {
		t.Fatalf("plan %v, dimmed %v", p, u.Dimmed())
	}
	c := u.summary.cards
	for _, name := range []string{"Servers", "Switches", "Fabric cost", "Power"} {
		if v := c[name].value.Text; v == "–" || v == "" {
			t.Errorf("%s card blank: %q", name, v)
		}
	}
	jct := c["JCT gain over TCP/IP"]
	if jct.value.Text != "does not fit" || !strings.Contains(jct.detail.Text, "GB over") || !strings.Contains(jct.detail.Text, "with micro_batch = 2") {
		t.Errorf("JCT card %q: %q", jct.value.Text, jct.detail.Text)
	}
	if !strings.Contains(u.summary.stepNote.Text, "if it fit in memory") || !strings.Contains(u.summary.notes.Text, "cheapest change that fits") {
		t.Errorf("step note %q, notes %q", u.summary.stepNote.Text, u.summary.notes.Text)
	}
	// Back to a micro-batch that fits: the card shows the gain again.
	typeIn(u, "workload.micro_batch", "1")
	u.WaitIdle()
	if v := c["JCT gain over TCP/IP"].value.Text; !strings.HasSuffix(v, "x") {
		t.Errorf("after the fix the JCT card reads %q", v)
	}
}

// A pipeline with fewer micro-batches than stages is called out in the
// Summary: the JCT card says the bubble's share, the step tab points to
// the Notes tab, which holds the finding and its fix; at 1,024 GPUs
// there is none. Mutations caught: the finding kept out of the window,
// left behind after the cluster shrinks.
func TestSummaryShortPipeline(t *testing.T) {
	u := newTestUI(t)
	pick(u, "network.nic_gbps", "800G")
	typeIn(u, "cluster.gpus", "100000")
	u.WaitIdle()
	s := u.summary
	card := s.cards["JCT gain over TCP/IP"].detail.Text
	if !strings.Contains(card, "bubble is") || !strings.Contains(s.notes.Text, "pipeline short of micro-batches") ||
		!strings.Contains(s.notes.Text, "global_batch_tokens = 102,400,000") || !strings.Contains(s.stepNote.Text, "bubble") {
		t.Fatalf("100k GPUs: card %q\nnotes %q\nstep %q", card, s.notes.Text, s.stepNote.Text)
	}
	typeIn(u, "cluster.gpus", "1024")
	u.WaitIdle()
	if strings.Contains(s.notes.Text, "pipeline short") || strings.Contains(s.cards["JCT gain over TCP/IP"].detail.Text, "bubble is") {
		t.Errorf("1,024 GPUs keep the finding: %q", s.notes.Text)
	}
}

// The Summary offers a cheaper design in one line with a button that
// loads it, and hides the offer when the plan has none. 2,056 GPUs in one
// plane need three tiers; two planes stay at two for about a quarter
// less (planner.TestFindCheaper). Mutations caught: the offer not
// shown, the button loading nothing or the wrong field, the line left
// up after the inputs change to a plan with no cheaper design.
func TestSummaryCheaperOffer(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "2056")
	u.WaitIdle()
	s := u.summary
	if s.cheaperBar.Hidden || !strings.Contains(s.cheaper.Text, "2 planes at 2 tiers") {
		t.Fatalf("offer hidden %v, %q", s.cheaperBar.Hidden, s.cheaper.Text)
	}
	s.cheaperLoad.OnTapped()
	u.WaitIdle()
	if got := u.m.Scenario().Network.Planes; got != 2 {
		t.Fatalf("after loading: %d planes, want 2", got)
	}
	if p := u.Plan(); p == nil || p.Tiers != 2 || p.Planes != 2 {
		t.Fatalf("after loading: plan %v", p)
	}
	if !s.cheaperBar.Hidden {
		t.Errorf("offer still shown for the cheaper plan: %q", s.cheaper.Text)
	}
}

// TestSummaryShowsWhatTheBackEndAdds: the Summary leads with what the back
// end adds to the whole cluster, and its Networks tab lists every network
// with a whole-cluster row; an edit that changes the back end changes the
// line (a transition, not only a settled state). Mutations caught: the
// line not updated on a new plan; the table missing a network or the
// total; the protocol's-share label dropped from the JCT card.
func TestSummaryShowsWhatTheBackEndAdds(t *testing.T) {
	u := newTestUI(t)
	s := u.summary
	before := s.nets.adds.Text
	if !strings.HasPrefix(before, "Whole cluster: the back end adds") {
		t.Fatalf("line %q", before)
	}
	if n := len(s.nets.rows); n != 5 {
		t.Fatalf("%d networks, want back end, front end, storage, out-of-band and management", n)
	}
	if got := s.nets.cell(len(s.nets.rows), 0); got != "whole cluster" {
		t.Errorf("last row %q", got)
	}
	if got := s.nets.cell(0, 0); got != "back end (compute)" {
		t.Errorf("first row %q", got)
	}
	if !strings.Contains(s.cards["JCT gain over TCP/IP"].detail.Text, "protocol's share") {
		t.Errorf("JCT card %q", s.cards["JCT gain over TCP/IP"].detail.Text)
	}
	typeIn(u, "cluster.gpus", "4096")
	if !u.SelectTab("Summary/Networks") || s.lower.Selected().Text != "Networks" {
		t.Error("Summary/Networks not selectable")
	}
	if after := s.nets.adds.Text; after == before {
		t.Errorf("the line did not follow the new plan: %q", after)
	}
}

// The BOM's totals share one scale: on the default plan the largest is
// the NICs' $1.94M (1,024 x $1,894, research/prices.md street), so the
// 16 spines' $576,000 (16 x $36,000) are written "$0.576M", not
// "$576.0k". Mutation caught: each total in its own scale.
func TestBOMTotalsShareOneScale(t *testing.T) {
	u := newTestUI(t)
	rows := len(u.summary.rows)
	if rows == 0 {
		t.Fatal("no BOM rows")
	}
	found := false
	for r := 0; r < rows; r++ {
		cell := u.summary.bomCell(r, 4)
		if !strings.HasSuffix(cell, "M") {
			t.Errorf("row %d total %q: want millions like the largest", r, cell)
		}
		found = found || cell == "$0.576M"
	}
	if !found {
		t.Error("no row reads $0.576M (the 16 spines at $36,000)")
	}
}

// The six key figures sit where a 1024x640 or 1280x800 window shows them
// without scrolling, for plans whose cards carry long details (100,000
// GPUs on XDR with a fabric-share band, GB200 NVL72 racks) as well as
// the default. The headless twin of the root package's screenshot
// check (TestSummaryKeyFiguresOnScreen). Mutations caught: the key
// cards after the whole cluster's line and the other cards, their height
// not kept (cost per GPU, power and the JCT gain scrolled away, the old
// Summary); the tables below not in a scroll (given less than their
// least height, the BOM's hint was drawn over the tab bar).
func TestSummaryKeyFiguresWithoutScrolling(t *testing.T) {
	u := newTestUI(t)
	for _, tc := range []struct {
		name string
		edit func()
	}{
		{"default", func() {}},
		{"100k XDR", func() {
			typeIn(u, "cluster.gpus", "100000")
			pick(u, "network.nic_gbps", "800G")
		}},
		{"gb200 nvl72 4,608", func() {
			pick(u, "cluster.system", "gb200-nvl72")
			typeIn(u, "cluster.gpus", "4608")
		}},
	} {
		tc.edit()
		u.WaitIdle()
		if p := u.Plan(); p == nil || u.State().Status != model.Current {
			t.Fatalf("%s: no current plan", tc.name)
		}
		t.Logf("%s: %d GPUs at %dG, system %v", tc.name, u.Plan().GPUs, u.Plan().Scenario.Network.NICGbps, u.Plan().System != nil)
		u.SelectTab(TabSummary)
		for _, size := range []fyne.Size{{Width: 1024, Height: 640}, {Width: 1280, Height: 800}} {
			u.win.Resize(size)
			if hidden := u.HiddenKeyFigures(); len(hidden) > 0 {
				t.Errorf("%s at %.0fx%.0f: %v need scrolling", tc.name, size.Width, size.Height, hidden)
			}
			// The tables below keep their least height and scroll, rather
			// than lay their hint out over their own tab bar.
			lower := u.summary.content.(*fyne.Container).Objects[1]
			if sc, ok := lower.(*container.Scroll); ok {
				lower = sc.Content
			}
			if got, least := lower.Size().Height, lower.MinSize().Height; got < least-0.5 {
				t.Errorf("%s at %.0fx%.0f: the tables get %.0f px of their least %.0f", tc.name, size.Width, size.Height, got, least)
			}
		}
	}
}

// The lower tabs' labels whose text an edit of the count changes (the
// notes, the step note, the per-SU heading) are laid out only while
// their tab shows: an edit with another tab showing keeps the new text
// (Text) without wrapping it, and selecting the tab lays it out; an
// edit while it shows lays it out at once. Mutations caught: a label
// wrapped on every edit whatever the tab (SetText; wrapped at the 16 px
// of a hidden tab, a changed bullet was measured word by word), the tab
// showing old text when selected (no layout on selection), an edit not
// shown in the open tab.
func TestSummaryLowerLabelsLaidOutWhenShown(t *testing.T) {
	for _, tc := range []struct {
		tab   string
		label func(*summaryTab) *wrapLabel
		a, b  string // two counts whose texts differ
	}{
		{"Summary/Notes", func(s *summaryTab) *wrapLabel { return s.notes }, "4096", "4100"}, // 4,100 leave GPUs idle
		{"Summary/Step", func(s *summaryTab) *wrapLabel { return s.stepNote }, "4096", "8192"},
		{"Summary/Per", func(s *summaryTab) *wrapLabel { return s.suHeading }, "4096", "8192"},
	} {
		t.Run(tc.tab, func(t *testing.T) {
			u := newTestUI(t)
			l := tc.label(u.summary)
			drawn := func() string {
				return test.WidgetRenderer(l).(*wrapLabelRenderer).text
			}
			typeIn(u, "cluster.gpus", tc.a)
			u.SelectTab(tc.tab)
			first := l.Text
			if got := drawn(); got != first {
				t.Fatalf("%s GPUs, tab showing: drawn %q, text %q", tc.a, got, first)
			}
			u.SelectTab("Summary/Bill")
			typeIn(u, "cluster.gpus", tc.b)
			if l.Text == first {
				t.Fatalf("%s and %s GPUs: the same text %q", tc.a, tc.b, first)
			}
			if got := drawn(); got != first {
				t.Errorf("laid out while the tab was hidden: drawn %q", got)
			}
			u.SelectTab(tc.tab)
			if got := drawn(); got != l.Text {
				t.Errorf("tab selected: drawn %q, want %q", got, l.Text)
			}
			typeIn(u, "cluster.gpus", tc.a)
			if got := drawn(); got != first || l.Text != first {
				t.Errorf("%s GPUs again, tab showing: drawn %q, text %q, want %q", tc.a, got, l.Text, first)
			}
		})
	}
}

// The Summary's lower tables are refreshed only while their tab shows:
// an edit with the table showing shows the new plan's rows at once; an
// edit with another tab showing leaves a table shown before as it was
// (each changed cell of a hidden table was set and shaped again); and
// selecting the tab shows the new rows. Mutations caught: a hidden
// table refreshed on every edit, a showing table not refreshed, the
// wrong tab's table refreshed.
func TestSummaryTablesRefreshedWhenShown(t *testing.T) {
	for _, tc := range []struct {
		tab   string
		table func(*summaryTab) *widget.Table
	}{
		{"Summary/Per", func(s *summaryTab) *widget.Table { return s.perSU }},
		{"Summary/Step", func(s *summaryTab) *widget.Table { return s.step }},
		{"Summary/Networks", func(s *summaryTab) *widget.Table { return s.nets.table }},
		{"Summary/Bill", func(s *summaryTab) *widget.Table { return s.bom }},
	} {
		t.Run(tc.tab, func(t *testing.T) {
			u := newTestUI(t)
			table := tc.table(u.summary)
			other := "Summary/Notes"
			u.SelectTab(tc.tab)
			typeIn(u, "cluster.gpus", "4096")
			first := cellTexts(table)
			typeIn(u, "cluster.gpus", "8192")
			second := cellTexts(table)
			if slices.Equal(first, second) {
				t.Fatalf("the table showing kept its 4,096-GPU cells at 8,192: %q", second)
			}
			u.SelectTab(other)
			typeIn(u, "cluster.gpus", "4096")
			if got := cellTexts(table); !slices.Equal(got, second) {
				t.Errorf("refreshed while hidden: %q, want the 8,192-GPU cells %q", got, second)
			}
			u.SelectTab(tc.tab)
			if got := cellTexts(table); !slices.Equal(got, first) {
				t.Errorf("shown again: %q, want the 4,096-GPU cells %q", got, first)
			}
		})
	}
}

// cellTexts is the text table's cells show, sorted (cells are reused in
// any order).
func cellTexts(table *widget.Table) []string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			out = append(out, x.Text)
		case *canvas.Text:
			out = append(out, x.Text)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	walk(table)
	slices.Sort(out)
	return out
}
