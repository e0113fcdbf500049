package scenariofile

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner"
)

// servingBase is a 256-GPU DGX H100 cluster serving DeepSeek-V3; a test
// appends its [workload] kind and tables.
const servingBase = "schema = 1\n[cluster]\nsystem = \"dgx-h100\"\ngpus = 256\n[network]\nfabric = \"infiniband\"\nswitch = \"qm9700\"\noversubscription = \"1:1\"\nrail_optimized = true\n" +
	"[workload]\nmodel = \"deepseek-v3\"\nprecision = \"fp8\"\ntp = 8\npp = 4\nep = 8\nglobal_batch_tokens = 4194304\n"

// servingCases are the serving tables the unit test and the fuzz target
// start from: each with the field its error names ("" when it plans).
var servingCases = []struct {
	name, tables, field string
}{
	{"inference plans", "kind = \"inference\"\n[inference]\ninput_tokens = 1999\noutput_tokens = 333\nkv_latent = 576\ndecode_ep = 32\n", ""},
	{"rl plans", "kind = \"rl\"\n[rl]\ntrainer_gpus = 96\nrollout_gpus = 160\nsync_precision = \"fp8\"\n", ""},
	{"unknown kind", "kind = \"serving\"\n", "workload.kind"},
	{"inference table without the kind", "[inference]\ninput_tokens = 10\noutput_tokens = 10\n", "inference"},
	{"kind without its table", "kind = \"rl\"\n", "rl"},
	{"zero output", "kind = \"inference\"\n[inference]\ninput_tokens = 100\noutput_tokens = 0\n", "inference.output_tokens"},
	{"hit rate of one", "kind = \"inference\"\n[inference]\ninput_tokens = 100\noutput_tokens = 9\nprefix_hit_rate = 1.0\n", "inference.prefix_hit_rate"},
	{"NaN target", "kind = \"inference\"\n[inference]\ninput_tokens = 100\noutput_tokens = 9\ntarget_tpot_s = nan\n", "inference.target_tpot_s"},
	{"bad layout", "kind = \"inference\"\n[inference]\ninput_tokens = 100\noutput_tokens = 9\nlayout = \"split\"\n", "inference.layout"},
	{"pools over the cluster plan scaled", "kind = \"inference\"\n[inference]\ninput_tokens = 100\noutput_tokens = 9\nprefill_gpus = 200\ndecode_gpus = 100\n", ""},
	{"EP wider than the decode pool", "kind = \"inference\"\n[inference]\ninput_tokens = 100\noutput_tokens = 9\ndecode_gpus = 64\ndecode_ep = 128\n", "inference.decode_ep"},
	{"bad sync mode", "kind = \"rl\"\n[rl]\nsync_mode = \"gossip\"\n", "rl.sync_mode"},
	{"colocated with pools", "kind = \"rl\"\n[rl]\ncolocated = true\ntrainer_gpus = 8\n", "rl.colocated"},
	{"unknown key", "kind = \"rl\"\n[rl]\nsync_gbps = 3\n", "rl.sync_gbps"},
}

// TestServingTables: [workload] kind and the [inference] and [rl]
// tables read strictly, name the field and its fix when wrong, and
// plan with finite figures when right; a training scenario has neither
// estimate. Mutations caught: a table read for the wrong kind; a kind
// with no table planned silently; a decode instance wider than its
// pool accepted; an unknown key in the tables ignored.
func TestServingTables(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range servingCases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Check([]byte(servingBase+tc.tables), cat)
			if tc.field != "" {
				if err == nil || !errorNames(err, tc.field) {
					t.Fatalf("want an error naming %s, got %v", tc.field, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := planner.Build(s, cat)
			if err != nil {
				t.Fatal(err)
			}
			if p.Inference == nil && p.RL == nil {
				t.Fatal("no inference or RL estimate")
			}
			assertServingFinite(t, p)
		})
	}
	s, err := Check([]byte(servingBase), cat)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := planner.Build(s, cat); err != nil || p.Inference != nil || p.RL != nil {
		t.Errorf("a training scenario: %v, inference %v, rl %v", err, p.Inference, p.RL)
	}
}

// errorNames says whether err names field: as a field error, or in
// its text (an unknown key, which the decoder reports).
func errorNames(err error, field string) bool {
	return namesField(err, field) || strings.Contains(err.Error(), field)
}

// assertServingFinite fails when an inference or RL figure is not
// finite and non-negative, or does not encode as JSON.
func assertServingFinite(t testing.TB, p *planner.Plan) {
	t.Helper()
	var vals []float64
	if r := p.Inference; r != nil {
		vals = append(vals, r.Prefill.TokensSPerGPU, r.Decode.TokensSPerGPU, r.Decode.TPOTS, r.TTFTS, r.KV.SPerRequest,
			r.KV.BytesPerRequest, r.TokensSPerGPU, r.TokensPerDollar, r.TokensPerKWh, r.RequestsS)
	}
	if r := p.RL; r != nil {
		vals = append(vals, r.WeightSyncS, r.SyncGB, r.ShareOfStep, r.NetworkS, r.ReloadS)
	}
	for i, v := range vals {
		if !(v >= 0) || math.IsInf(v, 0) {
			t.Fatalf("figure %d is %v", i, v)
		}
	}
	if _, err := json.Marshal(p.Report()); err != nil {
		t.Fatalf("report does not encode: %v", err)
	}
}

// FuzzServingTables feeds [workload] kinds and serving tables, seeded
// from servingCases, to the parser and the planner: nothing panics, bad
// input is a field error, and every estimate is finite and
// non-negative. Mutations caught: a zero pool, width or output length
// dividing by zero; a NaN target reaching the model.
func FuzzServingTables(f *testing.F) {
	for _, tc := range servingCases {
		f.Add(tc.tables)
	}
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, tables string) {
		s, err := Check([]byte(servingBase+tables), cat)
		if err != nil {
			return // a field error, or TOML that does not parse
		}
		p, err := planner.Build(s, cat)
		if err != nil {
			if len(fielderr.FieldErrors(err)) == 0 && !errors.Is(err, planner.ErrTooLarge) {
				t.Fatalf("not a field error: %v", err)
			}
			return
		}
		assertServingFinite(t, p)
	})
}

// TestEditAddsTheServingTable: a training scenario file edited to kind
// inference in the window gains the kind and the [inference] table,
// keeps its comments, and reads back as the edited scenario. Mutation
// caught: the edit writing only workload.kind (the file then refused).
func TestEditAddsTheServingTable(t *testing.T) {
	cat := testCatalog(t)
	src := []byte("# my cluster\n" + servingBase)
	old, err := Check(src, cat)
	if err != nil {
		t.Fatal(err)
	}
	s := old.Clone()
	f, _ := planner.FieldByKey("workload.kind")
	if err := f.Set(&s, "inference"); err != nil {
		t.Fatal(err)
	}
	out, err := Edit(src, old, s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Check(out, cat)
	if err != nil || !strings.HasPrefix(string(out), "# my cluster\n") || back.Inference == nil || !back.Equal(s) {
		t.Errorf("edited file (%v):\n%s", err, out)
	}
}
