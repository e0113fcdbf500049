package app

import (
	"strings"
	"testing"
)

// The Resilience tab follows the plan: its card and table describe the
// current plan's failure cases, and an edit that changes the plan
// (1,024 to 2,048 GPUs doubles the GPUs, so the interruption rate grows)
// shows the new figures once planned. Mutations caught: the tab left
// stale after an edit, a table with no rows or a row past the cases, no
// chart drawn.
func TestResilienceTab(t *testing.T) {
	u := newTestUI(t)
	u.SelectTab(TabResilience)
	u.WaitIdle()
	r := u.resil
	if r.plan == nil || r.plan.Resilience == nil {
		t.Fatal("no plan shown")
	}
	if n := len(r.plan.Resilience.Cases); r.rows() != n || n < 5 {
		t.Errorf("%d table rows for %d cases", r.rows(), n)
	}
	if r.cell(0, 0) != "GPU" || r.cell(r.rows(), 0) != "" {
		t.Errorf("cells: %q, past the end %q", r.cell(0, 0), r.cell(r.rows(), 0))
	}
	before := r.card.Text
	if !strings.Contains(before, "job interruptions a day") || !strings.Contains(before, "JCT counting failures") {
		t.Errorf("card: %q", before)
	}
	if r.view.fig == nil || r.view.fig.Name != "resilience" {
		t.Fatalf("chart not drawn: %v", r.view.message.Text)
	}
	perDay := r.plan.Resilience.Goodput.InterruptionsPerDay
	typeIn(u, "cluster.gpus", "2048")
	u.WaitIdle()
	if r.plan.GPUs != 2048 || !(r.plan.Resilience.Goodput.InterruptionsPerDay > perDay) || r.card.Text == before {
		t.Errorf("after the edit: %d GPUs, %.3f a day (was %.3f), card %q", r.plan.GPUs, r.plan.Resilience.Goodput.InterruptionsPerDay, perDay, r.card.Text)
	}
}

// A serving cluster's Resilience card says what failures cost its
// serving capacity, and nothing of a training job: the shipped serving
// example once read "0.00 job interruptions a day (one every never) ...
// JCT counting failures: 0.00 days, planned 42.30 days". Mutation
// caught: the card written for a training job whatever the workload.
func TestResilienceCardServing(t *testing.T) {
	u := newTestUI(t)
	if err := u.OpenPath("../data/scenarios/inference-deepseek-h100.toml"); err != nil {
		t.Fatal(err)
	}
	u.SelectTab(TabResilience)
	u.WaitIdle()
	card := u.resil.card.Text
	if !strings.Contains(card, "Serving capacity: ") || strings.Contains(card, "job interruptions") ||
		strings.Contains(card, "JCT counting failures") || strings.Contains(card, "checkpoint") {
		t.Errorf("serving card: %q", card)
	}
}
