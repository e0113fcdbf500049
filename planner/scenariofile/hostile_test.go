package scenariofile

import (
	"fabricplan/internal/fielderr"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Mutation caught: comparisons written as `v < 0 || v > max`, which NaN
// passes; no upper bound on prices (1e308 overflows the BOM's int
// formatting to "$-9,223,372,036,854,775,808").
func TestNonFiniteAndHugeValuesRejected(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name, body, field string
	}{
		{"NaN price", "[prices]\nqm9700 = nan\n", "prices.qm9700"},
		{"Inf price", "[prices]\nqm9700 = inf\n", "prices.qm9700"},
		{"1e308 price", "[prices]\nqm9700 = 1e308\n", "prices.qm9700"},
		// Hostile case H48 '[prices] qm9700 = 1e-300'. Caught: a floor of
		// 0, which priced a $30k switch at $0 (quotes had a floor of a
		// cent; the overrides did not).
		{"1e-300 price", "[prices]\nqm9700 = 1e-300\n", "prices.qm9700"},
		{"price under a cent", "[prices]\nqm9700 = 0.009\n", "prices.qm9700"},
		{"1e-300 server price", "[cluster]\nserver_price_usd = 1e-300\n", "cluster.server_price_usd"},
		{"NaN server price", "[cluster]\nserver_price_usd = nan\n", "cluster.server_price_usd"},
		{"-Inf server price", "[cluster]\nserver_price_usd = -inf\n", "cluster.server_price_usd"},
		{"NaN cable length", "[network.media]\nleaf_spine_m = nan\n", "network.media.leaf_spine_m"},
		{"NaN params", "[workload]\nparams_b = nan\n", "workload.params_b"},
		{"Inf tokens", "[workload]\ntokens_total = inf\n", "workload.tokens_total"},
		{"NaN efficiency", "[workload]\ncompute_efficiency = nan\n", "workload.compute_efficiency"},
		{"NaN overlap", "[workload]\noverlap_dp = nan\n", "workload.overlap_dp"},
		{"int64 max hidden", "[workload]\nhidden = 9223372036854775807\n", "workload.hidden"},
		{"huge layers", "[workload]\nlayers = 100000000\n", "workload.layers"},
		{"huge seq_len", "[workload]\nseq_len = 1000000000000\n", "workload.seq_len"},
		{"huge batch", "[workload]\nglobal_batch_tokens = 9223372036854775807\n", "workload.global_batch_tokens"},
		{"huge micro-batch", "[workload]\nmicro_batch = 100000000\n", "workload.micro_batch"},
		{"huge ports per NIC", "[network]\nports_per_nic = 1000000\n", "network.ports_per_nic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check([]byte("schema = 1\n"+tc.body), cat)
			if !namesField(err, tc.field) {
				t.Fatalf("err = %v, want an error naming %s", err, tc.field)
			}
		})
	}
}

// Mutation caught: the decoder stops at the first wrong type, so a file
// with five mistakes needs five rounds of fixing.
func TestAllErrorsAtOnce(t *testing.T) {
	cat := testCatalog(t)
	src := `schema = 1
[cluster]
gpus = "many"
gpus_per_server = 8.5
[network]
planes = 3
fabric = "token-ring"
plains = 2
[prices]
qm9700 = nan
[workload]
tp = "eight"
`
	_, err := Check([]byte(src), cat)
	want := map[string]int{
		"cluster.gpus": 3, "cluster.gpus_per_server": 4, "network.fabric": 7, "network.plains": 8,
		"prices.qm9700": 10, "workload.tp": 12,
	}
	got := map[string]int{}
	for _, fe := range fielderr.FieldErrors(err) {
		got[fe.Field] = fe.Line
	}
	for f, line := range want {
		if got[f] != line {
			t.Errorf("%s: line %d, want %d (all: %v)", f, got[f], line, err)
		}
	}
}

// Mutation caught: no cap on listed errors (100k lines of output, and a
// suggestion search for each unknown key).
func TestErrorsAreCapped(t *testing.T) {
	cat := testCatalog(t)
	var b strings.Builder
	b.WriteString("schema = 1\n[prices]\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "p%d = 1\n", i)
	}
	start := time.Now()
	_, err := Check([]byte(b.String()), cat)
	elapsed := time.Since(start)
	fes := fielderr.FieldErrors(err)
	if len(fes) != fielderr.MaxListed+1 || !strings.Contains(fes[len(fes)-1].Problem, "more problems") {
		t.Fatalf("%d errors listed, want %d and a count of the rest", len(fes), fielderr.MaxListed+1)
	}
	t.Logf("100,000 unknown price keys: %v", elapsed) // a figure, not a gate
}

// Mutations caught: no nesting limit (the decoder recurses 100k deep), no
// dotted-key limit (a 100k-part key hangs the decoder).
func TestDeepDocumentsRefused(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"inline tables", "schema = 1\nx = " + strings.Repeat("{a=", 100_000) + "1" + strings.Repeat("}", 100_000) + "\n"},
		{"arrays", "schema = 1\nx = " + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + "\n"},
		{"dotted key", "schema = 1\n" + strings.Repeat("a.", 100_000) + "b = 1\n"},
		{"dotted header", "schema = 1\n[" + strings.Repeat("a.", 100_000) + "b]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := Parse([]byte(tc.src))
				done <- err
			}()
			select {
			case err := <-done:
				if !namesField(err, "file") {
					t.Errorf("err = %v, want a file-level refusal", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("parsing did not finish in 10 s")
			}
		})
	}
	// Dots in values, strings and comments are not key parts.
	ok := "schema = 1 # a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\n" +
		"name = \"" + strings.Repeat("v1.", 40) + "\"\n[network.media]\nleaf_spine_m = 1.5\n"
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("dots outside keys refused: %v", err)
	}
}

