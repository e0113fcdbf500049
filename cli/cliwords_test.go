package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// wordCase is one command and what its output must and must not say.
type wordCase struct {
	name    string
	args    []string
	code    int
	want    []string // in stdout+stderr, in this order
	notWant []string
}

// checkWords runs each case and checks its exit code and words.
func checkWords(t *testing.T, cases []wordCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runArgs(t, tc.args...)
			all := out + errOut
			if code != tc.code {
				t.Fatalf("%v: exit %d, want %d\n%s", tc.args, code, tc.code, errOut)
			}
			at := 0
			for _, w := range tc.want {
				i := strings.Index(all[at:], w)
				if i < 0 {
					t.Errorf("%v: no %q (in order) in:\n%s", tc.args, w, all)
					continue
				}
				at += i + len(w)
			}
			for _, w := range tc.notWant {
				if strings.Contains(all, w) {
					t.Errorf("%v: says %q:\n%s", tc.args, w, all)
				}
			}
		})
	}
}

// TestFlagsTheSystemFixes: a flag setting a figure the catalog system
// fixes is refused, naming the flag, the system's value and the fix, as
// the same key in a file is. The system's values are NVIDIA's: a DGX
// H100 has eight 400G ConnectX-7 (DGX H100 user guide), a GB200 NVL72
// compute tray four GPUs (GB200 NVL72 product page). A flag that agrees
// with the system still plans.
// Mutation caught: buildAs not calling flagConflicts, which planned
// --system dgx-h100 --nic-gbps 800 as 400G without a word (exit 0).
func TestFlagsTheSystemFixes(t *testing.T) {
	checkWords(t, []wordCase{
		{"nic-gbps", []string{"plan", "--system", "dgx-h100", "--nic-gbps", "800"}, ExitUsage,
			[]string{"--nic-gbps: 800 is fixed by system dgx-h100 at 400", "--system custom"}, []string{"network.nic_gbps"}},
		{"nics-per-server", []string{"plan", "--system", "dgx-h100", "--nics-per-server", "4"}, ExitUsage,
			[]string{"--nics-per-server: 4 is fixed by system dgx-h100 at 8"}, nil},
		{"gpus-per-server", []string{"plan", "--system", "gb200-nvl72", "--gpus-per-server", "8"}, ExitUsage,
			[]string{"--gpus-per-server: 8 is fixed by system gb200-nvl72 at 4"}, nil},
		{"sweep too", []string{"sweep", "--system", "dgx-b200", "--nic-gbps", "800", "--gpus", "512,1000"}, ExitUsage,
			[]string{"--nic-gbps: 800 is fixed by system dgx-b200 at 400"}, nil},
		{"agreeing flag plans", []string{"plan", "--system", "dgx-h100", "--nic-gbps", "400"}, ExitOK,
			[]string{"1,024 GPUs of dgx-h100"}, []string{"fixed by system"}},
	})
}

