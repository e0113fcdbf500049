package perf

import (
	"math"
	"testing"
)

// TestFasterUplinksHoldMoreFlows: Alibaba HPN splits each 400G NIC into
// 2 x 200G on two planes and runs its ToR uplinks at 400G. NCCL keeps
// its queue pairs per port, so every 200G port still sends 2 flows (2
// channels x 1 QP), each asking half what a 400G port's flow asks, and
// a 400G uplink holds 4 of them at their full rate. One plane: a leaf's
// 32 ports x 2 flows = 64 flows hashed onto its 32 uplinks, k = 2 per
// link; two planes: 64 ports x 2 = 128 flows onto 32 uplinks of twice
// the speed, k = 4. The expected most loaded link comes from a seeded
// simulation of the hashing (16 leaves each: 64 servers spread), and the
// port's share is k / E[max]. The same load in more, smaller flows
// lands more evenly, so the split NIC loses less to collisions. Mutation
// caught: flows per uplink left at the port's count (k = 2 on two
// planes: the split would lose more than one plane does).
func TestFasterUplinksHoldMoreFlows(t *testing.T) {
	d := testData(t)
	const servers = 64
	for _, c := range []struct {
		name                       string
		ports, leafDown, leafUp, k int
		ratio                      float64
	}{
		{"one plane, 400G ports and uplinks", 8, 32, 32, 2, 1},
		{"two planes, 2 x 200G ports, 400G uplinks", 16, 64, 32, 4, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			fv := staticView(d, 1, 1, servers, true, Ethernet)
			fv.stages, fv.upSpeedRatio, fv.leafDown, fv.leafUp = 1, c.ratio, c.leafDown, c.leafUp
			fv.setJobSize(8*servers, c.ports)
			leaves := servers * c.ports / c.leafDown
			sim := simulateMaxLoad(2*c.leafDown, c.leafUp, leaves, 4000)
			want := math.Min(1, float64(c.k)/sim)
			got := fv.hashedShare(1, 0)
			if e := (got - want) / want; math.Abs(e) > 0.08 {
				t.Errorf("share %.3f, simulated %d / %.2f = %.3f (%+.1f%%)", got, c.k, sim, want, 100*e)
			}
		})
	}
	one := staticView(d, 1, 1, servers, true, Ethernet)
	one.stages, one.leafDown, one.leafUp = 1, 32, 32
	two := one
	two.upSpeedRatio, two.leafDown = 2, 64
	two.setJobSize(8*servers, 16)
	if a, b := one.hashedShare(1, 0), two.hashedShare(1, 0); !(b > a) {
		t.Errorf("split NIC on two planes keeps %.3f of its bandwidth, one plane %.3f: want more", b, a)
	}
}

// TestPolarizedLinksByHand: 64 spine uplinks at polarization 0, 0.5 and
// 1 reach 64, 32 and 1 (every flow of the spine on one link, as when
// leaf and spine both take hash mod 64: the flows a leaf sent to spine j
// all have hash = j mod 64, and the spine sends all of them to its
// uplink j); 7 at 0.5 reach 3.5, rounded 4; out-of-range shares are
// clamped. Mutations caught: polarization spreading flows (more links),
// no floor of one link.
func TestPolarizedLinksByHand(t *testing.T) {
	for _, c := range []struct{ links, pol, want float64 }{
		{64, 0, 64}, {64, 0.5, 32}, {64, 1, 1}, {7, 0.5, 4}, {1, 0.9, 1}, {64, -1, 64}, {64, 2, 1},
	} {
		if got := polarizedLinks(c.links, c.pol); got != c.want {
			t.Errorf("polarizedLinks(%g, %g) = %g, want %g", c.links, c.pol, got, c.want)
		}
	}
}

// TestRailOnlyForwardsCrossRailCopies: on a rail-only fabric an
// all-to-all's copies for a GPU on another rail cross NVLink first (PXN).
// Two 8-GPU servers, EP 16: half the copies leave the server, 7/8 of
// those for another rail, so NVLink carries 1/2 + 7/16 = 15/16 of the
// bytes where rail-optimized carries the local 1/2. With a back end
// faster than NVLink (3.2 Tb/s NICs) NVLink sets the time: 15/16 / (1/2)
// = 1.875x the bandwidth term, plus one NVLink hop. Mutations caught:
// no forwarding on rail-only, forwarding charged on rail-optimized, all
// remote copies forwarded (x2).
func TestRailOnlyForwardsCrossRailCopies(t *testing.T) {
	d := testData(t)
	gpu := d.GPUs["h100"]
	const bytes = 1 << 30
	timeOn := func(railOnly bool, nicGbps float64) (collTime, netModel) {
		v := validationView(8, 8, nicGbps, InfiniBand)
		v.railOnly, v.rails = railOnly, 8
		m := newNetModel(v, gpu, d, RDMA)
		return m.allToAll(bytes, m.allToAllGroupP(16, 1)), m
	}
	opt, m := timeOn(false, 3200)
	only, _ := timeOn(true, 3200)
	nv := m.nvlinkGBs * 1e9
	wantOpt := 0.5 * bytes / nv
	wantOnly := 15.0 / 16 * bytes / nv
	lat := (d.Collective.BaseLatencyUS + m.netHopUS + m.perSwitchUS + 8*d.Collective.AllToAllPeerUS) * us
	if math.Abs(opt.time-lat-wantOpt) > 1e-9 {
		t.Errorf("rail-optimized all-to-all %.6f s, want %.6f", opt.time, lat+wantOpt)
	}
	if math.Abs(only.time-lat-m.intraHopUS*us-wantOnly) > 1e-9 {
		t.Errorf("rail-only all-to-all %.6f s, want %.6f", only.time, lat+m.intraHopUS*us+wantOnly)
	}
	// On 400G NICs the back end binds: forwarding adds only the hop.
	opt, _ = timeOn(false, 400)
	only, m = timeOn(true, 400)
	if got := only.time - opt.time; math.Abs(got-m.intraHopUS*us) > 1e-12 {
		t.Errorf("400G: rail-only costs %.3g s more, want one NVLink hop %.3g s", got, m.intraHopUS*us)
	}
}
