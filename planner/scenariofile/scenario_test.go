package scenariofile

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"fabricplan/data"
	"fabricplan/internal/fielderr"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

func TestExampleScenariosPlan(t *testing.T) {
	cat := testCatalog(t)
	entries, err := data.FS.ReadDir("scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 3 {
		t.Fatalf("want at least 3 example scenarios, have %d", len(entries))
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			src, _ := data.FS.ReadFile("scenarios/" + e.Name())
			s, err := Check(src, cat)
			if err != nil {
				t.Fatal(err)
			}
			p, err := planner.Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.JCT == nil {
				t.Errorf("no JCT estimate: %v", p.Notes)
			}
		})
	}
}

func TestScenarioRoundTrip(t *testing.T) {
	cat := testCatalog(t)
	dir := t.TempDir()
	w := perf.NewWorkload()
	w.Model, w.EP = "mixtral-8x7b", 8
	half := 0.5
	w.OverlapDP = &half
	full := planner.NewScenario()
	full.Name = `quotes "and" unicode ✓`
	full.Cluster.ServerPriceUSD = 250000
	full.Network.Fabric, full.Network.NICGbps, full.Network.PortsPerNIC, full.Network.Planes = planner.Ethernet, 800, 2, 2
	full.Network.Media = planner.Media{ServerLeaf: planner.AOC, ServerLeafM: 10}
	full.Workload = &w
	full.Prices = map[string]float64{"sn5600": 20000, "osfp-400x2": 650.5}
	// The architecture's fields sit flat in [workload] (an embedded
	// pointer): saved and loaded back. Mutation caught: the strict
	// decoder not following the embedded struct (every field an unknown
	// key).
	arch := planner.NewScenario()
	aw := perf.NewWorkload()
	aw.Model, aw.EP, aw.TP = "deepseek-v3", 32, 1
	aw.Architecture = &perf.Architecture{FFNHidden: 18432, MLP: perf.MLPSwiGLU, ExpertFFNHidden: 2048, SharedExperts: 1, DenseLayers: 3,
		QKHeadDim: 192, VHeadDim: 128, QLoRARank: 1536, KVLoRARank: 512, QKRopeHeadDim: 64, RecomputeModules: []string{perf.RecomputeMLAUpProj}}
	arch.Workload = &aw
	for name, s := range map[string]planner.Scenario{"defaults": planner.NewScenario(), "full": full, "architecture": arch} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".toml")
			if err := Save(path, s); err != nil {
				t.Fatal(err)
			}
			got, err := Load(path, cat)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, s) {
				t.Errorf("load(save(x)) != x\n got %+v\nwant %+v", got, s)
			}
		})
	}
}

func TestSaveIntoMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "plan.toml")
	if err := Save(path, planner.NewScenario()); err == nil {
		t.Fatal("save into a missing directory succeeded")
	}
}

