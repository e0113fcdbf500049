package app

import (
	"strings"
	"testing"

	"fabricplan/app/model"
	"fabricplan/planner"
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
	if part("ECMP flow collisions") >= 0 {
		t.Error("ECMP row on InfiniBand")
	}
	pick(u, "network.fabric", model.FabricEthernet)
	pick(u, "network.load_balancing", planner.LBECMP)
	u.WaitIdle()
	i := part("ECMP flow collisions")
	if i < 0 || !strings.HasPrefix(s.stepCell(i, 1), "+") || !strings.Contains(s.stepCell(i, 2), "fair share") {
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
