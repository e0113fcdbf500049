package validation

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fabricplan/data"
)

// runDoc is a run file of one run: the lines given, after the keys
// every run has.
func runDoc(split string, lines ...string) []byte {
	return []byte("schema = 1\nsplit = \"" + split + "\"\n[[run]]\nid = \"r\"\nname = \"R\"\nsource = \"s\"\ngpu = \"h100\"\ngpu_count = 64\n" +
		strings.Join(lines, "\n") + "\n")
}

// A run maps to the scenario of what the model takes, lists every field
// it does not (never folded into another input) and every input it had
// to take, and counts Megatron-LM's FLOPs for a TFLOP/s figure. By hand
// (training.py's count): s 1024, L 2, h 1024, 8 heads of which 2 KV, ffn
// 4096, GELU, vocab 50,000 padded to 50,176 (a multiple of 128 x tp 2),
// 8 sequences: 12 x 8 x 1024 x 2 x 1024^2 x (1 + 4 + 0.25 + 1 + 12.25)
// = 3.813930958848e12; SwiGLU makes the MLP term 6: 4.226247819264e12.
// Mutations caught: FSDP not taken as ZeRO-3, selective recomputation
// taken as full, a field dropped without a word, the architecture
// (ffn_hidden, mlp) left unwritten or still listed, micro_batch or vpp
// defaulted silently, the vocabulary not padded, the gated MLP's 3/2
// left out, an unknown metric or split accepted.
func TestParseRuns(t *testing.T) {
	shape := []string{"kind = \"dense\"", "metric = \"tflops_per_gpu\"", "published = 400", "unit = \"TFLOP/s\"", "layers = 2", "hidden = 1024",
		"heads = 8", "kv_heads = 2", "ffn_hidden = 4096", "vocab = 50000", "seq_len = 1024", "global_batch_tokens = 8192", "tp = 2", "pp = 2",
		"fsdp = true", "recompute = \"selective (attn)\"", "framework = \"X\"", "dp = 16", "also_mfu = 0.4"}
	for _, c := range []struct {
		mlp  string
		want float64
	}{{"gelu", 3.813930958848e12}, {"swiglu", 4.226247819264e12}} {
		runs, err := ParseRuns(runDoc(SplitDev, append(shape, "mlp = \""+c.mlp+"\"")...))
		if err != nil {
			t.Fatal(err)
		}
		r := runs[0]
		if math.Abs(r.flopsPerStep/c.want-1) > 1e-12 || r.NoFigure != "" {
			t.Errorf("%s: FLOPs %g, want %g (%s)", c.mlp, r.flopsPerStep, c.want, r.NoFigure)
		}
		for _, line := range []string{"gpus = 64", "zero_stage = 3", "recompute = false", "micro_batch = 1", "vpp = 1", "kv_heads = 2", "tp = 2", "pp = 2",
			"ffn_hidden = 4096", `mlp = "` + c.mlp + `"`} {
			if !strings.Contains(r.Scenario, line+"\n") {
				t.Errorf("scenario lacks %q:\n%s", line, r.Scenario)
			}
		}
		wantNM := []string{`recompute = "selective (attn)"`, `framework = "X"`}
		if !slices.Equal(r.NotModelled, wantNM) {
			t.Errorf("not modelled %q, want %q", r.NotModelled, wantNM)
		}
		if len(r.Assumed) != 2 || !strings.HasPrefix(r.Assumed[0], "micro_batch") || !strings.HasPrefix(r.Assumed[1], "vpp") {
			t.Errorf("assumed %q", r.Assumed)
		}
	}
	moe, err := ParseRuns(runDoc(SplitHeldOut, "kind = \"moe\"", "metric = \"tflops_per_gpu\"", "published = 400", "experts = 8", "top_k = 2",
		"micro_batch = 1", "fabric = \"omni-path\"", "recompute = \"full\""))
	if err != nil {
		t.Fatal(err)
	}
	if r := moe[0]; r.NoFigure == "" || r.Split != SplitHeldOut || !strings.Contains(r.Scenario, "recompute = true\n") ||
		!slices.Contains(r.NotModelled, `fabric = "omni-path"`) || !slices.ContainsFunc(r.Assumed, func(s string) bool { return strings.HasPrefix(s, "active_params_b") }) {
		t.Errorf("MoE run %+v", r)
	}
	// Grok-1's and GPT-OSS's sources give the architecture, not the
	// active count. By hand: 10B less (8 - 2) idle experts x 3 x 1000 x
	// 1000 over 4 - 1 MoE layers = 10 - 0.054 = 9.946B. Mutations caught:
	// every parameter taken as active, dense layers counted as MoE ones,
	// the derived value not said, the widths read for it not written.
	derived, err := ParseRuns(runDoc(SplitDev, "kind = \"moe\"", "metric = \"step_s\"", "published = 1", "params_b = 10", "experts = 8",
		"top_k = 2", "expert_ffn_hidden = 1000", "layers = 4", "dense_layers = 1", "hidden = 1000", "micro_batch = 1", "ep = 1"))
	if err != nil {
		t.Fatal(err)
	}
	if r := derived[0]; !strings.Contains(r.Scenario, "active_params_b = 9.946\n") ||
		!slices.ContainsFunc(r.Assumed, func(s string) bool { return strings.Contains(s, "9.946 derived") }) ||
		!strings.Contains(r.Scenario, "expert_ffn_hidden = 1000\n") || !strings.Contains(r.Scenario, "dense_layers = 1\n") || len(r.NotModelled) != 0 {
		t.Errorf("derived active parameters: %q %q\n%s", r.Assumed, r.NotModelled, r.Scenario)
	}
	for _, bad := range [][]byte{runDoc("test", "kind = \"dense\"", "metric = \"step_s\"", "published = 1"),
		runDoc(SplitDev, "kind = \"dense\"", "metric = \"mfu\"", "published = 1"),
		runDoc(SplitDev, "kind = \"hybrid\"", "metric = \"step_s\"", "published = 1"),
		runDoc(SplitDev, "kind = \"dense\"", "metric = \"step_s\"", "published = 0"),
		runDoc(SplitDev, "kind = \"dense\"", "metric = \"step_s\"", "published = 1", "tp = 1.5")} {
		if _, err := ParseRuns(bad); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}

// An MoE run published in TFLOP/s is counted by Megatron-LM's later
// form (training.py transformer_flops). By hand: s 1024, L 2 of which 1
// dense (ffn 4096), h 1024, 8 heads of head_dim 256 (q 2048, wider than
// h) and 2 KV heads (v 512), experts 512 wide, top 2, one shared expert
// 256 wide, SwiGLU, vocab 50,000 padded to 50,176 (tp 2), 8 sequences:
// MLP 3 x (4096 x 1 + (512 x 2 + 256) x 1) = 16,128; attention 2 x
// (1024 x (2048 + 1024) + 2048 x 1024 + 2048 x 1024) = 14,680,064;
// 8 x 1024 x (6 x 1024 x 16,128 + 6 x 14,680,064 + 6 x 1024 x 50,176)
// = 4.05874409472e12. A latent-attention (MLA) run has no figure.
// Mutations caught: head_dim ignored (hidden / heads taken), the
// causal half of the scores left out, the shared expert or the dense
// layer dropped, the routed experts not multiplied by top_k, an MLA
// run's attention field (without its ranks) dropped from the
// not-modelled list, a width the model takes left out of the scenario.
func TestParseRunsMoEFLOPs(t *testing.T) {
	shape := []string{"kind = \"moe\"", "metric = \"tflops_per_gpu\"", "published = 400", "layers = 2", "dense_layers = 1", "hidden = 1024",
		"heads = 8", "kv_heads = 2", "head_dim = 256", "ffn_hidden = 4096", "expert_ffn_hidden = 512", "experts = 8", "top_k = 2",
		"shared_experts = 1", "shared_expert_ffn_hidden = 256", "mlp = \"swiglu\"", "vocab = 50000", "seq_len = 1024",
		"global_batch_tokens = 8192", "tp = 2", "micro_batch = 1", "ep = 2"}
	for _, c := range []struct {
		extra string
		want  float64
	}{{"", 4.05874409472e12}, {"attention = \"mla (q_lora_rank 1536, kv_lora_rank 512)\"", 0}} {
		runs, err := ParseRuns(runDoc(SplitDev, append(shape, c.extra)...))
		if err != nil {
			t.Fatal(err)
		}
		r := runs[0]
		if c.want == 0 {
			if r.NoFigure == "" || r.flopsPerStep != 0 || !slices.Contains(r.NotModelled, c.extra) {
				t.Errorf("%s: FLOPs %g, want no figure and the attention listed as not modelled (%q)", c.extra, r.flopsPerStep, r.NotModelled)
			}
			continue
		}
		if math.Abs(r.flopsPerStep/c.want-1) > 1e-12 || r.NoFigure != "" {
			t.Errorf("FLOPs %g, want %g (%s)", r.flopsPerStep, c.want, r.NoFigure)
		}
		for _, line := range []string{"head_dim = 256", "shared_expert_ffn_hidden = 256", "shared_experts = 1", "dense_layers = 1", "expert_ffn_hidden = 512", "ffn_hidden = 4096", `mlp = "swiglu"`} {
			if !strings.Contains(r.Scenario, line+"\n") || slices.Contains(r.NotModelled, line) {
				t.Errorf("%s: the model takes it (in the scenario, not listed): not modelled %q\n%s", line, r.NotModelled, r.Scenario)
			}
		}
	}
}

// The shipped run files load: 25 dev runs (12 dense, 13 MoE) and 14
// held-out (7 dense, 7 MoE), as data/runs/README.md counts them, and
// every run with a figure times on the model. Mutations caught: a split
// read from the wrong file, a run dropped.
func TestShippedRuns(t *testing.T) {
	runs, err := LoadRuns(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, r := range TimeRuns(runs, testCatalog(t)) {
		count[r.Run.Split+" "+r.Run.Kind]++
		if r.Err == nil && !(r.Model > 0) {
			t.Errorf("%s: model %g", r.Run.ID, r.Model)
		}
	}
	want := map[string]int{"dev dense": 12, "dev moe": 13, "heldout dense": 7, "heldout moe": 7}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%s: %d runs, want %d", k, count[k], n)
		}
	}
}