// badScenarios are documents that must fail with an error naming field and
// line; they also seed FuzzParseScenario.
var badScenarios = []struct {
	name, src, field string
	line             int
}{
	{"zero GPUs", "schema = 1\n[cluster]\ngpus = 0\ngpus_per_server = 8\n", "cluster.gpus", 3},
	{"text GPUs", "schema = 1\n[cluster]\ngpus = \"many\"\n", "cluster.gpus", 3},
	{"unknown key", "schema = 1\n[network]\nplains = 2\n", "network.plains", 3},
	{"planes do not divide", "schema = 1\n[cluster]\ngpus = 64\ngpus_per_server = 8\n[network]\nplanes = 3\n", "network.planes", 6},
	{"switch of the other fabric", "schema = 1\n[network]\nfabric = \"ethernet\"\nswitch = \"qm9700\"\n", "network.switch", 4},
	{"switch without the speed", "schema = 1\n[network]\nnic_gbps = 800\nswitch = \"qm9700\"\n", "network.switch", 4},
	{"unknown switch", "schema = 1\n[network]\nswitch = \"qm9999\"\n", "network.switch", 3},
	{"bad ratio", "schema = 1\n[network]\noversubscription = \"3:0\"\n", "network.oversubscription", 3},
	{"under-subscribed spines", "schema = 1\n[network]\nspine_oversubscription = \"1:2\"\n", "network.spine_oversubscription", 3},
	{"no schema", "[cluster]\ngpus = 8\n", "schema", 1},
	{"future schema", "schema = 2\n", "schema", 1},
	{"broken TOML", "schema = 1\n[cluster\ngpus = 8\n", "file", 2},
	{"explicit zero NICs", "schema = 1\n[network]\nnics_per_server = 0\n", "network.nics_per_server", 3},
	{"unknown price key", "schema = 1\n[prices]\nunobtainium = 5\n", "prices.unobtainium", 3},
	{"negative price", "schema = 1\n[prices]\nqm9700 = -5\n", "prices.qm9700", 3},
	{"unknown model", "schema = 1\n[workload]\nmodel = \"gpt-9\"\n", "workload.model", 3},
	{"unknown placement", "schema = 1\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\nplacement = \"Scattered\"\n", "workload.placement", 5},
	{"negative jobs", "schema = 1\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\njobs = -2\n", "workload.jobs", 5},
	{"too many queue pairs", "schema = 1\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\nqps_per_connection = 1000\n", "workload.qps_per_connection", 5},
	{"bad overlap", "schema = 1\n[workload]\noverlap_dp = 1.5\n", "workload.overlap_dp", 3},
	{"kv heads not dividing heads", "schema = 1\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\nheads = 32\nkv_heads = 5\n", "workload.kv_heads", 6},
	{"cp not dividing the sequence", "schema = 1\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\ncp = 3\n", "workload.cp", 5},
	{"unknown precision", "schema = 1\n[workload]\nmodel = \"llama3-8b\"\ngpu = \"h100\"\nprecision = \"fp16\"\n", "workload.precision", 5},
	{"routing to too many nodes", "schema = 1\n[workload]\nmodel = \"deepseek-v3\"\ngpu = \"h100\"\nroute_nodes = 5000\n", "workload.route_nodes", 5},
	{"dac too long", "schema = 1\n[network]\nrail_optimized = false\n[network.media]\nserver_leaf = \"dac\"\nserver_leaf_m = 30\n", "network.media.server_leaf_m", 6},
	{"unknown leaf alignment", "schema = 1\n[cluster]\nsystem = \"gb200-nvl72\"\ngpus = 576\n[network]\nleaf_alignment = \"diagonal\"\n", "network.leaf_alignment", 6},
	{"lanes that do not join", "schema = 1\n[network]\nfabric = \"ethernet\"\nswitch = \"tomahawk6\"\n", "network.switch", 4},
	{"800G Ethernet CX-8 single port", "schema = 1\n[network]\nfabric = \"ethernet\"\nnic_gbps = 800\nnic = \"cx8-800\"\nports_per_nic = 1\n", "network.ports_per_nic", 6},
}

func TestBadScenarios(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range badScenarios {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Check([]byte(tc.src), cat)
			if err == nil {
				_, err = planner.Build(s, cat)
				err = WithLines(err, []byte(tc.src))
			}
			if err == nil {
				t.Fatal("accepted")
			}
			fes := fielderr.FieldErrors(err)
			for _, fe := range fes {
				if fe.Field == tc.field {
					if fe.Line != tc.line {
						t.Errorf("%s: line %d, want %d (%v)", tc.field, fe.Line, tc.line, fe)
					}
					if fe.Problem == "" {
						t.Errorf("%s: no problem text", tc.field)
					}
					return
				}
			}
			t.Errorf("error %q does not name %s", err, tc.field)
		})
	}
}

func FuzzParseScenario(f *testing.F) {
	for _, tc := range badScenarios {
		f.Add(tc.src)
	}
	src, _ := data.FS.ReadFile(data.DefaultScenario)
	f.Add(string(src))
	f.Add("schema = 1\n[prices]\nqm9700 = nan\n[workload]\nhidden = 9223372036854775807\n")
	f.Add("schema = 1\nx = {a={a={a={a=1}}}}\n[a.b.c.d]\n")
	f.Add(string(src) + "\n[facility]\nrack_kw = 40.8\nracks_per_row = 3\nleaf_placement = \"tor\"\ntray_height_m = 1e308\n")
	f.Add(string(src) + "\n[reliability]\ncheckpoint_interval_min = 1e-300\n")
	f.Add(string(src) + "\n[[phase]]\ngpus = 256\ndate = \"2026-02-30\"\n[[phase]]\ngpus = 512\ndate = \"2026-Q1\"\n")
	f.Add(string(src) + "\n[[phase]]\ngpus = 256\ndate = \"2026-Q3\"\n[[phase]]\ngpus = 512\ndate = \"2026-08-15\"\n")
	f.Add("schema = 1\n[cluster]\n\"gp\u200bus\" = 1024\n")
	f.Add("\xff\xfes\x00c\x00h\x00e\x00m\x00a\x00 \x00=\x00 \x001\x00\n\x00")
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, doc string) {
		start := time.Now()
		s, err := Check([]byte(doc), cat)
		// A budget far above the microseconds a scenario takes, so only a
		// runaway parse (deep nesting, quadratic work) trips it.
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("parsing took %v", d)
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		assertAcceptedScenario(t, s)
		p, err := planner.Build(s, cat)
		if err != nil {
			return
		}
		if p.Links.ServerLeaf != p.NICPorts {
			t.Fatalf("server-leaf links %d != NIC ports %d", p.Links.ServerLeaf, p.NICPorts)
		}
		assertFinite(t, p)
	})
}

