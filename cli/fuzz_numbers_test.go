package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// numbers are the workload and price values FuzzWorkloadNumbers varies.
type numbers struct {
	gpus, gbt, micro, tp, pp, vpp, seqLen, layers int64
	eff, paramsB, tokens, overlap, price, server  float64
}

// tomlFloat writes x as TOML does: nan, inf and -inf have no digits.
func tomlFloat(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func (n numbers) scenario() string {
	return fmt.Sprintf(`schema = 1
[cluster]
gpus = %d
server_price_usd = %s
[workload]
model = "llama3-70b"
gpu = "h100"
global_batch_tokens = %d
micro_batch = %d
tp = %d
pp = %d
vpp = %d
seq_len = %d
layers = %d
compute_efficiency = %s
params_b = %s
tokens_total = %s
overlap_dp = %s
[prices]
qm9700 = %s
`, n.gpus, tomlFloat(n.server), n.gbt, n.micro, n.tp, n.pp, n.vpp, n.seqLen, n.layers,
		tomlFloat(n.eff), tomlFloat(n.paramsB), tomlFloat(n.tokens), tomlFloat(n.overlap), tomlFloat(n.price))
}

// nonFiniteRE finds how Go prints NaN and infinities.
var nonFiniteRE = regexp.MustCompile(`\bNaN\b|\bInf\b`)

// fuzzSeeds are the extremes of every range docs/scenario.md gives (and
// one step past them), with the inputs of issue 26: an efficiency of
// 1e-310 and a one-token batch.
func fuzzSeeds() []numbers {
	base := numbers{gpus: 1024, gbt: 16 << 20, micro: 1, tp: 8, pp: 4, vpp: 5, seqLen: 8192, layers: 80,
		eff: 0.45, paramsB: 70, tokens: 1e12, overlap: 0.5, price: 25000, server: 300000}
	seeds := []numbers{base}
	for _, edit := range []func(n *numbers){
		func(n *numbers) { n.eff = 1e-310 },
		func(n *numbers) { n.eff = 0.01 },
		func(n *numbers) { n.eff = 1 },
		func(n *numbers) { n.gbt = 1 },
		func(n *numbers) { n.gbt = 1 << 40 },
		func(n *numbers) { n.vpp = 1024 },
		func(n *numbers) { n.paramsB, n.tokens = 0.01, 1 },
		func(n *numbers) { n.paramsB, n.tokens = 1e5, 1e16 },
		func(n *numbers) { n.gpus, n.tp, n.pp, n.vpp = 10_000_000, 1, 1, 1 },
		func(n *numbers) { n.gpus, n.tp, n.pp, n.vpp, n.gbt = 32, 8, 4, 20, 8192*1 },
		func(n *numbers) { n.price, n.server = 0, 0 },
		func(n *numbers) { n.price, n.server = 100e6, 100e6 },
		func(n *numbers) { n.price = 5e-324 },
		func(n *numbers) { n.seqLen, n.layers, n.micro = 1<<24, 10_000, 4096 },
		func(n *numbers) { n.overlap, n.eff = math.NaN(), math.Inf(1) },
	} {
		n := base
		edit(&n)
		seeds = append(seeds, n)
	}
	return seeds
}

// FuzzWorkloadNumbers runs plan, plan --json, search and report on
// scenarios with fuzzed workload and price numbers. Every run ends with
// exit 0 or a user error (2), never a panic; no output holds NaN or Inf;
// plan --json always encodes. Mutations caught: the efficiency floor
// removed (1e-310 plans to "+Inf s" and search indexes an empty Pareto
// front at -1), or the finite check of computed figures dropped.
func FuzzWorkloadNumbers(f *testing.F) {
	for _, n := range fuzzSeeds() {
		f.Add(n.gpus, n.gbt, n.micro, n.tp, n.pp, n.vpp, n.seqLen, n.layers, n.eff, n.paramsB, n.tokens, n.overlap, n.price, n.server)
	}
	f.Fuzz(func(t *testing.T, gpus, gbt, micro, tp, pp, vpp, seqLen, layers int64, eff, paramsB, tokens, overlap, price, server float64) {
		n := numbers{gpus, gbt, micro, tp, pp, vpp, seqLen, layers, eff, paramsB, tokens, overlap, price, server}
		dir := t.TempDir()
		path := writeScenario(t, dir, "s.toml", n.scenario())
		out, errOut, code := runArgs(t, "plan", "--json", path)
		if code == ExitFailure || code == ExitOK && !json.Valid([]byte(out)) {
			t.Fatalf("plan --json: exit %d\n%s\n%s", code, errOut, n.scenario())
		}
		planned := code == ExitOK
		for _, args := range [][]string{{"plan", path}, {"search", path}, {"report", "--out", filepath.Join(dir, "r.pdf"), path}} {
			if args[0] == "report" && !planned {
				continue // the report plans first: an input error ends it before any page
			}
			out, errOut, code := runArgs(t, args...)
			if code == ExitFailure && !strings.Contains(errOut, "no design") {
				t.Errorf("%s: exit %d: %s\n%s", args[0], code, errOut, n.scenario())
			}
			if nonFiniteRE.MatchString(out) || code == ExitOK && nonFiniteRE.MatchString(errOut) {
				t.Errorf("%s prints a non-finite number:\n%s%s\n%s", args[0], out, errOut, n.scenario())
			}
		}
	})
}
