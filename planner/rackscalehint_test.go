package planner

import (
	"maps"
	"slices"
	"testing"
)

// The rack-scale hint word for word: a custom server of a rack-scale
// system's GPU count gets one note naming every such system, sorted,
// and the trays and NICs they plan; anything else gets none. Expected
// figures from NVIDIA's GB200 and GB300 NVL72 specifications: 72 GPUs
// in 18 compute trays of 4 NICs. Mutations caught: the keys left
// unsorted (map order changes the note from run to run), the first
// system's trays named where the last one's are, a note for a named
// system or for an 8- or 36-GPU server; a hint that does not read the
// catalog (seven systems given the shipped two), the GPUs or the NICs
// per server (the cases one after another).
func TestRackScaleHintText(t *testing.T) {
	cat := testCatalog(t)
	custom := func(gpusPerServer, nics int) Scenario {
		s := NewScenario()
		s.Cluster.GPUsPerServer, s.Network.NICsPerServer = gpusPerServer, nics
		return s
	}
	named := NewScenario()
	named.Cluster.System = "gb300-nvl72"
	named.Cluster.GPUsPerServer = 72
	cases := []struct {
		name string
		s    Scenario
		want []string
	}{
		{"72 GPUs on one custom server", custom(72, 72), []string{"72 GPUs per server is a rack-scale system's NVLink domain: " +
			"--system gb200-nvl72 or --system gb300-nvl72 plans it as 18 trays of 4 NICs each (4 rails), not one server of 72 rails"}},
		{"72 GPUs, 8 NICs", custom(72, 8), []string{"72 GPUs per server is a rack-scale system's NVLink domain: " +
			"--system gb200-nvl72 or --system gb300-nvl72 plans it as 18 trays of 4 NICs each (4 rails), not one server of 8 rails"}},
		{"8 GPUs", custom(8, 8), nil},
		{"36 GPUs", custom(36, 36), nil},
		{"a named system", named, nil},
	}
	// More rack-scale systems than a map's order leaves alone, the last by
	// key with trays of its own: its trays are the ones named.
	more := *cat
	more.Systems = maps.Clone(cat.Systems)
	for _, k := range []string{"aa-nvl72", "ha-nvl72", "hb-nvl72", "hc-nvl72", "zz-nvl72"} {
		sys := *cat.Systems["gb300-nvl72"]
		sys.Key = k
		more.Systems[k] = &sys
	}
	more.Systems["zz-nvl72"].Nodes, more.Systems["zz-nvl72"].NICsPerNode = 36, 2
	cases = append(cases, struct {
		name string
		s    Scenario
		want []string
	}{"seven systems", custom(72, 72), []string{"72 GPUs per server is a rack-scale system's NVLink domain: " +
		"--system aa-nvl72, --system gb200-nvl72, --system gb300-nvl72, --system ha-nvl72, --system hb-nvl72, --system hc-nvl72 or --system zz-nvl72 " +
		"plans it as 36 trays of 2 NICs each (2 rails), not one server of 72 rails"}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cat := cat
			if c.name == "seven systems" {
				cat = &more
			}
			for range 5 { // map order differs between runs: the note must not
				if got := rackScaleHint(c.s, cat); !slices.Equal(got, c.want) {
					t.Fatalf("got %q\nwant %q", got, c.want)
				}
			}
		})
	}
}