// TestDefaultScenarioSwitchGoesAuto: the embedded default scenario's
// qm9700 (a 400G InfiniBand switch), which a flag user never set, gives
// way to switch = auto when the flags rule it out, with a note; on
// Ethernet it is an Ethernet switch, for a DGX B300's or GB300 NVL72's
// 800G ports the catalog's one 800G InfiniBand switch, the Quantum-X800
// Q3400. Likewise the default's InfiniBand gives way to the fabric of a
// --switch the user named (the Spectrum-4 SN5600 is Ethernet). A --switch the user gave, or a file's switch, keeps its error:
// named as the flag (no line of a file the user cannot see) with
// --switch auto offered, or as the file's key and line.
// Mutation caught: buildAs returning the switch error without the auto
// retry (the buyer's "qm9700 is an infiniband switch" on --fabric
// ethernet), flagUserWords keeping the default file's line 15, and
// fabricFromSwitch left out (--switch sn5600 refused on the default's
// InfiniBand, a fabric the user never chose).
func TestDefaultScenarioSwitchGoesAuto(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "eth.toml")
	src := "schema = 1\n[cluster]\ngpus = 512\ngpus_per_server = 8\n[network]\nfabric = \"ethernet\"\nnic_gbps = 400\nswitch = \"qm9700\"\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	checkWords(t, []wordCase{
		{"ethernet", []string{"plan", "--fabric", "ethernet"}, ExitOK,
			[]string{"Ethernet (RoCEv2), 2 tiers", "switch = auto chose", "the default scenario's switch, qm9700, does not suit"}, []string{"1 plane of qm9700"}},
		{"dgx-b300", []string{"plan", "--system", "dgx-b300"}, ExitOK,
			[]string{"1 plane of q3400 (144 x 800G)", "switch = auto chose q3400"}, nil},
		{"gb300-nvl72", []string{"plan", "--system", "gb300-nvl72"}, ExitOK,
			[]string{"of q3400", "switch = auto chose q3400"}, nil},
		{"switch the user set", []string{"plan", "--fabric", "ethernet", "--switch", "qm9700"}, ExitUsage,
			[]string{"--switch: qm9700 is an infiniband switch", "or --switch auto"}, []string{"line 15", "network.switch"}},
		{"fabric follows --switch", []string{"plan", "--switch", "sn5600"}, ExitOK,
			[]string{"Ethernet (RoCEv2), 2 tiers, 1 plane of sn5600", "the fabric of --switch sn5600"}, nil},
		{"--fabric and --switch disagree", []string{"plan", "--switch", "sn5600", "--fabric", "infiniband"}, ExitUsage,
			[]string{"--switch: sn5600 is an ethernet switch, the fabric is infiniband"}, nil},
		{"switch a file set", []string{"plan", file}, ExitUsage,
			[]string{"network.switch (line 8): qm9700 is an infiniband switch"}, []string{"--switch"}},
	})
}

// TestErrorsInTheUsersWords: an error about a field a flag set quotes
// the flag and a fix in flags; about a key of the user's file, the key,
// its line and a fix in TOML; a field the user never set but a flag
// implied (dual-plane's two ports a NIC) is put on that flag.
// Mutation caught: flagFix left out (the --tiers 1 error telling a flag
// user "set tiers = 0"), and flagUserWords without its dual-plane case
// (blaming network.ports_per_nic).
func TestErrorsInTheUsersWords(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t1.toml")
	src := "schema = 1\n[cluster]\ngpus = 1024\ngpus_per_server = 8\n[network]\nfabric = \"infiniband\"\nnic_gbps = 400\nswitch = \"qm9700\"\ntiers = 1\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	checkWords(t, []wordCase{
		{"--tiers 1", []string{"plan", "--tiers", "1"}, ExitUsage,
			[]string{"--tiers: 1,024 server ports per plane do not fit in 1 tier of qm9700", "set --tiers 0"}, []string{"tiers = 0", "1 tiers"}},
		{"tiers = 1 in a file", []string{"plan", file}, ExitUsage,
			[]string{"network.tiers (line 9): 1,024 server ports", "set tiers = 0"}, []string{"--tiers"}},
		{"dual-plane on a 1-port NIC", []string{"plan", "--topology", "dual-plane", "--system", "dgx-h100"}, ExitUsage,
			[]string{"--topology: a dual-plane design takes 2 ports a NIC, but cx7-400 runs infiniband with 1 port"}, []string{"network.ports_per_nic"}},
		{"--system custom in flags", []string{"plan", "--system", "gb200-nvl72", "--nic-gbps", "800"}, ExitUsage,
			[]string{"add --system custom"}, []string{"cluster.system ="}},
	})
}

