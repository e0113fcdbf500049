package planner

import "fmt"

// fabricSpec is what sizing one plane needs.
type fabricSpec struct {
	servers       int // servers in the cluster
	rails         int // server ports in this plane
	radix         int // switch ports at the plane's port speed
	down, up      int // leaf ports toward servers and toward spines
	railOptimized bool
	tiers         int // 0: fewest that fit
}

// switchLoad is a run of switches of one tier with the same ports in use.
type switchLoad struct {
	switches int
	down, up int // ports used per switch toward the tier below and above
}

// plane is one sized plane of the fabric. Counts are per plane.
type plane struct {
	tiers                 int
	leaves, spines, cores int
	serverLeaf            int // links
	leafSpine, spineCore  int // links
	leafLoads             []switchLoad
	spineLoads            []switchLoad
	coreLoads             []switchLoad
	pods, leavesPerPod    int
	spinesPerPod          int
	serversPerGroup       int // servers one leaf group serves (an SU when rail-optimized)
	leavesPerGroup        int
}

// errNoFit says a fabric of the given tiers cannot hold the plane.
type errNoFit struct{ tiers int }

func (e errNoFit) Error() string { return fmt.Sprintf("does not fit in %d tiers", e.tiers) }

// sizePlane builds the fewest-tier fabric that holds spec (or exactly
// spec.tiers tiers). It follows the rules of DESIGN.md: rail-optimized
// scalable units provisioned in full, balanced leaf-spine and spine-core
// wiring, non-blocking spines, oversubscription only at the leaf.
func sizePlane(spec fabricSpec) (plane, error) {
	endpoints := spec.servers * spec.rails
	if spec.tiers == 0 || spec.tiers == 1 {
		if endpoints <= spec.radix {
			return onePlane(spec, endpoints), nil
		}
		if spec.tiers == 1 {
			return plane{}, errNoFit{1}
		}
	}
	spg, lpg, err := leafGroup(spec)
	if err != nil {
		return plane{}, err
	}
	groups := ceilDiv(spec.servers, spg)
	leaves := groups * lpg
	if spec.tiers == 0 || spec.tiers == 2 {
		if p, ok := twoTier(spec, spg, lpg, leaves); ok {
			return p, nil
		}
		if spec.tiers == 2 {
			return plane{}, errNoFit{2}
		}
	}
	if p, ok := threeTier(spec, spg, lpg, leaves); ok {
		return p, nil
	}
	return plane{}, errNoFit{3}
}

// onePlane is a single switch holding every server port of the plane.
func onePlane(spec fabricSpec, endpoints int) plane {
	return plane{
		tiers: 1, leaves: 1, serverLeaf: endpoints,
		leafLoads:       []switchLoad{{1, endpoints, 0}},
		serversPerGroup: spec.servers, leavesPerGroup: 1,
	}
}

// leafGroup returns how many servers one group of leaves serves and how
// many leaves the group has. Rail-optimized: one leaf per rail, each
// serving one port of `down` servers. Top-of-rack: one leaf serving every
// port of down/rails servers.
func leafGroup(spec fabricSpec) (serversPerGroup, leavesPerGroup int, err error) {
	if spec.railOptimized {
		return spec.down, spec.rails, nil
	}
	if spec.rails > spec.down {
		return 0, 0, fmt.Errorf("a leaf has %d server ports but a server has %d ports in each plane: use rail_optimized = true or more planes", spec.down, spec.rails)
	}
	return spec.down / spec.rails, 1, nil
}

// leafLoads lists leaves by ports used: full groups, then the partial
// one, whose uplinks are provisioned in full for growth.
func (spec fabricSpec) leafLoads(spg, lpg int) []switchLoad {
	perServer := 1
	if !spec.railOptimized {
		perServer = spec.rails
	}
	full := spec.servers / spg
	rem := spec.servers - full*spg
	var out []switchLoad
	if full > 0 {
		out = append(out, switchLoad{full * lpg, spg * perServer, spec.up})
	}
	if rem > 0 {
		out = append(out, switchLoad{lpg, rem * perServer, spec.up})
	}
	return out
}

