package cli

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// fabricplan layout --tier: one DGX H100 SU at 40.8 kW a rack with the
// leaves at the end of the row (worked by hand in planner's
// TestRunsOfLongest: the longest server-leaf run is server 1 in rack
// R2-01 at U1 to leaf 8 in R2-09, (2.4 - 4 x 0.04445) + (2.4 - 32.5 x
// 0.04445) + 4.8 + 2 = 9.977575 m). Text, CSV and JSON carry the 256
// links and the longest runs; bad tier names and counts are refused
// with the flag named. Catches: --tier ignored (the rack table
// printed), --longest ignored, CSV runs that do not add up to the
// tier's links, a two-tier plan's spine-core printed as empty.
func TestLayoutTierCommand(t *testing.T) {
	args := []string{"layout", "--system", "dgx-h100", "--gpus", "256", "--rack-kw", "40.8", "--leaf-placement", "end", "--tier", "server-leaf", "--longest", "3"}
	out, errOut, code := runArgs(t, args...)
	if code != 0 || !strings.Contains(out, "Tier server-leaf: 256 links") || !strings.Contains(out, "R2-01, row 2, U1") || strings.Count(out, "su1-node1 ") != 3 {
		t.Fatalf("text (exit %d, %s):\n%s", code, errOut, out)
	}
	out, _, code = runArgs(t, append(args, "--csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) < 2 || recs[0][0] != "section" {
		t.Fatalf("CSV: exit %d, %v\n%s", code, err, out)
	}
	links, longest := 0, 0
	for _, r := range recs[1:] {
		switch r[0] {
		case "runs":
			n, _ := strconv.Atoi(r[5])
			links += n
		case "longest":
			longest++
		}
	}
	if links != 256 || longest != 3 {
		t.Errorf("CSV: runs add up to %d links, %d longest rows; want 256 and 3", links, longest)
	}
	out, _, code = runArgs(t, append(args, "--json")...)
	var doc struct {
		Tier    string `json:"tier"`
		Links   int    `json:"links"`
		Longest []struct {
			RunM float64 `json:"run_m"`
			From string  `json:"from_rack"`
			To   string  `json:"to_rack"`
		} `json:"longest"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || doc.Tier != "server_leaf" || doc.Links != 256 || len(doc.Longest) != 3 {
		t.Fatalf("JSON (exit %d, %v): %+v", code, err, doc)
	}
	if l := doc.Longest[0]; math.Abs(l.RunM-9.977575) > 1e-6 || l.From != "R2-01" || l.To != "R2-09" {
		t.Errorf("JSON longest %+v, want 9.977575 m R2-01 > R2-09", l)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"layout", "--tier", "core"}, 2, "--tier"},
		{[]string{"layout", "--tier", "leaf-spine", "--longest", "-1"}, 2, "--longest"},
		{[]string{"layout", "--gpus", "512", "--tier", "spine-core"}, 1, "server-leaf, leaf-spine"},
	} {
		if _, errOut, code := runArgs(t, tc.args...); code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, %s; want exit %d naming %s", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}