// TestTooLargeListsEveryFit: a GB200 NVL72 fabric of 12,345 GPUs does
// not fit three tiers of QM9700 on one plane; the error lists every
// change that fits, cheapest first, each with its switches and cost,
// and each figure is what planning with that change gives. Packed
// leaves fit one plane with fewer switches than the 2 planes the error
// offered alone before.
// Mutation caught: fitFixes without the packed candidate (the buyer's
// finding 10) or without its sort (2 planes listed first), and a fix
// priced on another design than the one it names.
func TestTooLargeListsEveryFit(t *testing.T) {
	base := []string{"plan", "--system", "gb200-nvl72", "--gpus", "12345"}
	_, errOut, code := runArgs(t, base...)
	if code != ExitUsage {
		t.Fatalf("exit %d, want %d: %s", code, ExitUsage, errOut)
	}
	packed := strings.Index(errOut, `leaf_alignment = "packed"`)
	planes := strings.Index(errOut, "2 planes (network.planes")
	split := strings.Index(errOut, "fewer GPUs per fabric")
	if packed < 0 || planes < 0 || !(packed < planes && planes < split) {
		t.Fatalf("want packed leaves, then 2 planes, then splitting the cluster:\n%s", errOut)
	}
	for _, fix := range []struct {
		flags []string
		from  int
	}{
		{[]string{"--leaf-alignment", "packed"}, packed},
		{[]string{"--planes", "2"}, planes},
	} {
		out, e, c := runArgs(t, append(append([]string{}, base...), append(fix.flags, "--json")...)...)
		if c != ExitOK {
			t.Fatalf("%v: exit %d: %s", fix.flags, c, e)
		}
		var p struct {
			Switches struct{ Total int } `json:"switches"`
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		words := errOut[fix.from:]
		words = words[:strings.Index(words, "; or ")]
		if want := ": " + formatCount(p.Switches.Total) + " switches, $"; !strings.Contains(words, want) {
			t.Errorf("%v: the error says %q, the plan has %d switches", fix.flags, words, p.Switches.Total)
		}
	}
}

// formatCount writes n with thousands commas, as the CLI prints counts
// (written here, not taken from textfmt, so that the test checks it).
func formatCount(n int) string {
	s := strconv.Itoa(n)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// TestRackScaleRackBudget: a GB200 NVL72 rack is a liquid-cooled rack of
// about 120-132 kW (NVIDIA GB200 NVL72 spec; data/catalog.toml takes the
// high end), so the hall's default rack budget for it is 132 kW and its
// own racks are not over budget; GB300 NVL72's catalog figure is 135 kW
// (18 trays of about 6.6 kW plus switch trays, Morgan Stanley's model).
// A DGX H100 hall keeps the 60 kW default, and a scenario's own rack_kw
// still wins.
// Mutation caught: hallDefaults returning data/facility.toml's 60 kW for
// every system (every NVL72 plan warning "64 racks over the 60 kW rack
// budget").
func TestRackScaleRackBudget(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "nvl.toml")
	src := "schema = 1\n[cluster]\nsystem = \"gb200-nvl72\"\ngpus = 4608\n[network]\nfabric = \"infiniband\"\nswitch = \"qm9700\"\n[facility]\nrack_kw = 60\n"
	if err := os.WriteFile(file, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		budget float64
		over   bool
	}{
		{[]string{"--system", "gb200-nvl72", "--gpus", "4608"}, 132, false},
		{[]string{"--system", "gb200-nvl72", "--gpus", "1001"}, 132, false},
		{[]string{"--system", "gb300-nvl72", "--gpus", "2304", "--switch", "q3400"}, 135, false},
		{[]string{"--system", "dgx-h100", "--gpus", "1000"}, 60, false},
		{[]string{file}, 60, true},
	} {
		out, errOut, code := runArgs(t, append(append([]string{"plan"}, tc.args...), "--json")...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errOut)
		}
		var p struct {
			Facility struct {
				Budget float64 `json:"rack_kw_budget"`
			} `json:"facility"`
			Notes []string `json:"notes"`
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		if p.Facility.Budget != tc.budget {
			t.Errorf("%v: rack budget %g kW, want %g", tc.args, p.Facility.Budget, tc.budget)
		}
		over := strings.Contains(strings.Join(p.Notes, "\n"), "over the")
		if over != tc.over {
			t.Errorf("%v: racks over budget noted %v, want %v: %q", tc.args, over, tc.over, p.Notes)
		}
	}
}

// TestSmallWords: one of a thing is singular ("1 GPU", "1 switch", "1
// server at"), phases -h prints the crews' default once,
// --storage-nodes 0 means none (docs/scenario.md allows 0) and plans as
// if left out.
// Mutation caught: Plural replaced by Int+"s" in describeScenario,
// backEndAddsLine or computeWords; countValue.String giving "" for the
// zero Value ("(default 1) (default 0)"); flagText passing "0" to the
// storage-nodes field (min 1).
func TestSmallWords(t *testing.T) {
	checkWords(t, []wordCase{
		{"one GPU", []string{"plan", "--gpus", "1"}, ExitOK,
			[]string{"Fabric plan: 1 GPU in", "adds 14 ports, 1 switch, 16 transceivers", "of 1 node (8 GPUs) per plane", "(1 server at $300.0k)"},
			[]string{"1 GPUs", "1 switches", "1 servers", "1 nodes"}},
		{"one-GPU servers", []string{"plan", "--gpus", "1", "--gpus-per-server", "1"}, ExitOK,
			[]string{"of 1 node (1 GPU) per plane", "1 node, 1 GPU, all planes"}, []string{"1 GPUs"}},
		{"phases -h", []string{"phases", "-h"}, ExitOK,
			[]string{"crews moving links at once (default 1)"}, []string{"(default 0)"}},
		{"storage nodes 0", []string{"plan", "--storage-nodes", "0"}, ExitOK,
			[]string{"Switches"}, []string{"Storage links"}},
	})
	a, _, _ := runArgs(t, "plan", "--gpus", "1000", "--storage-nodes", "0", "--json")
	b, _, _ := runArgs(t, "plan", "--gpus", "1000", "--json")
	var pa, pb struct {
		Switches any `json:"switches"`
		Cost     any `json:"cost_usd"`
		Links    any `json:"links"`
	}
	if json.Unmarshal([]byte(a), &pa) != nil || json.Unmarshal([]byte(b), &pb) != nil {
		t.Fatal("plan --json did not decode")
	}
	ja, _ := json.Marshal(pa)
	jb, _ := json.Marshal(pb)
	if string(ja) != string(jb) {
		t.Errorf("--storage-nodes 0 plans otherwise than no storage nodes:\n%s\n%s", ja, jb)
	}
}

// TestSearchJSONStyleFields: every design of search --json carries its
// topology and its spines' ratio as fields, not only in its label; the
// Meta scenario's designs are top-of-rack on three tiers.
// Mutation caught: toDesignJSON leaving Topology or SpineRatio unset.
func TestSearchJSONStyleFields(t *testing.T) {
	out, errOut, code := runArgs(t, "search", "../data/scenarios/ib-ndr-1k.toml", "--json", "--all")
	if code != ExitOK {
		t.Fatal(errOut)
	}
	var r struct {
		Designs []map[string]any `json:"designs"`
		Pick    map[string]any   `json:"pick"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	list := append(r.Designs, r.Pick)
	if len(list) < 2 {
		t.Fatalf("no designs:\n%.400s", out)
	}
	styles := map[string]bool{"rail-optimized": true, "top-of-rack": true, "rail-only": true, "dual-plane": true}
	for _, d := range list {
		if top, _ := d["topology"].(string); !styles[top] {
			t.Errorf("%v: topology %q", d["label"], d["topology"])
		}
		if sr, _ := d["spine_oversubscription"].(string); !strings.Contains(sr, ":") {
			t.Errorf("%v: spine_oversubscription %q", d["label"], d["spine_oversubscription"])
		}
	}
}
