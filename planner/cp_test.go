package planner

import (
	"fabricplan/planner/perf"
	"math"
	"testing"
)

// Context parallelism splits each sequence over cp GPUs that pass K and V
// round a ring. Llama 3 8B (h 4,096, s 8,192, 8 of 32 heads are KV heads)
// on 16 H100 in two 8-GPU servers, 16M-token batches (2,048 sequences):
//
//	one send: 2 (K and V) x 1 x 8,192/cp x 4,096 x 2 bytes x 8/32 / tp
//	sends per step: 3 (forward, backward twice) x (cp-1) x 32 layers x
//	2,048/dp micro-batches, dp = 16 / (tp x cp)
//
// tp 8, cp 2: 2,097,152 bytes x 196,608 sends, between the two servers
// (the cp ring's stride is tp = 8: over the fabric); tp 4, cp 2: 4,194,304
// bytes x 3 x 32 x 1,024 sends inside one server (NVLink). Activation
// memory per GPU halves against cp 1 at the same tp. Mutations caught:
// K and V counted at full width under GQA, the ring placed by cp alone
// (ignoring the tp stride), the sequence not split for activations, the
// data-parallel size not divided by cp.
func TestContextParallel(t *testing.T) {
	cat := testCatalog(t)
	for _, c := range []struct {
		tp, cp     int
		sendBytes  float64
		sends      float64
		overFabric bool
	}{
		{8, 2, 2097152, 3 * 1 * 32 * 2048, true},
		{4, 2, 4194304, 3 * 1 * 32 * 1024, false},
	} {
		s := NewScenario()
		s.Cluster.GPUs = 16
		w := perf.NewWorkload()
		w.Model, w.TP, w.PP, w.VPP, w.CP = "llama3-8b", c.tp, 1, 1, c.cp
		s.Workload = &w
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		j := p.JCT
		if want := 16 / (c.tp * c.cp); j.DP != want {
			t.Errorf("tp %d cp %d: dp %d, want %d", c.tp, c.cp, j.DP, want)
		}
		var found bool
		for _, cl := range j.Planned.Classes {
			if cl.Name != perf.ClassCP {
				continue
			}
			found = true
			// Each send takes its latency (data/jct.toml: base and NVLink
			// hop, or base, network hop and a switch hop per switch on
			// the path) plus its bytes at the class's bandwidth; 3% covers
			// the cables' propagation delay.
			col := cat.JCT.Collective
			lat := col.BaseLatencyUS + col.NVLinkHopUS
			if c.overFabric {
				lat = col.BaseLatencyUS + col.NetHopUS + col.SwitchHopUS[string(InfiniBand)]*float64(2*p.Tiers-1)
			}
			if want := c.sends * (lat*1e-6 + c.sendBytes/(cl.BusBWGBs*1e9)); math.Abs(cl.TimeS-want) > 0.03*want {
				t.Errorf("tp %d cp %d: %.4g s a step, want %.4g (%.0f sends of %.0f bytes)", c.tp, c.cp, cl.TimeS, want, c.sends, c.sendBytes)
			}
			if cl.CrossesFabric != c.overFabric {
				t.Errorf("tp %d cp %d: crosses the fabric %v, want %v", c.tp, c.cp, cl.CrossesFabric, c.overFabric)
			}
		}
		if !found {
			t.Fatalf("tp %d cp %d: no context-parallel traffic", c.tp, c.cp)
		}
		w.CP = 1
		s.Workload = &w
		p1, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := j.Memory.ActivationsGB, p1.JCT.Memory.ActivationsGB/2; math.Abs(got-want) > 1e-6 {
			t.Errorf("tp %d cp %d: activations %.3f GB, want half of cp 1's: %.3f", c.tp, c.cp, got, want)
		}
	}
}
