package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPhasesCommand runs the phases command on a DGX H100 growth of 1 ->
// 2 -> 4 scalable units (256 GPUs each): built for 4 SU nothing moves;
// grown as you go 128 then 256 leaf uplinks move (8 leaves x (32 - 4 x 4),
// then 16 x (32 - 8 x 2)). Catches flags not reaching the plan (--units,
// --crews), the CSV or JSON losing a strategy or a phase, and the moves
// list disagreeing with the counts.
func TestPhasesCommand(t *testing.T) {
	base := []string{"phases", "--system", "dgx-h100", "--switch", "qm9700", "--gpus", "1024", "--units", "1,2,4", "--crews", "4"}
	out, errOut, code := runArgs(t, append(base, "--csv")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 1+2*3 {
		t.Fatalf("CSV: %d records (%v)", len(recs), err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var moved []string
	for _, r := range recs[1:] {
		moved = append(moved, r[col["strategy"]]+":"+r[col["links_moved"]])
	}
	if got := strings.Join(moved, " "); got != "final_size:0 final_size:0 final_size:0 grow:0 grow:128 grow:256" {
		t.Errorf("links moved: %s", got)
	}
	// 128 links over 4 crews at 10 minutes: 32 rounds = 5.33 hours.
	if h := recs[5][col["recable_hours"]]; !strings.HasPrefix(h, "5.333") {
		t.Errorf("recable hours %q, want 5.333", h)
	}

	out, errOut, code = runArgs(t, append(base, "--json")...)
	var doc struct {
		FinalGPUs  int `json:"final_gpus"`
		Strategies []struct {
			Key    string `json:"key"`
			Phases []struct {
				GPUs int `json:"gpus"`
			} `json:"phases"`
		} `json:"strategies"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || doc.FinalGPUs != 1024 || len(doc.Strategies) != 2 || doc.Strategies[1].Phases[1].GPUs != 512 {
		t.Fatalf("JSON (exit %d, %s): %.300s", code, errOut, out)
	}

	file := filepath.Join(t.TempDir(), "moves.csv")
	_, errOut, code = runArgs(t, append(base, "--moves", "--out", file)...)
	if code != 0 || !strings.Contains(errOut, "384 links to move") {
		t.Fatalf("moves: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if rows := strings.Count(string(b), "\n"); rows != 1+384 || !strings.HasPrefix(string(b), "phase,action,tier,from_a_device") {
		t.Errorf("moves file: %d lines, want 385", rows)
	}

	out, _, code = runArgs(t, base...)
	for _, want := range []string{"BUILD FOR THE FINAL SIZE", "GROW AS YOU GO", "phase 2 re-cabling: move 128 links", "COMPARED", "no drift"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("text lacks %q (exit %d):\n%s", want, code, out)
		}
	}
}

// TestPhasesCommandErrors: bad phase input exits 2 naming the flag or
// the field and the fix. Catches a phase past the final size accepted,
// or flag conflicts left to the planner.
func TestPhasesCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("schema = 1\n[cluster]\ngpus = 512\n\n[[phase]]\ngpus = 600\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"phases", "--phases", "1,2", "--units", "1"}, "not both"},
		{[]string{"phases", "--phases", "512,256"}, "--phases: phase 2: 256 GPUs"},
		{[]string{"phases", "--phases", "abc"}, "--phases"},
		{[]string{"phases", "--out", "x.csv"}, "add --moves"},
		{[]string{"phases", "--crews", "-2"}, "--crews"},
		{[]string{"phases", "--units", "1,99", "--gpus", "1024"}, "--units: phase 2:"},
		{[]string{"phases", bad}, "phase[1].gpus (line 6)"},
	} {
		_, errOut, code := runArgs(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestPhasesJSONNoReplicaLeft writes JSON for a first phase of one
// data-parallel replica, where losing a moved server link leaves no
// replica to train (its step time is infinite): the slowdown is left
// out and the command succeeds, as the text form does. Catches copying
// the failure case's +Inf slowdown into the JSON (the encoder refuses
// it, exit 1, nothing on stdout), the buyer review's finding 10.
func TestPhasesJSONNoReplicaLeft(t *testing.T) {
	for _, args := range [][]string{
		{"phases", "--gpus", "1000", "--phases", "32,1000", "--json"},
		{"phases", "--gpus", "3000", "--phases", "32,3000", "--json"},
	} {
		var v struct {
			Strategies []struct {
				Key   string `json:"key"`
				Steps []struct {
					Recabling *struct {
						Behaviour string   `json:"behaviour"`
						Slowdown  *float64 `json:"slowdown"`
					} `json:"recabling"`
				} `json:"phases"`
			} `json:"strategies"`
		}
		if !runJSON(t, &v, args...) {
			continue
		}
		moved := 0
		for _, s := range v.Strategies {
			for _, st := range s.Steps {
				if r := st.Recabling; r != nil {
					moved++
					if r.Behaviour != "continues" && r.Slowdown != nil {
						t.Errorf("%v: %s: a job that %s shows slowdown %v", args, s.Key, r.Behaviour, *r.Slowdown)
					}
				}
			}
		}
		if moved == 0 {
			t.Errorf("%v: no phase re-cables: the case this test is for is not reached", args)
		}
	}
}

// TestPhasesUnitsAndRecut: --units counts the scalable units plan
// prints. NVIDIA's 4-SU DGX H100 SuperPOD is 127 DGX = 1,016 GPUs (the
// 128th slot the UFM host's) in SUs of 32 DGX = 256 GPUs, so --units
// 1,2,3,4 is 256, 512, 768 and the whole 1,016. Growing 2,048 -> 4,096
// -> 6,152 GPUs on QM9700 re-cuts phase 2's 64 cores (4,096 spine-core
// links / 64 ports) into the final plan's 97 (as plan prints them): the text says so
// and prices the alternative, the JSON carries it, and --moves --out
// counts the renamed cores beside the links. Catches --units read as
// leaf groups or the last partial SU refused (exit 2), and the re-cut's
// findings or renames missing from a view.
func TestPhasesUnitsAndRecut(t *testing.T) {
	out, errOut, code := runArgs(t, "phases", "../data/scenarios/dgx-h100-superpod-4su.toml", "--units", "1,2,3,4", "--json")
	var doc struct {
		Strategies []struct {
			Phases []struct {
				GPUs int `json:"gpus"`
			} `json:"phases"`
		} `json:"strategies"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Strategies) != 2 {
		t.Fatalf("exit %d: %s %.200s", code, errOut, out)
	}
	var gpus []int
	for _, p := range doc.Strategies[1].Phases {
		gpus = append(gpus, p.GPUs)
	}
	if fmt.Sprint(gpus) != "[256 512 768 1016]" {
		t.Errorf("--units 1,2,3,4 on the 4-SU SuperPOD: phases of %v GPUs, want [256 512 768 1016]", gpus)
	}

	grow := []string{"phases", "--gpus", "6152", "--switch", "qm9700", "--phases", "2048,4096,6152"}
	out, errOut, code = runArgs(t, grow...)
	if code != 0 || !strings.Contains(out, "phase 3 re-cuts the core groups: phase 2's 64 cores become 97") ||
		!strings.Contains(out, "to move no spine-core link, cable the core tier as the final size's from phase 2: 97 cores then (growing buys 64)") {
		t.Errorf("text (exit %d, %s):\n%s", code, errOut, out)
	}
	out, _, _ = runArgs(t, append(grow, "--json")...)
	var alt struct {
		Strategies []struct {
			Alt *struct {
				FromPhase int `json:"from_phase"`
				Cores     int `json:"cores"`
			} `json:"core_alternative"`
		} `json:"strategies"`
	}
	if json.Unmarshal([]byte(out), &alt) != nil || len(alt.Strategies) != 2 || alt.Strategies[1].Alt == nil || alt.Strategies[1].Alt.FromPhase != 2 || alt.Strategies[1].Alt.Cores != 97 {
		t.Errorf("JSON core_alternative: %.300s", out)
	}
	file := filepath.Join(t.TempDir(), "moves.csv")
	if _, errOut, code = runArgs(t, append(grow, "--moves", "--out", file)...); code != 0 || !strings.Contains(errOut, "cores to rename") {
		t.Errorf("--moves --out (exit %d): %s", code, errOut)
	}
}
