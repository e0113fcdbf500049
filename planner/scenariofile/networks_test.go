package scenariofile

import (
	"errors"
	"fabricplan/internal/fielderr"
	"fabricplan/planner"
	"math"
	"strings"
	"testing"
)

// TestNetworksScenarioFile: a [networks] table reads strictly and saves
// losslessly. Mutations caught: the table not decoded (defaults used
// silently); an unknown key in it ignored; Clone sharing the table.
func TestNetworksScenarioFile(t *testing.T) {
	src := "schema = 1\n[cluster]\ngpus = 256\ngpus_per_server = 8\n[network]\nfabric = \"infiniband\"\nnic_gbps = 400\nnic = \"auto\"\nplanes = 1\nswitch = \"auto\"\noversubscription = \"1:1\"\nrail_optimized = true\nload_balancing = \"adaptive\"\n[networks]\nstorage = \"none\"\nfrontend_gbps = 400\n"
	s, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Networks == nil || s.Networks.Storage != planner.NetNone || s.Networks.FrontEndGbps != 400 {
		t.Fatalf("networks %+v", s.Networks)
	}
	c := s.Clone()
	c.Networks.Storage = planner.NetSeparate
	if s.Networks.Storage != planner.NetNone {
		t.Error("Clone shares the networks table")
	}
	out, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil || !back.Equal(s) {
		t.Errorf("round trip: %v\n%s", err, out)
	}
	if _, err := Parse([]byte(src + "stroage = \"none\"\n")); err == nil || !strings.Contains(err.Error(), "networks.stroage") {
		t.Errorf("unknown key: %v", err)
	}
}

// FuzzNetworksTable feeds [networks] tables to the scenario parser and
// the planner: nothing panics, bad input is a field error, and a plan's
// networks have finite, non-negative counts and costs that add up.
// Mutations caught: a zero radix or port count dividing by zero; a
// negative count from a ratio; totals that skip a network.
func FuzzNetworksTable(f *testing.F) {
	base := "schema = 1\n[cluster]\nsystem = \"dgx-h100\"\ngpus = 1016\n[network]\nfabric = \"infiniband\"\nnic_gbps = 400\nplanes = 1\nswitch = \"auto\"\noversubscription = \"1:1\"\nrail_optimized = true\nload_balancing = \"adaptive\"\n[networks]\n"
	for _, seed := range []string{
		"storage_server_ports = 48\n",
		"storage = \"converged\"\nfrontend_gbps = 400\n",
		"frontend = \"none\"\nstorage = \"none\"\noob = \"none\"\n",
		"storage_gbs_per_gpu = 1e300\n",
		"frontend_oversubscription = \"64:1\"\nfrontend_ports = 16\n",
		"storage_fabric = \"ethernet\"\nstorage_gbps = 800\nstorage_oversubscription = \"1:1\"\n",
		"management_servers = 100000\n",
	} {
		f.Add(seed)
	}
	cat := testCatalog(f)
	f.Fuzz(func(t *testing.T, table string) {
		s, err := Check([]byte(base+table), cat)
		if err != nil {
			return
		}
		p, err := planner.Build(s, cat)
		if err != nil {
			if len(fielderr.FieldErrors(err)) == 0 && !errors.Is(err, planner.ErrTooLarge) {
				t.Fatalf("not a field error: %v", err)
			}
			return
		}
		n := p.Networks
		if n == nil {
			t.Fatal("no networks")
		}
		var sum planner.Increment
		for _, x := range n.List {
			if x.Ports < 0 || x.Switches < 0 || x.Links < 0 || x.PortsPerServer < 0 ||
				!(x.CostUSD >= 0) || math.IsInf(x.CostUSD, 0) || !(x.PowerW >= 0) || math.IsInf(x.PowerW, 0) {
				t.Fatalf("%s: %+v", x.Name, x)
			}
			sum.Ports += x.Ports
			sum.Switches += x.Switches
		}
		if sum.Ports != n.Total.Ports || sum.Switches != n.Total.Switches {
			t.Fatalf("totals %+v, networks add to %+v", n.Total, sum)
		}
	})
}
