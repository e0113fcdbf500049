package perf

import "math"

// BisectionProbe is a random bisection on a two-tier, non-blocking fabric
// of servers with one NIC of NICGbps each, Servers of them: every server
// sends one flow to a server under another leaf, as in the effective
// bisection bandwidth benchmark (Hoefler, Schneider, Lumsdaine, Cluster
// 2008), with LeafDown servers per leaf (0 is 32).
type BisectionProbe struct {
	Fabric   Fabric
	NICGbps  float64
	Servers  int
	LeafDown int
}

// BisectionShare is the probe's mean bandwidth per flow with static
// routing over its bandwidth with adaptive routing: each flow crossing
// the leaf tier meets the model's hashed links (the stages per tier of
// data/jct.toml, every other flow of its leaf landing on its link with
// the stage's probability) and gets one over the load of its most
// loaded link. Unlike a collective, which runs at its slowest flow, the
// benchmark averages the flows.
func BisectionShare(d *JCTData, p BisectionProbe) float64 {
	fv := validationView(1, 1, p.NICGbps, p.Fabric)
	if p.LeafDown > 0 {
		fv.serversPerUnit = p.LeafDown
	}
	fv.static, fv.spread = true, true
	fv.maxActiveQueuePairs, fv.stages, fv.channels = d.ECMP.MaxActiveQueuePairs, 1, 1
	fv.setJobSize(max(p.Servers, 2), 1)
	s, _ := fv.hashStages(1, 1, 0)
	// A tagged flow's link holds it and Binomial(flows-1, p) others, at
	// each of the stages per tier it meets (independent).
	return meanInverseMaxLoad(s.flows-1, s.p, int(math.Max(1, math.Round(d.ECMP.StagesPerTier))))
}

// meanInverseMaxLoad is E[1/M], M = 1 + the largest of k independent
// Binomial(n, p) draws: a tagged flow's share of its most loaded link.
func meanInverseMaxLoad(n, p float64, k int) float64 {
	n = math.Max(0, math.Round(n))
	if n == 0 || p <= 0 {
		return 1
	}
	if p >= 1 { // every other flow on the tagged flow's link
		return 1 / (n + 1)
	}
	ln := func(x float64) float64 { v, _ := math.Lgamma(x + 1); return v }
	mean, prevMax := 0.0, 0.0
	cdf := 0.0
	for x := 0.0; x <= n; x++ {
		cdf = math.Min(1, cdf+math.Exp(ln(n)-ln(x)-ln(n-x)+x*math.Log(p)+(n-x)*math.Log1p(-p)))
		pMax := math.Pow(cdf, float64(k)) // P(max <= x)
		mean += (pMax - prevMax) / (1 + x)
		prevMax = pMax
		if 1-pMax < 1e-12 {
			break
		}
	}
	return mean
}
