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

// The BOM's totals share one scale: on the default plan the largest is
// the NICs' $2.24M (1,024 x $2,188, by hand), so the leaves' $432,000 is
// written "$0.432M", not "$432.0k". Mutation caught: each total in its
// own scale.
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
		found = found || cell == "$0.432M"
	}
	if !found {
		t.Error("no row reads $0.432M (the 32 leaves at $13,500)")
	}
}
