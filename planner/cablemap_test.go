package planner

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fabricplan/data"
)

// cableMapCases are plans on and off NVIDIA's grid: every example
// scenario, non-power-of-two sizes, top-of-rack leaves, oversubscribed
// leaves, two planes, split NIC ports, one tier and three, and every
// catalog system at 3,000 GPUs.
func cableMapCases(t *testing.T) map[string]*Plan {
	t.Helper()
	cat := testCatalog(t)
	out := map[string]*Plan{}
	// Flat lengths (flatLengths): the map's wiring and names are
	// checked against one medium per tier; the hall's map is checked
	// against its BOM by TestHallPropertiesEverySystem.
	build := func(name string, s Scenario) {
		p, err := Build(flatLengths(s), cat)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = p
	}
	for _, f := range []string{"ib-ndr-1k", "eth-800g-16k", "gb300-nvl72-4k"} {
		src, err := data.FS.ReadFile("scenarios/" + f + ".toml")
		if err != nil {
			t.Fatal(err)
		}
		s, err := ScenarioFromData(src)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		build(f, s)
	}
	for _, g := range []int{8, 64, 1000, 2056, 10369, 16384} {
		build(fmt.Sprintf("ndr-%d", g), ibScenario(g))
	}
	s := ibScenario(1000)
	s.Network.RailOptimized = false
	build("tor-1000", s)
	s = ibScenario(3000)
	s.Network.Oversubscription = "2:1"
	build("2to1-3000", s)
	s = ibScenario(20000)
	s.Network.Oversubscription = "3:1"
	build("3to1-20000", s)
	s = ibScenario(4096)
	s.Network.Planes = 2
	build("2planes-4096", s)
	s = NewScenario()
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.PortsPerNIC, s.Network.Planes = 2048, 800, 2, 2
	build("800g-split-2planes", s)
	// Every design style: rail-only in one switch per rail and as per-rail
	// Clos networks, top-of-rack with a ToR size and pods, and spines
	// oversubscribed above the pods.
	for _, g := range []int{512, 1000, 4096} {
		s = ibScenario(g)
		s.Network.Topology = TopoRailOnly
		build(fmt.Sprintf("rail-only-%d", g), s)
	}
	s = ibScenario(6144)
	s.Network.RailOptimized, s.Network.ServersPerToR, s.Network.Tiers = false, 2, 3
	s.Network.PodGPUs, s.Network.SpineOversubscription = 768, "7:1"
	build("tor-2-pods-7to1", s)
	s = ibScenario(7000)
	s.Network.Tiers, s.Network.SpineOversubscription = 3, "3:1"
	build("spines-3to1-7000", s)
	s = NewScenario()
	s.Cluster.GPUs, s.Network.Fabric, s.Network.Switch, s.Network.Topology = 3000, Ethernet, "tomahawk5", TopoDualPlane
	build("dual-plane-3000", s)
	// Every catalog system at an odd size (partial racks and units).
	for key := range cat.Systems {
		s := NewScenario()
		s.Cluster.System, s.Cluster.GPUs = key, 3000
		build("system-"+key, s.WithSystem(cat))
	}
	return out
}

// The cable map against the plan, for every case: exactly the plan's
// links per tier (and so per medium: one medium a tier), each switch
// port used at most once and never past the radix, each node port once,
// the plan's switch count per tier, and every leaf with the same number
// of links to each spine of its group (differing by at most one where
// the plan says near-balanced). Mutations caught: a link written twice
// or dropped, uplinks sharing a cage with downlinks, a spine port
// counter not reset per pod, a core group reaching the wrong spines,
// names that merge two switches, uplinks starting mid-cage after an odd
// number of downlinks (1,000 GPUs: a partial unit of 29 servers).
func TestCableMapMatchesPlan(t *testing.T) {
	for name, p := range cableMapCases(t) {
		t.Run(name, func(t *testing.T) { checkCableMap(t, p) })
	}
}

