package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// fabricplan layout: the text, CSV and JSON of one DGX H100 SU at 40.8
// kW a rack (NVIDIA: 4 DGX H100 a rack) with its leaves at the end of
// the row: 8 compute racks, 1 leaf rack, 1 spine rack. Catches: a flag
// that does not reach the [facility] table, a CSV row per link instead
// of per rack, JSON without the figures, a scenario without [facility]
// refused instead of laid out with the defaults.
func TestLayoutCommand(t *testing.T) {
	args := []string{"layout", "--system", "dgx-h100", "--gpus", "256", "--rack-kw", "40.8", "--leaf-placement", "end"}
	out, errOut, code := runArgs(t, args...)
	if code != 0 || !strings.Contains(out, "10 racks in 2 rows") || !strings.Contains(strings.Join(strings.Fields(out), " "), "Nodes per compute rack 4") {
		t.Fatalf("text (exit %d, %s):\n%s", code, errOut, out)
	}
	out, _, code = runArgs(t, append(args, "--csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) != 11 || recs[0][0] != "rack" {
		t.Fatalf("CSV: exit %d, %d records (%v)", code, len(recs), err)
	}
	kinds := map[string]int{}
	for _, r := range recs[1:] {
		kinds[r[1]]++
	}
	if kinds["compute"] != 8 || kinds["leaf"] != 1 || kinds["spine"] != 1 {
		t.Errorf("CSV kinds %v", kinds)
	}
	out, _, code = runArgs(t, append(args, "--json")...)
	var doc struct {
		Figures struct {
			Racks           int                `json:"racks"`
			RacksOverBudget int                `json:"racks_over_budget"`
			CableKM         map[string]float64 `json:"cable_km"`
		} `json:"figures"`
		Racks []map[string]any `json:"racks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || doc.Figures.Racks != 10 || len(doc.Racks) != 10 || len(doc.Figures.CableKM) == 0 {
		t.Fatalf("JSON (exit %d, %v): %+v", code, err, doc.Figures)
	}
	if _, errOut, code := runArgs(t, "layout", "--rack-kw", "abc"); code != 2 || !strings.Contains(errOut, "--rack-kw") {
		t.Errorf("bad flag: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runArgs(t, "layout", "--racks-per-row", "1"); code == 0 || !strings.Contains(errOut, "--racks-per-row") {
		t.Errorf("1 rack per row: exit %d, %s", code, errOut)
	}
}

// fabricplan layout on a plan that is not laid out says which input
// keeps the hall away (flat lengths, lengths given), never that the
// catalog lacks facility data, which it has; leaf pairs, once kept out,
// are laid out. Mutations caught: the one old message for every reason;
// leaf pairs kept out of the hall (laysHall).
func TestLayoutSaysWhyNoHall(t *testing.T) {
	pairs := []string{"layout", "--system", "dgx-h100", "--gpus", "968", "--fabric", "ethernet", "--switch", "sn5600", "--leaf-pairs", "true"}
	if _, errOut, code := runArgs(t, pairs...); code != 0 {
		t.Errorf("%v: exit %d, %q; want the pairs' hall", pairs, code, errOut)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--gpus", "968", "--link-layout", "flat"}, "--link-layout flat"},
	} {
		_, errOut, code := runArgs(t, append([]string{"layout"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, "no hall to show") || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "facility data") {
			t.Errorf("%v: exit %d, %q; want the reason naming %s", tc.args, code, errOut, tc.want)
		}
	}
}

// plan --json carries the facility figures when the plan is laid out
// (and none without), and cables --topo --out writes the IBNL files
// beside the topology. Catches: the facility key missing, the length
// bins not adding up to the links, IBNL files not written.
func TestPlanFacilityJSONAndIBNL(t *testing.T) {
	out, _, code := runArgs(t, "plan", "--json", "--gpus", "512", "--facility", "on")
	var r struct {
		Links    struct{ Total int } `json:"links"`
		Facility *struct {
			Racks           int                `json:"racks"`
			Rows            int                `json:"rows"`
			AreaM2          float64            `json:"area_m2"`
			RackKWMax       float64            `json:"rack_kw_max"`
			RacksOverBudget *int               `json:"racks_over_budget"`
			CableKM         map[string]float64 `json:"cable_km"`
			Bins            []struct {
				Links int `json:"links"`
			} `json:"length_bins"`
		} `json:"facility"`
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.Facility == nil {
		t.Fatalf("plan --json (exit %d, %v): no facility", code, err)
	}
	f := r.Facility
	sum := 0
	for _, b := range f.Bins {
		sum += b.Links
	}
	if f.Racks == 0 || f.Rows == 0 || f.AreaM2 <= 0 || f.RackKWMax <= 0 || f.RacksOverBudget == nil || sum != r.Links.Total {
		t.Errorf("facility %+v: bins hold %d of %d links", f, sum, r.Links.Total)
	}
	// The hall is the default: a plan without flags has the figures,
	// one laid out flat has none.
	if out, _, _ = runArgs(t, "plan", "--json", "--gpus", "512"); !strings.Contains(out, `"facility"`) {
		t.Error("a default plan has no facility figures")
	}
	// Catches --link-layout missing (exit 2 with no output passed this
	// check before) and the flat choice not reaching the plan.
	out, errOut, code := runArgs(t, "plan", "--json", "--gpus", "512", "--link-layout", "flat")
	if code != 0 || !strings.Contains(out, `"gpus"`) || strings.Contains(out, `"facility"`) {
		t.Errorf("--link-layout flat: exit %d, facility figures %v: %s", code, strings.Contains(out, `"facility"`), errOut)
	}
	if _, errOut, code = runArgs(t, "plan", "--gpus", "512", "--link-layout", "curved"); code != 2 || !strings.Contains(errOut, "link-layout") {
		t.Errorf("--link-layout curved: exit %d, %q; want 2 naming the flag", code, errOut)
	}
	dir := t.TempDir()
	topo := filepath.Join(dir, "fabric.topo")
	if _, errOut, code := runArgs(t, "cables", "--topo", "--gpus", "256", "--system", "dgx-h100", "--out", topo); code != 0 || !strings.Contains(errOut, "ibdmchk -t") {
		t.Fatalf("cables --topo: exit %d, %s", code, errOut)
	}
	for _, name := range []string{"QM9700.ibnl", "DGX_H100.ibnl"} {
		if _, err := os.Stat(filepath.Join(dir, "ibnl", name)); err != nil {
			t.Errorf("IBNL: %v", err)
		}
	}
}

// layout --json writes its racks one by one: the bytes must be the
// whole layout encoded at once, for halls of every shape (one system's
// SU, off-grid sizes, ToR leaves, three tiers, two planes). Mutations
// caught: a rack's lines indented one level short, the comma between
// racks dropped or put after the last, the closing newline lost.
func TestLayoutJSONStreamsAsEncoded(t *testing.T) {
	cat, _, err := loadData()
	if err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(s *planner.Scenario){
		"ndr-1000":           func(s *planner.Scenario) { s.Cluster.GPUs = 1000 },
		"ndr-3001-tor":       func(s *planner.Scenario) { s.Cluster.GPUs, s.Network.RailOptimized = 3001, false },
		"ndr-10369-3tiers":   func(s *planner.Scenario) { s.Cluster.GPUs, s.Network.Tiers = 10369, 3 },
		"ndr-4104-2planes":   func(s *planner.Scenario) { s.Cluster.GPUs, s.Network.Planes = 4104, 2 },
		"ndr-17-leaf-at-end": func(s *planner.Scenario) { s.Cluster.GPUs, s.Facility.LeafPlacement = 17, "end" },
	} {
		t.Run(name, func(t *testing.T) {
			s := planner.NewScenario()
			s.Facility = &hall.Facility{}
			edit(&s)
			p, err := planner.Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			h := p.Hall
			if h == nil || len(h.Racks) < 2 {
				t.Fatal("not laid out in a hall of two racks or more")
			}
			var want, got bytes.Buffer
			if err := writeJSON(&want, layoutJSON{headOf(h), racksJSONOf(h)}); err != nil {
				t.Fatal(err)
			}
			if err := writeLayoutJSON(&got, h); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("streamed %d bytes, encoded %d; first difference at %d", got.Len(), want.Len(), firstDiff(got.Bytes(), want.Bytes()))
			}
		})
	}
}

// firstDiff is the first index where a and b differ.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// layout --json names every key in snake_case with its unit, as plan
// --json does: a rack carries the CSV's columns under the CSV's names,
// counted from 1 as its name is ("R1-01": row 1, slot 1), and a row its
// number, x_m, y_m and peak_kw. Mutation caught: the racks and rows
// marshalled as hall.Rack and hall.Row, untagged (Name, PeakKW, X, Y).
func TestLayoutJSONKeysSnakeCase(t *testing.T) {
	out, errOut, code := runArgs(t, "layout", "--system", "dgx-h100", "--gpus", "256", "--rack-kw", "40.8", "--leaf-placement", "end", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Racks []map[string]any `json:"racks"`
		Rows  []map[string]any `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Racks) != 10 || len(doc.Rows) != 2 {
		t.Fatalf("%v: %d racks, %d rows", err, len(doc.Racks), len(doc.Rows))
	}
	for _, key := range regexp.MustCompile(`"([^"]+)":`).FindAllStringSubmatch(out, -1) {
		if !regexp.MustCompile(`^[a-z0-9]+(_[a-z0-9]+)*$`).MatchString(key[1]) {
			t.Errorf("key %q is not snake_case", key[1])
		}
	}
	keys := func(m map[string]any) string {
		var k []string
		for key := range m {
			k = append(k, key)
		}
		sort.Strings(k)
		return strings.Join(k, ",")
	}
	header := append([]string(nil), rackCSVHeader...)
	sort.Strings(header)
	if got, want := keys(doc.Racks[0]), strings.Join(header, ","); got != want {
		t.Errorf("rack keys %s, want the CSV's %s", got, want)
	}
	if got, want := keys(doc.Rows[0]), "network,peak_kw,racks,row,x_m,y_m"; got != want {
		t.Errorf("row keys %s, want %s", got, want)
	}
	if r := doc.Racks[0]; r["rack"] != "R1-01" || r["row"] != 1.0 || r["slot"] != 1.0 {
		t.Errorf("first rack %v, want R1-01 in row 1, slot 1", r)
	}
	if doc.Rows[0]["row"] != 1.0 || doc.Rows[1]["row"] != 2.0 {
		t.Errorf("rows numbered %v, %v; want 1, 2", doc.Rows[0]["row"], doc.Rows[1]["row"])
	}
}
