package explore

import (
	"sort"
	"strings"
)

// rankServing fills every design's tokens per dollar and SLO misses from
// its plan's serving estimate and ranks the designs of an inference
// scenario in r.Ranked: those meeting the TPOT and TTFT targets first,
// each group by tokens per dollar, most first (then cheapest). Designs
// that miss a target stay in the ranking, after those that meet it,
// with SLOMiss saying what they miss. A training scenario's designs have
// no estimate and r.Ranked stays nil.
func (r *SearchResult) rankServing() {
	r.Ranked = nil
	for _, d := range r.Designs {
		p := d.Plan
		if p == nil || p.Inference == nil || p.Scenario.Inference == nil {
			continue
		}
		d.TokensPerDollar = p.Inference.TokensPerDollar
		d.SLOMiss = strings.Join(p.Scenario.Inference.SLOMisses(p.Inference), "; ")
		r.Ranked = append(r.Ranked, d)
	}
	sort.SliceStable(r.Ranked, func(i, j int) bool {
		a, b := r.Ranked[i], r.Ranked[j]
		if (a.SLOMiss == "") != (b.SLOMiss == "") {
			return a.SLOMiss == ""
		}
		if a.TokensPerDollar != b.TokensPerDollar {
			return a.TokensPerDollar > b.TokensPerDollar
		}
		return a.CostUSD < b.CostUSD
	})
}