func checkCableMap(t *testing.T, p *Plan) {
	t.Helper()
	perTier := map[string]int{}
	media := map[string]Medium{}
	ports := map[string]bool{}
	devices := map[string]map[string]bool{TierLeaf: {}, TierSpine: {}, TierCore: {}}
	pair := map[[2]string]int{} // leaf-spine links per (leaf, spine)
	cages := p.Switch.LinksPerCage(p.PortGbps)
	radix := p.Switch.Radix(p.PortGbps)
	cageDir := map[string]bool{} // switch and cage -> carries uplinks
	use := func(dev, port string, isSwitch, up bool) {
		key := dev + " " + port
		if ports[key] {
			t.Fatalf("port %s used twice", key)
		}
		ports[key] = true
		if !isSwitch {
			return
		}
		i := portIndex(t, port, cages)
		if i >= radix {
			t.Fatalf("port %s of %s is past the radix %d", port, dev, radix)
		}
		// The BOM counts a switch's modules toward each side apart: a
		// cage never carries links both down and up.
		cage := fmt.Sprintf("%s %d", dev, i/cages)
		if was, ok := cageDir[cage]; ok && was != up {
			t.Fatalf("%s port %s: cage shared by down- and uplinks", dev, port)
		}
		cageDir[cage] = up
	}
	err := p.WalkCables(func(c *CableRun) error {
		perTier[c.Tier]++
		if m, ok := media[c.Tier]; ok && m != c.Medium {
			t.Fatalf("tier %s has two media %s and %s", c.Tier, m, c.Medium)
		}
		media[c.Tier] = c.Medium
		if c.Gbps != p.PortGbps || c.Plane < 1 || c.Plane > p.Planes || c.Part == "" {
			t.Fatalf("row %+v", *c)
		}
		switch c.Tier {
		case "server_leaf":
			use(c.ADevice, c.APort, false, false)
			use(c.BDevice, c.BPort, true, false)
			devices[TierLeaf][c.BDevice] = true
		case "leaf_spine":
			use(c.ADevice, c.APort, true, true)
			use(c.BDevice, c.BPort, true, false)
			devices[TierLeaf][c.ADevice] = true
			devices[TierSpine][c.BDevice] = true
			pair[[2]string{c.ADevice, c.BDevice}]++
		case "spine_core":
			use(c.ADevice, c.APort, true, true)
			use(c.BDevice, c.BPort, true, false)
			devices[TierCore][c.BDevice] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"server_leaf": p.Links.ServerLeaf, "leaf_spine": p.Links.LeafSpine, "spine_core": p.Links.SpineCore}
	for tier, n := range want {
		if perTier[tier] != n {
			t.Errorf("%s: %d links in the map, the plan has %d", tier, perTier[tier], n)
		}
	}
	for _, lt := range p.LinkTiers {
		if media[lt.Name] != lt.Medium {
			t.Errorf("%s: medium %s in the map, %s in the plan", lt.Name, media[lt.Name], lt.Medium)
		}
	}
	for _, st := range p.SwitchTiers {
		if got := len(devices[st.Name]); got != st.Switches {
			t.Errorf("%s: %d switches in the map, the plan has %d", st.Name, got, st.Switches)
		}
	}
	// Node ports: every back-end port of every node once.
	nodePorts := 0
	for k := range ports {
		if strings.HasPrefix(k, "su") {
			nodePorts++
		}
	}
	if nodePorts != p.NICPorts {
		t.Errorf("%d node ports in the map, the plan has %d", nodePorts, p.NICPorts)
	}
	// Balance: a leaf's links to the spines it reaches.
	perLeaf := map[string][]int{}
	for k, n := range pair {
		perLeaf[k[0]] = append(perLeaf[k[0]], n)
	}
	spinesPerPod := map[string]int{} // leaf -> spines it reaches
	for leaf, counts := range perLeaf {
		lo, hi := counts[0], counts[0]
		for _, n := range counts {
			lo, hi = min(lo, n), max(hi, n)
		}
		spinesPerPod[leaf] = len(counts)
		up := 0
		for _, n := range counts {
			up += n
		}
		// A partial leaf keeps the uplinks its servers need: spread as
		// evenly as they go, whatever the full leaves' wiring.
		full := up == p.SwitchTiers[0].UpPorts
		if p.SpineWiring == WiringBalanced && full && lo != hi || hi-lo > 1 {
			t.Errorf("leaf %s: %d to %d links per spine with %s wiring", leaf, lo, hi, p.SpineWiring)
		}
	}
	if p.Tiers == 2 {
		// A leaf reaches every spine, or as many as it has uplinks (a
		// partial leaf keeps the uplinks its servers need).
		for leaf, n := range spinesPerPod {
			up := 0
			for _, c := range perLeaf[leaf] {
				up += c
			}
			if want := min(up, p.Switches(TierSpine)/p.Planes); n != want {
				t.Errorf("leaf %s reaches %d of %d spines with %d uplinks", leaf, n, p.Switches(TierSpine)/p.Planes, up)
			}
		}
	}
}

// portIndex turns P<cage> or P<cage>/<lane> back into a port index.
func portIndex(t *testing.T, port string, perCage int) int {
	t.Helper()
	cage, lane, split := strings.Cut(strings.TrimPrefix(port, "P"), "/")
	c, err := strconv.Atoi(cage)
	if err != nil {
		t.Fatalf("port %q", port)
	}
	if !split {
		return c - 1
	}
	l, err := strconv.Atoi(lane)
	if err != nil || l < 1 || l > perCage {
		t.Fatalf("port %q: lane outside a cage of %d", port, perCage)
	}
	return (c-1)*perCage + l - 1
}

// The names of the 1,024-GPU NDR plan by hand: 32 servers a unit, one
// leaf per rail, 400G ports on twin-port cages (2 a cage). Node 1 of
// unit 1 has its rail-1 port on leaf su1-r1's first port (P1/1); node 32
// on P16/2; that leaf's uplinks start at cage 17 and go to spine 1 first,
// both links of the cage (it sends each of the 16 spines two: a whole
// cage each, fabric.LeafDeal). Unit 2's rail-8 leaf is leaf 16. Mutations caught: ports from 0,
// cages ignored, rails and units swapped.
// At the flat per-tier lengths (flatLengths): its hand figures count one medium per tier.
func TestCableNamesByHand(t *testing.T) {
	p, err := Build(flatIB(1024), testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	var rows []CableRun
	p.WalkCables(func(c *CableRun) error {
		if len(rows) < 40 || c.BDevice == "p1-su2-leaf-r8" && c.Tier == "server_leaf" && c.BPort == "P1/1" {
			rows = append(rows, *c)
		}
		return nil
	})
	want := []struct {
		i                  int
		a, ap, b, bp, tier string
		rail               int
	}{
		{0, "su1-node1", "U1/P1", "p1-su1-leaf-r1", "P1/1", "server_leaf", 1},
		{31, "su1-node32", "U1/P1", "p1-su1-leaf-r1", "P16/2", "server_leaf", 1},
		{32, "p1-su1-leaf-r1", "P17/1", "p1-spine-1", "P1/1", "leaf_spine", 1},
		{33, "p1-su1-leaf-r1", "P17/2", "p1-spine-1", "P1/2", "leaf_spine", 1},
		{40, "su2-node1", "U8/P1", "p1-su2-leaf-r8", "P1/1", "server_leaf", 8},
	}
	for _, w := range want {
		c := rows[w.i]
		if c.ADevice != w.a || c.APort != w.ap || c.BDevice != w.b || c.BPort != w.bp || c.Tier != w.tier || c.Rail != w.rail {
			t.Errorf("row %d: %s %s - %s %s (%s, rail %d), want %s %s - %s %s (%s, rail %d)", w.i, c.ADevice, c.APort, c.BDevice, c.BPort,
				c.Tier, c.Rail, w.a, w.ap, w.b, w.bp, w.tier, w.rail)
		}
	}
	if c := rows[0]; c.Medium != Optics || c.Part != "fiber" || c.AModule != "osfp-400x1" || c.BModule != "osfp-400x2" || c.Metres != 20 {
		t.Errorf("first row's parts: %+v", c)
	}
}

// The three writers read back: the CSV has a header and one record per
// link, the JSON is an array of that many objects, and the topology file
// parses as IBDM sections (a "TYPE NAME" line, then "PORT -> TYPE NAME
// PORT" lines) with one port line per link, each local port once.
// Mutations caught: a row lost at the buffer flush, a trailing comma in
// the JSON, a section opened twice for one switch (ibdiagnet would read
// a second system of that name).
func TestCableWritersReadBack(t *testing.T) {
	for _, g := range []int{64, 1000, 16384} {
		p, err := Build(ibScenario(g), testCatalog(t))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := WriteCablesCSV(&b, p); err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil || len(recs) != 1+p.Links.Total || len(recs[0]) != len(CableCSVHeader) {
			t.Errorf("%d GPUs: CSV of %d records (%v), want %d", g, len(recs), err, 1+p.Links.Total)
		}
		b.Reset()
		if err := WriteCablesJSON(&b, p); err != nil {
			t.Fatal(err)
		}
		var links []map[string]any
		if err := json.Unmarshal(b.Bytes(), &links); err != nil || len(links) != p.Links.Total {
			t.Errorf("%d GPUs: JSON of %d links (%v), want %d", g, len(links), err, p.Links.Total)
		}
		b.Reset()
		if err := WriteTopoFile(&b, p); err != nil {
			t.Fatal(err)
		}
		sections, portLines := map[string]bool{}, 0
		current := ""
		seen := map[string]bool{}
		for _, line := range strings.Split(b.String(), "\n") {
			switch f := strings.Fields(line); {
			case line == "" || strings.HasPrefix(line, "#"):
			case strings.HasPrefix(line, "   ") && len(f) == 5 && f[1] == "->":
				portLines++
				if key := current + " " + f[0]; seen[key] {
					t.Fatalf("%d GPUs: port %s twice", g, key)
				} else {
					seen[key] = true
				}
			case len(f) == 2 && f[0] == IBNLSwitchType(p):
				if sections[f[1]] {
					t.Fatalf("%d GPUs: second section for %s", g, f[1])
				}
				sections[f[1]], current = true, f[1]
			default:
				t.Fatalf("%d GPUs: line %q is not IBDM topology syntax", g, line)
			}
		}
		if portLines != p.Links.Total {
			t.Errorf("%d GPUs: %d port lines, want one per link (%d)", g, portLines, p.Links.Total)
		}
	}
}

// BenchmarkCableMap100k writes the 100,000-GPU XDR example's cable map
// as CSV and reports the heap in use, sampled every 50,000 links: it
// stays flat because links are never held. Target: under 1 s.
func BenchmarkCableMap100k(b *testing.B) {
	src, err := data.FS.ReadFile("scenarios/ib-xdr-100k.toml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := ScenarioFromData(src)
	if err != nil {
		b.Fatal(err)
	}
	p, err := Build(s, testCatalog(b))
	if err != nil {
		b.Fatal(err)
	}
	var peak uint64
	b.ReportAllocs()
	for b.Loop() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		n := 0
		w := countingWriter{}
		err := p.WalkCables(func(c *CableRun) error {
			n++
			if n%50000 == 0 {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc-min(base, ms.HeapAlloc))
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := WriteCablesCSV(&w, p); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(n), "links")
		b.ReportMetric(float64(w.n)/1e6, "MB-written")
	}
	b.ReportMetric(float64(peak)/1e6, "MB-heap-growth")
}

type countingWriter struct{ n int }

func (w *countingWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// Layout's per-pod figures add up to the plan's per-plane counts for
// every case. Mutations caught: a partial pod counted as a full one,
// spine-core links counted per group instead of per pod, nodes counted
// per leaf instead of per unit.
func TestLayoutAddsUpToPlan(t *testing.T) {
	for name, p := range cableMapCases(t) {
		pods, cores, _, _ := p.Layout()
		var leaves, spines, coreN, nodes, ls, sc int
		for _, r := range pods {
			leaves += r.Count * r.Leaves
			spines += r.Count * r.Spines
			if r.ByRail {
				// Pods by rail: a node has a port in one pod per rail.
				nodes += r.Count * r.Nodes / p.RailsPerPlane
			} else {
				nodes += r.Count * r.Nodes
			}
			ls += r.Count * r.LeafSpine
			sc += r.Count * r.SpineCore
		}
		for _, c := range cores {
			coreN += c.Groups * c.Cores
		}
		P := p.Planes
		got := []int{leaves * P, spines * P, coreN * P, nodes, ls * P, sc * P}
		want := []int{p.Switches(TierLeaf), p.Switches(TierSpine), p.Switches(TierCore), p.Servers, p.Links.LeafSpine, p.Links.SpineCore}
		if !slices.Equal(got, want) {
			t.Errorf("%s: layout sums (leaves, spines, cores, nodes, leaf-spine, spine-core) %v, plan %v", name, got, want)
		}
	}
}
