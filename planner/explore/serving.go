package explore

import (
	"fmt"
	"slices"

	"fabricplan/planner"
	"fabricplan/planner/serve"
)

// rackScaleDomain is the NVLink domain above which a system is rack-scale
// (an NVL72 rack) rather than an 8-GPU server.
const rackScaleDomain = 8

// ServingVariants plans an inference scenario and the fabric choices a
// planner weighs for tokens/s per dollar: the other fabric and the other
// NIC speed (planner.Alternatives), the other leaf ratio (2:1 for a
// non-blocking leaf, else 1:1), and, for the same GPU count, each system
// of the catalog with the same GPU on the other side of rack scale
// (NVL72 against 8-GPU servers), or of its generation (GB200 NVL72
// against DGX B200). The first variant is the scenario's own;
// a variant that does not plan keeps its Err. s must be an inference
// scenario and must plan.
func ServingVariants(s planner.Scenario, cat *planner.Catalog) ([]planner.Variant, error) {
	if s.Workload == nil || s.Workload.Kind != serve.KindInference {
		return nil, fmt.Errorf("serving variants: %q is not an inference scenario", s.Name)
	}
	out, err := planner.Alternatives(s, cat)
	if err != nil {
		return nil, err
	}
	ratio := s
	ratio.Network.Oversubscription = "2:1"
	if s.Network.Oversubscription != "1:1" {
		ratio.Network.Oversubscription = "1:1"
	}
	vs := []planner.Variant{{Label: "leaf " + ratio.Network.Oversubscription}}
	scens := []planner.Scenario{ratio}
	for _, key := range otherScaleSystems(out[0].Plan, cat) {
		v := planner.AutoHardware(s)
		v.Cluster.System = key
		vs, scens = append(vs, planner.Variant{Label: key}), append(scens, v)
	}
	for i, v := range scens {
		vs[i].Plan, vs[i].Err = planner.Build(v, cat)
	}
	return append(out, vs...), nil
}

// otherScaleSystems are the catalog's systems with p's GPU, or of its
// GPU generation (System.Generation), on the other side of rack scale
// from p's system, by key; none for a custom server.
func otherScaleSystems(p *planner.Plan, cat *planner.Catalog) []string {
	own := p.System
	if own == nil {
		return nil
	}
	var keys []string
	for k, sys := range cat.Systems {
		peer := sys.GPU == own.GPU || own.Generation != "" && sys.Generation == own.Generation
		if peer && (sys.NVLinkDomain > rackScaleDomain) != (own.NVLinkDomain > rackScaleDomain) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
