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
