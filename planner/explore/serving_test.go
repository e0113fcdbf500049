package explore

import (
	"maps"
	"slices"
	"testing"

	"fabricplan/planner"
)

// The rack-scale counterpart of a plan's system is a catalog system with
// the same GPU on the other side of an 8-GPU NVLink domain: with an
// H100 NVL72 added beside dgx-h100 and hgx-h100 (both 8 GPUs), a
// dgx-h100 plan gets the NVL72 alone and the NVL72 plan gets both
// servers; the catalog as shipped has no H100 rack and no 8-GPU GB200,
// so neither gets one; a custom server gets none. Mutation caught: the
// rack-scale test dropped (hgx-h100 offered against dgx-h100).
func TestOtherScaleSystems(t *testing.T) {
	cat := testCatalog(t)
	with := *cat
	with.Systems = maps.Clone(cat.Systems)
	rack := *cat.Systems["gb200-nvl72"]
	rack.Key, rack.GPU, rack.Generation = "h100-nvl72", "h100", "" // a Hopper rack: no Blackwell peer
	with.Systems[rack.Key] = &rack
	for _, c := range []struct {
		cat    *planner.Catalog
		system string
		want   []string
	}{
		{&with, "dgx-h100", []string{"h100-nvl72"}},
		{&with, "h100-nvl72", []string{"dgx-h100", "hgx-h100"}},
		{cat, "dgx-h100", nil},
		// One generation across rack scale (data/catalog.toml's
		// generation, from NVIDIA's product pages): GB200 NVL72 against
		// DGX B200, GB300 NVL72 against DGX B300.
		{cat, "gb200-nvl72", []string{"dgx-b200"}},
		{cat, "dgx-b200", []string{"gb200-nvl72"}},
		{cat, "dgx-b300", []string{"gb300-nvl72"}},
		{cat, "", nil},
	} {
		p := &planner.Plan{System: c.cat.Systems[c.system]}
		if got := otherScaleSystems(p, c.cat); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.system, got, c.want)
		}
	}
}

// The inference example is weighed against the other fabric (RoCE
// 400G), the other NIC speed (800G, which the DGX H100 does not take:
// kept with its error), the other leaf ratio (2:1) and, in a catalog
// with an H100 NVL72, that rack; each variant is planned as labelled
// and carries its own serving estimate. A training scenario is refused.
// Mutations caught: the ratio variant left at 1:1, the NVL72 variant
// planned on the scenario's own system.
func TestServingVariants(t *testing.T) {
	cat := testCatalog(t)
	with := *cat
	with.Systems = maps.Clone(cat.Systems)
	rack := *cat.Systems["gb200-nvl72"]
	rack.Key, rack.GPU, rack.Generation = "h100-nvl72", "h100", "" // a Hopper rack: no Blackwell peer
	with.Systems[rack.Key] = &rack
	s := inferenceScenario()
	vs, err := ServingVariants(s, &with)
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, v := range vs {
		labels = append(labels, v.Label)
	}
	if want := []string{"This plan", "RoCE 400G", "IB 800G", "leaf 2:1", "h100-nvl72"}; !slices.Equal(labels, want) {
		t.Fatalf("variants %v, want %v", labels, want)
	}
	if vs[2].Err == nil {
		t.Error("IB 800G planned on a DGX H100, whose NICs are 400G")
	}
	for _, c := range []struct {
		i      int
		ratio  string
		system string
	}{{0, "1:1", "dgx-h100"}, {1, "1:1", "dgx-h100"}, {3, "2:1", "dgx-h100"}} {
		p := vs[c.i].Plan
		if p == nil || p.Inference == nil || p.Scenario.Network.Oversubscription != c.ratio || p.System.Key != c.system {
			t.Errorf("%s: plan %v, want %s on %s with a serving estimate", labels[c.i], p != nil, c.ratio, c.system)
		}
	}
	if v := vs[4]; v.Plan != nil && v.Plan.System.Key != "h100-nvl72" || v.Plan == nil && v.Err == nil {
		t.Errorf("h100-nvl72: plan %v, err %v", v.Plan, v.Err)
	}
	if _, err := ServingVariants(flatIB(256), cat); err == nil {
		t.Error("a training scenario has serving variants")
	}
}
