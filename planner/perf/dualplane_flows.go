package perf

import (
	"fmt"
	"math"
)

// EffectCrossing is the effect of crossing the tier above the leaves on
// a balanced fabric (CrossingConstants.Efficiency).
const EffectCrossing = "tier crossing"

// CrossingConstants are the costs of crossing the tier above the leaves
// whatever the routing (data/jct.toml [crossing]).
type CrossingConstants struct {
	// Efficiency is the share of a link's bandwidth flows reach where
	// they cross the tier above the leaves on a balanced (adaptively
	// routed) fabric: queueing where flows from many leaves meet a
	// spine's downlink, reordering, congestion control backing off.
	// Static routing's collisions come on top.
	Efficiency float64 `toml:"efficiency"`
}

func (c CrossingConstants) check(polarization float64) error {
	if !inRange(c.Efficiency, 0.5, 1) {
		return fmt.Errorf("jct data: [crossing] efficiency must be from 0.5 to 1")
	}
	if !inRange(polarization, 0, 1) {
		return fmt.Errorf("jct data: [ecmp] polarization must be from 0 (independent hashes) to 1 (the second stage never re-spreads)")
	}
	return nil
}

// crossingEfficiency is the share of a link's bandwidth a flow crossing
// the tier above the leaves reaches once balanced (1 where unset or the
// back end is ideal).
func (fv *fabricView) crossingEfficiency() float64 {
	if fv.ideal || fv.crossEff <= 0 {
		return 1
	}
	return fv.crossEff
}

// uplinkFlows is how many of a port's flows one uplink carries at
// their full rate: flowsPerPort times the uplink's speed over the
// port's. A 400G NIC split 2 x 200G over two planes (Alibaba HPN) keeps
// NCCL's queue pairs per port (a merged dual-port NIC opens its
// connection's queue pairs on each port), so each flow asks half as
// much and a 400G uplink holds twice as many flows: hashing more,
// smaller flows onto the same links evens their load (balls into bins
// with more balls per bin).
func (fv *fabricView) uplinkFlows(f float64) float64 {
	return f * fv.upRatio()
}

// upRatio is a leaf's uplink speed over its ports' (1 where unset).
func (fv *fabricView) upRatio() float64 {
	if fv.upSpeedRatio <= 0 {
		return 1
	}
	return fv.upSpeedRatio
}

// polarizedLinks is the links of a spine's uplinks its flows are hashed
// onto at the second hashed stage: where the spine hashes the same
// header fields with the same function as the leaf did (hash
// polarization), the flows the leaf sent it all share the leaf's answer
// and reach only 1 - polarization of its links (at least one).
func polarizedLinks(links, polarization float64) float64 {
	return max(1, math.Round(links*(1-min(max(polarization, 0), 1))))
}

// railOnlyForwarding is, for a rail-only fabric, the share of an
// all-to-all's remote bytes that go to a GPU on another rail and so
// cross the NVLink domain first to the NIC on the destination's rail
// (PXN): (rails-1)/rails with the destinations spread evenly. 0 on any
// fabric with spines joining the rails.
func (fv *fabricView) railOnlyForwarding() float64 {
	if !fv.railOnly || fv.rails < 2 {
		return 0
	}
	return float64(fv.rails-1) / float64(fv.rails)
}
