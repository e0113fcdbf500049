package planner

import (
	"errors"
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
	"fabricplan/planner/perf"
)

// load_balancing = "spray" (per-packet spraying, as Ultra Ethernet and
// Spectrum-X do) was refused. Spraying hashes no flow onto one uplink,
// so it loses nothing to collisions, and crossing the spines it reaches
// the 95% of a link NVIDIA measured for Spectrum-X's sprayed adaptive
// routing at scale (data/jct.toml [crossing] efficiency): the same step
// as flowlet adaptive routing (Baidu's DLB, also ~95%), shorter than
// static ECMP's on a fabric where flows collide, and the breakdown says
// the packets are sprayed. Static routing with spraying, or a misspelt
// value, is refused naming the field and the fix. Mutations caught:
// spray routed as static (collisions charged), the breakdown silent on
// it, spray accepted with routing = "static".
func TestLoadBalancingSpray(t *testing.T) {
	cat := testCatalog(t)
	steps := map[string]float64{}
	for _, lb := range []string{LBAdaptive, LBSpray, LBECMP} {
		s := scenarioFile(t, "eth-800g-16k")
		s.Network.LoadBalancing, s.Network.Routing = lb, ""
		p, err := Build(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", lb, err)
		}
		steps[lb] = p.JCT.Planned.StepS
		sprayed := false
		for _, r := range p.JCT.Breakdown() {
			sprayed = sprayed || (r.Part == "effect: "+perf.EffectCrossing || r.Part == perf.EffectCrossing) && strings.Contains(r.Detail, "sprayed")
		}
		if sprayed != (lb == LBSpray) {
			t.Errorf("%s: breakdown names spraying %v", lb, sprayed)
		}
	}
	if steps[LBSpray] != steps[LBAdaptive] || steps[LBECMP] <= steps[LBSpray] {
		t.Errorf("steps adaptive %v, spray %v, ecmp %v: want spray = adaptive < ecmp", steps[LBAdaptive], steps[LBSpray], steps[LBECMP])
	}
	for _, c := range []struct {
		name, lb, routing, field, fix string
	}{
		{"static with spray", LBSpray, RouteStatic, "network.routing", `drop routing = "static"`},
		{"misspelt", "sprya", "", "network.load_balancing", `"spray"`},
	} {
		s := scenarioFile(t, "eth-800g-16k")
		s.Network.LoadBalancing, s.Network.Routing = c.lb, c.routing
		err := s.Validate(cat)
		var fe *fielderr.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Fix, c.fix) {
			t.Errorf("%s: %v, want an error on %s whose fix says %s", c.name, err, c.field, c.fix)
		}
	}
}
