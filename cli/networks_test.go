package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// superPODFile writes the DGX H100 SuperPOD of 4 SU (127 DGX) with the
// RA's 48 storage ports.
func superPODFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "superpod.toml")
	src := "schema = 1\n[cluster]\nsystem = \"dgx-h100\"\ngpus = 1016\n[network]\nfabric = \"infiniband\"\nplanes = 1\nswitch = \"qm9700\"\noversubscription = \"1:1\"\nrail_optimized = true\nload_balancing = \"adaptive\"\n[networks]\nstorage_server_ports = 48\n"
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPlanNetworksJSON: plan --json carries networks[{name kind
// ports_per_server switches cost_usd power_w}] and backend_adds{ports
// switches cost_usd power_w} (issue #34), with the SuperPOD's published
// switch counts (RA-11333-001 Table 7: 48, 8, 16, 8). Mutations caught: a
// key renamed or left out; the back end not listed first.
func TestPlanNetworksJSON(t *testing.T) {
	out, errOut, code := runArgs(t, "plan", "--json", superPODFile(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Networks []map[string]any `json:"networks"`
		Adds     map[string]any   `json:"backend_adds"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	wantSwitches := []float64{48, 8, 16, 8, 0}
	if len(r.Networks) != len(wantSwitches) {
		t.Fatalf("%d networks, want %d", len(r.Networks), len(wantSwitches))
	}
	for i, n := range r.Networks {
		for _, k := range []string{"name", "kind", "ports_per_server", "switches", "cost_usd", "power_w"} {
			if _, ok := n[k]; !ok {
				t.Errorf("network %d lacks %q", i, k)
			}
		}
		if n["switches"] != wantSwitches[i] {
			t.Errorf("%v: %v switches, want %v", n["name"], n["switches"], wantSwitches[i])
		}
	}
	if r.Networks[0]["name"] != "back end (compute)" {
		t.Errorf("first network %v", r.Networks[0]["name"])
	}
	for _, k := range []string{"ports", "switches", "cost_usd", "power_w"} {
		if _, ok := r.Adds[k]; !ok {
			t.Errorf("backend_adds lacks %q", k)
		}
	}
}

// TestPlanNetworksText: plan --networks prints one row per network, the
// whole cluster and what the back end adds; the plan text leads with the
// increment and labels both job-time baselines. Mutations caught: a
// network row missing; the front-end job time unlabelled; the protocol's
// share label dropped.
func TestPlanNetworksText(t *testing.T) {
	out, errOut, code := runArgs(t, "plan", "--networks", superPODFile(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"back end (compute)", "front end (in-band)", "storage", "out-of-band", "management servers",
		"whole cluster", "The back end adds", "the job on the front end alone (TCP)", "Checkpoint write"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan --networks lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runArgs(t, "plan", superPODFile(t))
	first := strings.SplitN(out, "WHAT THE BACK-END ADDS", 2)[0]
	if !strings.Contains(first, "The back end adds") {
		t.Errorf("the increment is not shown first:\n%s", first)
	}
	for _, want := range []string{"(the protocol's share)", "Step, front end only"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan text lacks %q", want)
		}
	}
}

// TestPlanNetworksMgmtSource: plan --networks names where the management
// servers come from, and plan --json carries it as the management line's
// source: the DGX H100 SuperPOD RA's Table 7 (4 head nodes + 4 UFM) at 4
// SU, the DGX B300 RA (RA-11339-001: 2 BCM + 3 Kubernetes + 2 Slurm
// login, + 2 UFM) at 1 SU of 64 DGX. Mutations caught: the management
// line's source left as the networks' own; its text line not printed.
func TestPlanNetworksMgmtSource(t *testing.T) {
	for _, tc := range []struct {
		args []string
		note string
		src  string
	}{
		{[]string{superPODFile(t)}, "8 management servers: 4 head and control nodes, 4 UFM hosts", "RA-11333-001 V11 (2023-09-22), Table 7"},
		{[]string{"--system", "dgx-b300", "--gpus", "512", "--switch", "q3400", "--nic-gbps", "800"}, "9 management servers: 7 head and control nodes, 2 UFM hosts", "RA-11339-001"},
	} {
		out, errOut, code := runArgs(t, append([]string{"plan", "--networks"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, tc.note+"; from ") {
				line = l
			}
		}
		if !strings.Contains(line, tc.src) {
			t.Errorf("no line %q naming %q:\n%s", tc.note+"; from ...", tc.src, out)
		}
		out, _, _ = runArgs(t, append([]string{"plan", "--json"}, tc.args...)...)
		var r struct {
			Networks []map[string]any `json:"networks"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if src, _ := r.Networks[len(r.Networks)-1]["source"].(string); !strings.Contains(src, tc.src) {
			t.Errorf("management line's source %q, want %q", src, tc.src)
		}
	}
}