// A document at the size limit of unknown keys parses within bounded
// memory; the figures are printed, the bound is generous.
func TestLargeDocumentBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("schema = 1\n")
	for b.Len() < 1<<20-16 {
		fmt.Fprintf(&b, "k%d = 1\n", b.Len())
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Parse([]byte(b.String()))
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("unknown keys accepted")
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("1 MiB of unknown keys: %v, %d MiB allocated", elapsed, alloc>>20)
	if alloc > 1<<30 {
		t.Errorf("allocated %d MiB for a 1 MiB document", alloc>>20)
	}
}

// TestInvisibleAndEncodings names what a user cannot see: an invisible
// character in a key, quoted or bare, and a file in UTF-16. Mutations
// caught: the unknown-key message with its useless suggestion ("unknown
// key cluster.gpus, did you mean cluster.gpus?", issue #48), the key
// named with the invisible character still in it, the bare key named
// without its table, UTF-16 reported as a NUL byte or a syntax error.
func TestInvisibleAndEncodings(t *testing.T) {
	utf16 := func(s string, big bool) string {
		var b strings.Builder
		for i := range len(s) {
			if big {
				b.WriteByte(0)
			}
			b.WriteByte(s[i])
			if !big {
				b.WriteByte(0)
			}
		}
		return b.String()
	}
	const doc = "schema = 1\n[cluster]\ngpus = 1024\n"
	for _, tc := range []struct {
		name, src, want string
	}{
		{"quoted key, zero width space", "schema = 1\n[cluster]\n\"gp\u200bus\" = 1024\n",
			"cluster.gpus (line 3): the key contains an invisible U+200B (zero width space); delete the key and type it again"},
		{"quoted key, word joiner", "schema = 1\n[network]\n\"planes\u2060\" = 2\n",
			"network.planes (line 3): the key contains an invisible U+2060 (word joiner)"},
		{"bare key, zero width space", "schema = 1\n[cluster]\nsystem = \"dgx-h100\"\ngp\u200bus = 1024\n",
			"file (line 4): key cluster.gpus contains an invisible U+200B (zero width space)"},
		// A bare key under the second [[phase]] header is that phase's,
		// not the last [table]'s (caught: [[...]] headers skipped, which
		// named it network.gpus).
		{"bare key in an array of tables", "schema = 1\n[network]\nplanes = 1\n[[phase]]\ngpus = 256\n[[phase]]\ngp\u200bus = 512\n",
			"file (line 7): key phase[2].gpus contains an invisible U+200B (zero width space)"},
		{"UTF-16LE with BOM", "\xff\xfe" + utf16(doc, false), "file (line 1): the file is UTF-16LE text (as Windows Notepad saves Unicode); save it as UTF-8"},
		{"UTF-16BE without BOM", utf16(doc, true), "file (line 1): the file is UTF-16BE text"},
		// Hostile cases H48 'key written twice' and 'table written
		// twice'. Caught: "check the value's type and quotes" and "fix
		// the syntax at that line", fixes that do not fit the fault.
		{"key written twice", doc + "gpus = 2048\n", "cluster.gpus (line 4): Key 'cluster.gpus' has already been defined.; the key is written twice: keep one of the two lines"},
		{"table written twice", doc + "[cluster]\n", "file (line 4): not valid TOML: Key 'cluster' has already been defined.; the table is written twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant it to say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "did you mean") || strings.ContainsRune(err.Error(), '\u200b') {
				t.Errorf("err = %q names the key as typed", err)
			}
		})
	}
	if _, err := Parse([]byte("\ufeff" + doc)); err != nil {
		t.Errorf("UTF-8 with a byte-order mark: %v", err)
	}
}

// Hostile cases H48 'save a 2 MB name' and 'save a name that is not
// UTF-8'. Mutation caught: SaveFile or SaveEdit (the window's save)
// writing whatever the encoder or the editor gives, so a
// file that opened was replaced by one Load refuses (over the 1 MiB
// limit, or invalid UTF-8): the old file is to stay as it was.
func TestSaveRefusesWhatLoadRefuses(t *testing.T) {
	cat := testCatalog(t)
	base, err := Load("../../data/scenarios/ib-ndr-1k.toml", cat)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, scenarioName, want string
	}{
		{"2 MB name", strings.Repeat("x", 2<<20), "over the 1,048,576 bytes"},
		{"name not UTF-8", "rack \xff", "not UTF-8"},
		{"name just under the limit", strings.Repeat("x", 1<<19), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.toml")
			if err := Save(path, base); err != nil {
				t.Fatal(err)
			}
			saved, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := base
			s.Name = tc.scenarioName
			err = Save(path, s)
			// The window saves through SaveEdit: the same check.
			if _, editErr := SaveEdit(path, saved, base, s); (editErr == nil) != (err == nil) {
				t.Errorf("SaveEdit error %v, Save error %v: want both or neither", editErr, err)
			}
			if tc.want == "" {
				if err != nil {
					t.Fatalf("save: %v", err)
				}
				if _, err := Load(path, cat); err != nil {
					t.Errorf("saved file does not open: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("save error %v, want one containing %q", err, tc.want)
			}
			if _, err := Load(path, cat); err != nil {
				t.Errorf("the file saved before no longer opens: %v", err)
			}
		})
	}
}
