package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// `fabricplan search` on the inference example prints the ranking by
// tokens per US$ at the SLO, and its JSON carries each design's
// tokens_per_dollar and whether it meets the SLO, the ranking led by
// the most tokens per dollar among those that meet it. A training
// search has neither. Mutations caught: the ranking
// left out of the text or JSON, tokens_per_dollar written for training
// designs (omitempty dropped).
func TestSearchRanksInference(t *testing.T) {
	const scen = "../data/scenarios/inference-deepseek-h100.toml"
	out, errOut, code := runArgs(t, "search", scen)
	if code != 0 || !strings.Contains(out, "Ranked by output tokens per US$ of the whole cluster at the SLO (TPOT <= 0.100 s") ||
		!strings.Contains(out, "RANK  DESIGN") {
		t.Fatalf("exit %d, %q %q: want the ranking", code, out, errOut)
	}
	out, _, code = runArgs(t, "search", scen, "--json")
	var res struct {
		Designs []map[string]any `json:"designs"`
		Ranked  []map[string]any `json:"ranked_by_tokens_per_dollar"`
	}
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("exit %d: %v", code, err)
	}
	if len(res.Ranked) == 0 || len(res.Designs) == 0 {
		t.Fatalf("%d ranked, %d designs", len(res.Ranked), len(res.Designs))
	}
	for _, d := range res.Designs {
		if v, ok := d["tokens_per_dollar"].(float64); !ok || v <= 0 || d["meets_slo"] == nil {
			t.Errorf("%v: no tokens_per_dollar or meets_slo", d["label"])
		}
	}
	best := 0.0
	for _, d := range res.Ranked {
		if d["meets_slo"] == true {
			best = max(best, d["tokens_per_dollar"].(float64))
		}
	}
	if first := res.Ranked[0]; first["meets_slo"] != true || first["tokens_per_dollar"] != best {
		t.Errorf("ranking led by %v (%v tokens/$), want the most among those that meet the SLO, %g", first["label"], first["tokens_per_dollar"], best)
	}
	out, _, _ = runArgs(t, "search", "--gpus", "256", "--json")
	if strings.Contains(out, "tokens_per_dollar") || strings.Contains(out, "meets_slo") {
		t.Error("training search JSON carries tokens per dollar")
	}
	out, _, _ = runArgs(t, "search", "--gpus", "256")
	if strings.Contains(out, "Ranked by output tokens") {
		t.Error("training search prints a tokens ranking")
	}
}
