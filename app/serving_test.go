package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestSummaryServingCards: an inference scenario shows its tokens/s per
// GPU in the key figures' sixth place (where training shows its JCT
// gain) and tokens per dollar under them, with the plan's figures and
// its findings in the Notes; an RL scenario the weight sync there; a
// training scenario the JCT gain and no serving row. Mutations caught:
// the cards never shown, or left showing a previous plan's kind; a
// training JCT gain shown as an inference plan's headline; the findings
// left out of the Notes.
func TestSummaryServingCards(t *testing.T) {
	u := newTestUI(t)
	shown := func(name string) bool {
		visible := u.summary.cards[name].box.Visible()
		if name == cardTokensPerDollar {
			visible = visible && u.summary.serving.Visible()
		}
		return visible
	}
	headline := func() []string { // the key figures' sixth place: one card
		var on []string
		for _, name := range headlineFigures {
			if shown(name) {
				on = append(on, name)
			}
		}
		return on
	}
	if err := u.OpenPath("../data/scenarios/inference-deepseek-h100.toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	p := u.Plan()
	if p == nil || p.Inference == nil {
		t.Fatalf("plan %v", p)
	}
	f := u.Figures()
	if h := headline(); len(h) != 1 || h[0] != cardTokensPerGPU || !shown(cardTokensPerDollar) || f[cardTokensPerGPU] == "" || f[cardTokensPerGPU] == "0" {
		t.Errorf("inference: headline %v, cards %q, %q", h, f[cardTokensPerGPU], f[cardTokensPerDollar])
	}
	if !strings.Contains(u.summary.notes.Text, "Inference: decode EP 72") {
		t.Errorf("notes lack the inference findings: %q", u.summary.notes.Text)
	}
	if err := u.OpenPath("../data/scenarios/rl-kimi-gb200.toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	if h := headline(); len(h) != 1 || h[0] != cardWeightSync || shown(cardTokensPerDollar) || !strings.HasSuffix(u.Figures()[cardWeightSync], " s") {
		t.Errorf("RL: headline %v, card %q", h, u.Figures()[cardWeightSync])
	}
	if err := u.OpenPath("../data/scenarios/ib-ndr-1k.toml"); err != nil {
		t.Fatal(err)
	}
	u.WaitIdle()
	if h := headline(); u.summary.serving.Visible() || len(h) != 1 || h[0] != cardJCTGain {
		t.Errorf("a training plan shows headline %v, serving row %v", h, u.summary.serving.Visible())
	}
}

// TestWorkloadKindChoice: choosing inference in the window plans the
// default serving workload and shows its cards; RL the sync card; back
// to training hides them and leaves no serving table in the scenario.
// Mutations caught: the choice setting the kind without its table (the
// plan refused); training keeping the [inference] table.
func TestWorkloadKindChoice(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "512")
	pick(u, "workload.kind", "inference")
	u.WaitIdle()
	if p := u.Plan(); p == nil || p.Inference == nil || !u.summary.cards[cardTokensPerGPU].box.Visible() {
		t.Fatalf("inference: plan %v", p)
	}
	pick(u, "workload.kind", "rl")
	u.WaitIdle()
	if p := u.Plan(); p == nil || p.RL == nil || p.Inference != nil || !u.summary.cards[cardWeightSync].box.Visible() {
		t.Fatalf("rl: plan %v", p)
	}
	pick(u, "workload.kind", "training")
	u.WaitIdle()
	if s := u.Scenario(); s.Inference != nil || s.RL != nil || u.summary.serving.Visible() {
		t.Errorf("training keeps a serving table (%v, %v) or its cards", s.Inference, s.RL)
	}
}

// TestServingInputsFollowTheKind: the [inference] and [rl] inputs are
// locked under another kind and unlocked by choosing theirs; an edit
// then reaches the plan (a decode batch of 16 typed is the batch the
// estimate runs; a scatter sync is the sync's mode). Mutations caught:
// the inputs left editable under training (an edit lost with the table
// the kind leaves out); Enabled never updated when the kind changes;
// the fields wired to the wrong table.
func TestServingInputsFollowTheKind(t *testing.T) {
	u := newTestUI(t)
	locked := func(key string) bool {
		d, ok := u.inputs.byKey[key].widget.(fyne.Disableable)
		return ok && d.Disabled()
	}
	if !locked("inference.decode_batch") || !locked("rl.sync_mode") || locked("workload.kind") {
		t.Fatalf("training: decode batch locked %v, sync mode locked %v", locked("inference.decode_batch"), locked("rl.sync_mode"))
	}
	pick(u, "workload.kind", "inference")
	if locked("inference.decode_batch") || !locked("rl.sync_mode") {
		t.Fatalf("inference: decode batch locked %v, sync mode locked %v", locked("inference.decode_batch"), locked("rl.sync_mode"))
	}
	typeIn(u, "inference.decode_batch", "16")
	if p := u.Plan(); p == nil || p.Inference == nil || p.Inference.Decode.Batch != 16 {
		t.Fatalf("inference plan after a batch of 16: %+v", p)
	}
	pick(u, "workload.kind", "rl")
	if !locked("inference.decode_batch") || locked("rl.sync_mode") {
		t.Fatalf("rl: decode batch locked %v, sync mode locked %v", locked("inference.decode_batch"), locked("rl.sync_mode"))
	}
	pick(u, "rl.sync_mode", "scatter")
	if p := u.Plan(); p == nil || p.RL == nil || p.RL.Mode != "scatter" {
		t.Fatalf("rl plan after scatter: %+v", p)
	}
}