// A published NVLink domain of a rack-scale system runs the run on that
// catalog system (DGX GB200 is the GB200 NVL72 rack: 72 GPUs on one
// NVLink domain, so EP 8 over two 4-GPU trays stays on NVLink); any other
// domain stays "not modelled" and names no system. Mutations caught: the
// domain dropped without a word (as before), a system named for a domain
// the catalog does not have, the GPU not checked.
func TestRunNVLinkDomain(t *testing.T) {
	for _, c := range []struct {
		gpu      string
		domain   int
		system   string
		modelled bool
	}{
		{"gb200", 72, "gb200-nvl72", true},
		{"gb300", 72, "gb300-nvl72", true},
		{"gb200", 36, "", false},
		{"h100", 72, "", false},
	} {
		doc := "schema = 1\nsplit = \"dev\"\n[[run]]\nid = \"r\"\nname = \"R\"\nsource = \"s\"\nkind = \"dense\"\nmetric = \"step_s\"\npublished = 1\nunit = \"s\"\n" +
			"gpu = \"" + c.gpu + "\"\ngpu_count = 8\ngpus_per_server = 4\nnvlink_domain = " + strconv.Itoa(c.domain) + "\n" +
			"layers = 2\nhidden = 1024\nheads = 8\nseq_len = 1024\nglobal_batch_tokens = 8192\nmicro_batch = 1\nvpp = 1\n"
		runs, err := ParseRuns([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		r := runs[0]
		hasSystem := strings.Contains(r.Scenario, "system = ")
		if c.system != "" && !strings.Contains(r.Scenario, "system = \""+c.system+"\"\n") || c.system == "" && hasSystem {
			t.Errorf("%s, domain %d: scenario\n%s", c.gpu, c.domain, r.Scenario)
		}
		nm := slices.Contains(r.NotModelled, "nvlink_domain = "+strconv.Itoa(c.domain))
		if nm == c.modelled {
			t.Errorf("%s, domain %d: not modelled %q", c.gpu, c.domain, r.NotModelled)
		}
	}
}

// A partial recomputation whose source counts the layers
// (recompute_layers: Primus's default, one layer per virtual stage, 32
// of DeepSeek-V3's 61) runs with recompute_layers and is not listed as
// not modelled; a selective one by Megatron-Core modules runs them
// (recompute_modules, the Model-Zoo's "norm" and "act" read as
// layernorm and moe_act); one naming a module the model does not know
// stays listed and runs none; a full one runs recompute = true and
// writes no count. Mutations caught: the count left unread, written for
// a full recomputation, the modules not written or their aliases not
// read, or an unknown selective one dropped from the list.
func TestRunPartialRecompute(t *testing.T) {
	for _, c := range []struct {
		fields      string
		line        string // in the scenario
		notModelled bool
	}{
		{"recompute = \"1 recomputed layer per virtual stage (default)\"\nrecompute_layers = 32\n", "recompute_layers = 32\nrecompute = false\n", false},
		{"recompute = \"selective (norm, act)\"\n", "recompute_modules = [\"layernorm\", \"moe_act\"]\nrecompute = false\n", false},
		{"recompute = \"selective (mla_up_proj, core_attn)\"\n", "recompute_modules = [\"mla_up_proj\", \"core_attn\"]\nrecompute = false\n", false},
		{"recompute = \"selective (attn)\"\n", "recompute = false\n", true},
		{"recompute = \"full\"\nrecompute_layers = 61\n", "recompute = true\n", false},
	} {
		doc := "schema = 1\nsplit = \"dev\"\n[[run]]\nid = \"r\"\nname = \"R\"\nsource = \"s\"\nkind = \"dense\"\nmetric = \"step_s\"\npublished = 1\nunit = \"s\"\n" +
			"gpu = \"h100\"\ngpu_count = 8\ngpus_per_server = 8\nlayers = 61\nhidden = 1024\nheads = 8\nseq_len = 1024\nglobal_batch_tokens = 8192\nmicro_batch = 1\n" + c.fields
		runs, err := ParseRuns([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		r := runs[0]
		counted := strings.Contains(r.Scenario, "recompute_layers")
		if !strings.Contains(r.Scenario, c.line) || counted != strings.Contains(c.line, "recompute_layers") {
			t.Errorf("%q: scenario\n%s", c.fields, r.Scenario)
		}
		listed := false
		for _, nm := range r.NotModelled {
			listed = listed || strings.HasPrefix(nm, "recompute")
		}
		if listed != c.notModelled {
			t.Errorf("%q: not modelled %q", c.fields, r.NotModelled)
		}
	}
}

// torchtitan's per-op selective recomputation runs as the whole layers
// of the same forward FLOPs. By hand, Llama 3.1 8B (h 4,096, 32 heads of
// which 8 KV: kv 1,024; ffn 14,336; s 8,192; 32 layers): recomputed wk,
// wo, w3 = 4,194,304 + 16,777,216 + 58,720,256 = 79,691,776 per token;
// the layer's forward 25,165,824 + 16,777,216 + 176,160,768 + 67,108,864
// = 285,212,672; 32 x 0.2794 = 8.94: 9 layers. An odd shape (h 1,000,
// 10 heads of which 5 KV: kv 500; ffn 3,000; s 3,000; 7 layers): 500,000
// + 1,000,000 + 3,000,000 = 4,500,000 of 2,000,000 + 1,000,000 +
// 9,000,000 + 6,000,000 = 18,000,000: 7 x 0.25 = 1.75: 2. A GELU block
// (not torchtitan's Llama order) stays listed and runs none. Mutations
// caught: the odd products recomputed (wq, wv, w1, w2: 16 layers, not 9),
// the scores left out of the layer (12), the label left listed.
func TestRunPerOpSAC(t *testing.T) {
	for _, c := range []struct {
		name, shape string
		line        string // in the scenario
		notModelled bool
	}{
		{"llama 3.1 8b", "layers = 32\nhidden = 4096\nheads = 32\nkv_heads = 8\nffn_hidden = 14336\nseq_len = 8192\nmlp = \"swiglu\"\n", "recompute_layers = 9\nrecompute = false\n", false},
		{"odd shape", "layers = 7\nhidden = 1000\nheads = 10\nkv_heads = 5\nffn_hidden = 3000\nseq_len = 3000\nmlp = \"swiglu\"\n", "recompute_layers = 2\nrecompute = false\n", false},
		{"gelu block", "layers = 32\nhidden = 4096\nheads = 32\nffn_hidden = 16384\nseq_len = 2048\nmlp = \"gelu\"\n", "recompute = false\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := "schema = 1\nsplit = \"dev\"\n[[run]]\nid = \"r\"\nname = \"R\"\nsource = \"s\"\nkind = \"dense\"\nmetric = \"step_s\"\npublished = 1\nunit = \"s\"\n" +
				"gpu = \"h100\"\ngpu_count = 8\ngpus_per_server = 8\nglobal_batch_tokens = 65536\nmicro_batch = 1\nrecompute = \"selective (per-op SAC)\"\n" + c.shape
			runs, err := ParseRuns([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			r := runs[0]
			if !strings.Contains(r.Scenario, c.line) || strings.Contains(r.Scenario, "recompute_layers") != strings.Contains(c.line, "recompute_layers") {
				t.Errorf("scenario\n%s\nwant it to hold %q", r.Scenario, c.line)
			}
			listed := slices.ContainsFunc(r.NotModelled, func(nm string) bool { return strings.HasPrefix(nm, "recompute") })
			if listed != c.notModelled {
				t.Errorf("not modelled %q: recompute listed %t, want %t", r.NotModelled, listed, c.notModelled)
			}
		})
	}
}

// A run's expert tensor parallelism (etp) and token dropping reach the
// model (workload etp and token_drop) and are not listed as not
// modelled; a run without them writes neither (etp then defaults to
// tp, Megatron-LM's default, and routing is dropless). Mutations caught:
// etp left unwritten (as before: Megatron's etp = tp taken against the
// published 1), token_drop left unwritten or written as false.
func TestRunExpertFolding(t *testing.T) {
	for _, c := range []struct {
		fields string
		lines  []string // in the scenario
		absent []string // not in it
	}{
		{"etp = 1\ntoken_drop = true\n", []string{"etp = 1\n", "token_drop = true\n"}, nil},
		{"etp = 4\n", []string{"etp = 4\n"}, []string{"token_drop"}},
		{"token_drop = false\n", nil, []string{"etp", "token_drop"}},
	} {
		runs, err := ParseRuns(runDoc(SplitDev, "kind = \"moe\"", "metric = \"step_s\"", "published = 1", "unit = \"s\"", "gpus_per_server = 8",
			"layers = 4", "hidden = 1024", "heads = 8", "seq_len = 1024", "experts = 8", "top_k = 2", "params_b = 3", "active_params_b = 1",
			"global_batch_tokens = 65536", "micro_batch = 1", "tp = 4", "ep = 8", c.fields))
		if err != nil {
			t.Fatal(err)
		}
		r := runs[0]
		for _, l := range c.lines {
			if !strings.Contains(r.Scenario, l) {
				t.Errorf("%q: scenario lacks %q:\n%s", c.fields, l, r.Scenario)
			}
		}
		for _, l := range c.absent {
			if strings.Contains(r.Scenario, l) {
				t.Errorf("%q: scenario has %q:\n%s", c.fields, l, r.Scenario)
			}
		}
		for _, nm := range r.NotModelled {
			if strings.HasPrefix(nm, "etp") || strings.HasPrefix(nm, "token_drop") {
				t.Errorf("%q: %q listed as not modelled", c.fields, nm)
			}
		}
	}
}
