package cli

import (
	"strings"
	"testing"
)

// TestValidateCarriesServingPoints: validate prints and encodes every
// published serving and weight-sync point of data/inference.toml with
// its held-out accuracy, and the Markdown the docs are checked against
// leaves them out. Mutations caught: the points dropped from the JSON;
// fitted points counted in the held-out accuracy; the serving table
// leaking into docs/jct-validation.md's Markdown.
func TestValidateCarriesServingPoints(t *testing.T) {
	var rep validationReport
	if !runJSON(t, &rep, "validate", "--json") {
		return
	}
	fitted := 0
	for _, r := range rep.Serving {
		if r.Fitted {
			fitted++
		}
	}
	held := 0
	for _, a := range rep.ServingHeldOut {
		held += a.Points
	}
	if len(rep.Serving) < 9 || held != len(rep.Serving)-fitted || 3*held < len(rep.Serving) {
		t.Errorf("%d serving points, %d fitted, %d held out: want at least 9 and a third held out", len(rep.Serving), fitted, held)
	}
	out, _, _ := runArgs(t, "validate")
	if !strings.Contains(out, "SERVING AND WEIGHT SYNC") || !strings.Contains(out, "Mooncake") {
		t.Error("validate's text lacks the serving points")
	}
	if md, _, _ := runArgs(t, "validate", "--markdown"); strings.Contains(md, "Mooncake") {
		t.Error("the serving points leaked into the Markdown of docs/jct-validation.md")
	}
}

// TestPlanPrintsServing: plan prints the inference table and the RL
// sync line of the example scenarios, and --json carries the objects
// the issue names. Mutation caught: writeServing not called; the JSON
// keys renamed.
func TestPlanPrintsServing(t *testing.T) {
	out, errOut, code := runArgs(t, "plan", "../data/scenarios/inference-deepseek-h100.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"INFERENCE (model)", "Output tokens/s per GPU", "Tokens per dollar", "TTFT", "Baseline", "EP all-to-all"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q", want)
		}
	}
	var inf struct {
		Inference map[string]any `json:"inference"`
	}
	if runJSON(t, &inf, "plan", "../data/scenarios/inference-deepseek-h100.toml", "--json") {
		for _, k := range []string{"prefill", "decode", "ttft_s", "kv_transfer", "tokens_s_per_gpu", "tokens_per_dollar", "tokens_per_kwh", "findings"} {
			if _, ok := inf.Inference[k]; !ok {
				t.Errorf("inference JSON lacks %q", k)
			}
		}
	}
	var rl struct {
		RL map[string]any `json:"rl"`
	}
	if runJSON(t, &rl, "plan", "../data/scenarios/rl-kimi-gb200.toml", "--json") {
		for _, k := range []string{"weight_sync_s", "sync_gb", "share_of_step", "findings"} {
			if _, ok := rl.RL[k]; !ok {
				t.Errorf("rl JSON lacks %q", k)
			}
		}
	}
	if out, _, _ := runArgs(t, "plan", "../data/scenarios/rl-kimi-gb200.toml"); !strings.Contains(out, "RL WEIGHT SYNC") {
		t.Error("plan lacks the RL weight sync")
	}
}
