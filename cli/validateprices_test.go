package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// validate shows the catalog against published prices and whole-cluster
// figures: a section in the text, with each miss's size and direction
// and the hit rate by split, and one field of the JSON holding every
// point (at least 24) and the groups. Mutations caught: the hook left
// out of the text or of the JSON, the held-out split not reported.
func TestValidateShowsPriceCheck(t *testing.T) {
	out, errOut, code := runArgs(t, "validate")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"PUBLISHED PRICES AND WHOLE-CLUSTER FIGURES", "MISS: catalog range", "HIT RATE", "heldout price", "dev whole cluster"} {
		if !strings.Contains(out, want) {
			t.Errorf("validate lacks %q", want)
		}
	}
	out, _, _ = runArgs(t, "validate", "--json")
	var rep struct {
		PriceCheck struct {
			Points   []struct{ Split, Kind string } `json:"points"`
			Accuracy []struct{ Group string }       `json:"accuracy"`
		} `json:"price_check"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.PriceCheck.Points) < 24 || len(rep.PriceCheck.Accuracy) == 0 {
		t.Fatalf("JSON: %v, %d points, %d groups", err, len(rep.PriceCheck.Points), len(rep.PriceCheck.Accuracy))
	}
	splits := map[string]int{}
	for _, p := range rep.PriceCheck.Points {
		splits[p.Split]++
	}
	if splits["dev"] == 0 || splits["heldout"] == 0 {
		t.Errorf("splits %v: want dev and held-out points", splits)
	}
}