func twoTier(spec fabricSpec, spg, lpg, leaves int) (plane, bool) {
	// Each leaf spreads its uplinks evenly over every spine, so the spine
	// count divides the leaf's uplinks; a spine takes at most radix links.
	spines, ok := smallestDivisorAtLeast(spec.up, ceilDiv(leaves*spec.up, spec.radix))
	if !ok {
		return plane{}, false
	}
	return plane{
		tiers: 2, leaves: leaves, spines: spines,
		serverLeaf: spec.servers * spec.rails,
		leafSpine:  leaves * spec.up,
		leafLoads:  spec.leafLoads(spg, lpg),
		spineLoads: []switchLoad{{spines, leaves * spec.up / spines, 0}},
		pods:       1, leavesPerPod: leaves, spinesPerPod: spines,
		serversPerGroup: spg, leavesPerGroup: lpg,
	}, true
}

// threeTier groups leaves into pods, each with its own spines (half their
// ports down, half up), and joins spine j of every pod to core group j.
// Full pods are identical; a partial pod gets the spines its leaves need,
// each with the full pod's uplinks (provisioned for growth, as partial
// scalable units are).
func threeTier(spec fabricSpec, spg, lpg, leaves int) (plane, bool) {
	podLeafPorts := spec.radix / 2
	var leavesPerPod int
	if lpg <= podLeafPorts {
		leavesPerPod = podLeafPorts / lpg * lpg // whole groups (scalable units) per pod
	} else {
		leavesPerPod = largestDivisorAtMost(lpg, podLeafPorts) // a pod takes a subset of the rails
	}
	podSpines := func(podLeaves int) (spines, down int, ok bool) {
		spines, ok = smallestDivisorAtLeast(spec.up, ceilDiv(podLeaves*spec.up, podLeafPorts))
		return spines, podLeaves * spec.up / max(spines, 1), ok
	}
	fullPods, remLeaves := leaves/leavesPerPod, leaves%leavesPerPod
	pods := fullPods
	spinesPerPod, spineUp, _ := podSpines(leavesPerPod)
	var spineLoads []switchLoad
	if fullPods > 0 {
		spineLoads = append(spineLoads, switchLoad{fullPods * spinesPerPod, spineUp, spineUp})
	}
	groupsOfCores := spinesPerPod
	if remLeaves > 0 {
		pods++
		rs, rd, ok := podSpines(remLeaves)
		if !ok {
			return plane{}, false
		}
		if fullPods == 0 {
			spineUp, groupsOfCores = rd, rs
		}
		spineLoads = append(spineLoads, switchLoad{rs, rd, spineUp})
	}
	// Each spine spreads its uplinks evenly over the cores of its group; a
	// core takes one run of links from every pod.
	coresPerGroup, ok := smallestDivisorAtLeast(spineUp, ceilDiv(pods*spineUp, spec.radix))
	if !ok {
		return plane{}, false
	}
	spines, spineCore := 0, 0
	for _, l := range spineLoads {
		spines += l.switches
		spineCore += l.switches * l.up
	}
	cores := groupsOfCores * coresPerGroup
	// Core groups below the partial pod's spine count take a run of links
	// from every pod; the rest only from the full pods.
	perCore := spineUp / coresPerGroup
	coreLoads := []switchLoad{{cores, pods * perCore, 0}}
	if remLeaves > 0 && fullPods > 0 {
		reached := spineLoads[len(spineLoads)-1].switches * coresPerGroup
		coreLoads = []switchLoad{{reached, pods * perCore, 0}, {cores - reached, fullPods * perCore, 0}}
	}
	return plane{
		tiers: 3, leaves: leaves, spines: spines, cores: cores,
		serverLeaf: spec.servers * spec.rails,
		leafSpine:  leaves * spec.up,
		spineCore:  spineCore,
		leafLoads:  spec.leafLoads(spg, lpg),
		spineLoads: spineLoads,
		coreLoads:  coreLoads,
		pods:       pods, leavesPerPod: leavesPerPod, spinesPerPod: spinesPerPod,
		serversPerGroup: spg, leavesPerGroup: lpg,
	}, true
}

// smallestDivisorAtLeast returns the smallest divisor of n that is >= min.
func smallestDivisorAtLeast(n, min int) (int, bool) {
	if min < 1 {
		min = 1
	}
	for d := min; d <= n; d++ {
		if n%d == 0 {
			return d, true
		}
	}
	return 0, false
}

// largestDivisorAtMost returns the largest divisor of n that is <= max (>= 1).
func largestDivisorAtMost(n, max int) int {
	for d := max; d > 1; d-- {
		if n%d == 0 {
			return d
		}
	}
	return 1
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// leafPorts splits a leaf's radix by the oversubscription down:up so that
// the leaf is never more oversubscribed than asked: up = ceil(radix*U/(D+U)).
func leafPorts(radix, down, up int) (d, u int) {
	u = ceilDiv(radix*up, down+up)
	return radix - u, u
}
