package planner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// RackPair is the links of one link tier between two racks of the hall
// (the same rack twice for links inside a rack): the floor plan draws
// a tier's runs one line per pair, not one per link.
type RackPair struct {
	// A and B index Hall.Racks: A holds the lower ends (servers, or the
	// lower switches), B the upper.
	A, B  int
	Links int
	// LongestM is the longest length sold among the pair's links.
	LongestM float64
}

// RackPairs counts tier's links ("leaf-spine" or "leaf_spine") by the
// two racks they join, most links first (then by rack), walking every
// link and checking ctx as it goes. It needs a hall.
func (p *Plan) RackPairs(ctx context.Context, tier string) ([]RackPair, error) {
	key, ok := TierKey(tier)
	if !ok || p.linkTier(key) == nil {
		return nil, fmt.Errorf("tier %q: not one of this plan's link tiers", tier)
	}
	if p.Hall == nil {
		return nil, fmt.Errorf("the %s runs need a data-hall layout", strings.ReplaceAll(key, "_", "-"))
	}
	type pairKey struct{ a, b int32 }
	at := map[pairKey]int{}
	var out []RackPair
	last, lastAt := pairKey{-1, -1}, -1
	seen := 0
	err := p.walkCables(false, func(c *CableRun) error {
		if seen++; seen%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if c.Tier != key {
			return nil
		}
		k := pairKey{c.aRack, c.bRack}
		i := lastAt
		if k != last {
			var found bool
			if i, found = at[k]; !found {
				i = len(out)
				at[k] = i
				out = append(out, RackPair{A: int(k.a), B: int(k.b)})
			}
			last, lastAt = k, i
		}
		r := &out[i]
		r.Links++
		r.LongestM = max(r.LongestM, c.Metres)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walking the %s links: %w", strings.ReplaceAll(key, "_", "-"), err)
	}
	slices.SortFunc(out, func(x, y RackPair) int {
		return cmp.Or(cmp.Compare(y.Links, x.Links), cmp.Compare(x.A, y.A), cmp.Compare(x.B, y.B))
	})
	return out, nil
}

// FarEnds lists the racks rack links to in pairs, with the links to
// each, most first.
func FarEnds(pairs []RackPair, rack int) []RackPair {
	var out []RackPair
	for _, r := range pairs {
		switch rack {
		case r.A:
			out = append(out, r)
		case r.B:
			out = append(out, RackPair{A: r.B, B: r.A, Links: r.Links, LongestM: r.LongestM})
		}
	}
	return out
}
