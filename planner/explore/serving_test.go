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
	rack.Key, rack.GPU = "h100-nvl72", "h100"
	with.Systems[rack.Key] = &rack
	for _, c := range []struct {
		cat    *planner.Catalog
		system string
		want   []string
	}{
		{&with, "dgx-h100", []string{"h100-nvl72"}},
		{&with, "h100-nvl72", []string{"dgx-h100", "hgx-h100"}},
		{cat, "dgx-h100", nil},
		{cat, "gb200-nvl72", nil},
		{cat, "", nil},
	} {
		p := &planner.Plan{System: c.cat.Systems[c.system]}
		if got := otherScaleSystems(p, c.cat); !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, want %v", c.system, got, c.want)
		}
	}
}
