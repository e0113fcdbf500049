package planner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// RackEnd is the links of one link tier between a rack and one far rack
// (the rack itself for links inside it), by medium and length sold: what
// the window lists when a rack of the floor plan is clicked.
type RackEnd struct {
	Tier string // planner key: "server_leaf", "leaf_spine" or "spine_core"
	// Far indexes Hall.Racks; Lower says the rack holds the links' lower
	// ends (servers, or the lower switches) and Far the upper.
	Far   int
	Lower bool
	Links int
	// Runs are the links by medium, part and length sold, shortest
	// first within a medium.
	Runs []LinkRun
}

// LongestM is the longest length sold among the end's links.
func (e RackEnd) LongestM() float64 {
	l := 0.0
	for _, r := range e.Runs {
		l = max(l, r.Metres)
	}
	return l
}

// RackEnds lists where the links of rack (an index in Hall.Racks) go:
// per link tier, in the plan's tier order, one entry per far rack, most
// links first, then by rack. It walks every link of the plan once,
// checking ctx as it goes, so callers run it off the UI goroutine. It
// needs a hall.
func (p *Plan) RackEnds(ctx context.Context, rack int) ([]RackEnd, error) {
	h := p.Hall
	if h == nil {
		return nil, fmt.Errorf("a rack's links need a data-hall layout")
	}
	if rack < 0 || rack >= len(h.Racks) {
		return nil, fmt.Errorf("rack %d: the hall has racks 0 to %d", rack, len(h.Racks)-1)
	}
	name := h.Racks[rack].Name
	type endKey struct {
		tier  string
		far   string
		lower bool
	}
	type runKey struct {
		end    endKey
		medium Medium
		part   string
		metres float64
	}
	runs := map[runKey]int{}
	seen := 0
	err := p.walkCables(false, func(c *CableRun) error {
		if seen++; seen%ctxCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		var k endKey
		switch name {
		case c.ARack:
			k = endKey{c.Tier, c.BRack, true}
		case c.BRack:
			k = endKey{c.Tier, c.ARack, false}
		default:
			return nil
		}
		runs[runKey{k, c.Medium, c.Part, c.Metres}]++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walking the links of rack %s: %w", name, err)
	}
	index := make(map[string]int, len(h.Racks))
	for i, r := range h.Racks {
		index[r.Name] = i
	}
	ends := map[endKey]*RackEnd{}
	for k, n := range runs {
		e := ends[k.end]
		if e == nil {
			e = &RackEnd{Tier: k.end.tier, Far: index[k.end.far], Lower: k.end.lower}
			ends[k.end] = e
		}
		e.Links += n
		e.Runs = append(e.Runs, LinkRun{Medium: k.medium, Part: k.part, Metres: k.metres, Links: n})
	}
	out := make([]RackEnd, 0, len(ends))
	for _, e := range ends {
		slices.SortFunc(e.Runs, func(a, b LinkRun) int {
			return cmp.Or(cmp.Compare(a.Medium, b.Medium), cmp.Compare(a.Metres, b.Metres), cmp.Compare(a.Part, b.Part))
		})
		out = append(out, *e)
	}
	slices.SortFunc(out, func(a, b RackEnd) int {
		return cmp.Or(cmp.Compare(tierIndex(a.Tier), tierIndex(b.Tier)), cmp.Compare(b.Links, a.Links), cmp.Compare(a.Far, b.Far),
			cmp.Compare(boolInt(b.Lower), boolInt(a.Lower)))
	})
	return out, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