// assertAcceptedScenario asserts what every accepted scenario holds,
// restated from the fields' documented bounds rather than from the
// checks: prices finite from $0 to $100M, a checkpoint interval of 0
// (the optimum) or 1 to 10,080 minutes, phase dates real days of the
// calendar (time.Parse) whose spans never run backwards.
func assertAcceptedScenario(t *testing.T, s planner.Scenario) {
	t.Helper()
	for k, v := range s.Prices {
		if math.IsNaN(v) || v < 0 || v > 100e6 {
			t.Fatalf("accepted prices.%s = %g", k, v)
		}
	}
	if r := s.Reliability; r != nil && r.CheckpointIntervalMin != nil {
		if v := *r.CheckpointIntervalMin; v != 0 && !(v >= 1.0/60 && v <= 10080) {
			t.Fatalf("accepted checkpoint_interval_min = %g", v)
		}
	}
	var last time.Time
	for i, ph := range s.Phases {
		if ph.Date == "" {
			continue
		}
		from, to, ok := dateSpan(ph.Date)
		if !ok {
			t.Fatalf("accepted phase[%d].date %q", i+1, ph.Date)
		}
		if !last.IsZero() && !to.After(last) {
			t.Fatalf("accepted phase[%d].date %q before the phase before's", i+1, ph.Date)
		}
		last = from
	}
}

// dateSpan is the days a phase date names (the test's own reading of
// "2026", "2026-03", "2026-Q3", "2026-03-31").
func dateSpan(d string) (from, to time.Time, ok bool) {
	if t, err := time.Parse("2006-01-02", d); err == nil {
		return t, t.AddDate(0, 0, 1), true
	}
	if t, err := time.Parse("2006-01", d); err == nil && len(d) == 7 {
		return t, t.AddDate(0, 1, 0), true
	}
	if t, err := time.Parse("2006", d); err == nil && len(d) == 4 {
		return t, t.AddDate(1, 0, 0), true
	}
	var y, q int
	if n, _ := fmt.Sscanf(d, "%4d-Q%1d", &y, &q); n == 2 && q >= 1 && q <= 4 && len(d) == 7 {
		t := time.Date(y, time.Month(3*q-2), 1, 0, 0, 0, 0, time.UTC)
		return t, t.AddDate(0, 3, 0), true
	}
	return time.Time{}, time.Time{}, false
}

// Saving keeps the file's own leading comments; only comment lines are
// kept, so a header can never inject keys. Mutations caught: saving with
// the default header (the user's notes lost), and copying the header
// without checking it.
func TestSaveKeepsLeadingComments(t *testing.T) {
	cat := testCatalog(t)
	path := filepath.Join(t.TempDir(), "s.toml")
	src := "# Pod A: quote from vendor X, 2026-10\n#\n# owner: net team\n\nschema = 1\n# not leading\n[cluster]\ngpus = 512\ngpus_per_server = 8\n"
	if got := LeadingComments([]byte(src)); got != "# Pod A: quote from vendor X, 2026-10\n#\n# owner: net team\n" {
		t.Fatalf("LeadingComments = %q", got)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, header, err := LoadFile(path, cat)
	if err != nil {
		t.Fatal(err)
	}
	s.Cluster.GPUs = 1024
	if err := SaveFile(path, s, header+"gpus = 9\n"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "# Pod A: quote from vendor X, 2026-10\n#\n# owner: net team\n") || strings.Contains(string(b), "gpus = 9") {
		t.Errorf("saved file:\n%s", b)
	}
	if again, err := Load(path, cat); err != nil || again.Cluster.GPUs != 1024 {
		t.Errorf("reload: %v, %d GPUs", err, again.Cluster.GPUs)
	}
	if got := LeadingComments([]byte("schema = 1\n")); got != "" {
		t.Errorf("no comments: %q", got)
	}
	if got := LeadingComments([]byte("# only")); got != "# only\n" {
		t.Errorf("unterminated comment: %q", got)
	}
}
