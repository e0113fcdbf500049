package phases

import (
	"io"
	"slices"
	"strconv"

	"fabricplan/planner"
)

// LinkMove is one link of a phase that the next phase re-cables: its
// ends in the phase before (From) and, for a move, in the new phase's
// cable map (To; empty when the link is taken out).
type LinkMove struct {
	Phase  int    // the phase the move reaches (from 2)
	Action string // MoveAction or RemoveAction
	Tier   string
	Plane  int
	Rail   int
	From   [4]string // a_device, a_port, b_device, b_port
	To     [4]string
	Gbps   int
	Medium planner.Medium
	Part   string
	Metres float64
}

// Moves' actions.
const (
	MoveAction   = "move"   // re-plug the cable to the new ends
	RemoveAction = "remove" // take the cable out: the new phase has fewer here
	// RenameAction relabels a core switch (From[0]) with its name in the
	// new phase's cable map (To[0]); its cables stay.
	RenameAction = "rename"
)

// keptFlags marks, in the cable map's order (the link walk's, then the
// side links'), the links of from that to keeps: for each lower device,
// as many links to each upper device as both have, the first ones in
// walk order. fromRename and toRename name each plan's cores
// (coreRename's, for the plan of the phase before; nil: their own).
func keptFlags(from, to *planner.Plan, fromRename, toRename map[uint64]uint64) []bool {
	want := map[[3]uint64]int{}
	mark := func(p *planner.Plan, rename map[uint64]uint64, fn func(key [3]uint64)) {
		rails, tri := railLeaves(p), p.Tiers == 3
		_ = p.WalkLinks(func(l *planner.Link) error {
			lo, up := lowerUpper(l, p.ServerPorts, rails, tri)
			if l.Tier == planner.LinkSpineCore {
				up = renamed(rename, up)
			}
			fn([3]uint64{uint64(l.Tier), lo, up})
			return nil
		})
		_ = p.WalkSideLinks(func(l *planner.LeafSideLink) error {
			fn(sideKey(l, rails))
			return nil
		})
	}
	mark(to, toRename, func(k [3]uint64) { want[k]++ })
	var kept []bool
	mark(from, fromRename, func(k [3]uint64) {
		ok := want[k] > 0
		if ok {
			want[k]--
		}
		kept = append(kept, ok)
	})
	return kept
}

// Moves calls fn for every link the grow strategy moves or takes out to
// reach each phase, phase by phase, in the order of the phase before's
// cable map, after the cores that take a new name in that phase
// (RenameAction, From and To the core's two names; coreRename). A
// moved cable keeps its lower device and goes to one of the new phase's
// links from that device that the phase before did not have (the new
// map's ports). Building for the final size moves nothing.
func (pp *PhasedPlan) Moves(fn func(m *LinkMove) error) error {
	for k := 1; k < len(pp.plans); k++ {
		if err := movesBetween(pp.plans[k-1], pp.plans[k], k+1, fn); err != nil {
			return err
		}
	}
	return nil
}

// movesBetween streams the moves from plan from to plan to.
func movesBetween(from, to *planner.Plan, phase int, fn func(m *LinkMove) error) error {
	// The new links not kept, by lower device key, as their names.
	added := map[[2]uint64][][4]string{}
	rename := phaseRename(from, to)
	if err := renameMoves(from, to, rename, phase, fn); err != nil {
		return err
	}
	keptTo := keptFlags(to, from, nil, rename)
	var keys [][2]uint64
	keys = lowerKeys(to, keys)
	i := 0
	if err := to.WalkCableMap(func(c *planner.CableRun) error {
		if !keptTo[i] {
			added[keys[i]] = append(added[keys[i]], [4]string{c.ADevice, c.APort, c.BDevice, c.BPort})
		}
		i++
		return nil
	}); err != nil {
		return err
	}
	kept := keptFlags(from, to, rename, nil)
	keys = lowerKeys(from, keys[:0])
	i = 0
	m := &LinkMove{Phase: phase}
	return from.WalkCableMap(func(c *planner.CableRun) error {
		j := i
		i++
		if kept[j] {
			return nil
		}
		m.Action, m.To = RemoveAction, [4]string{}
		if q := added[keys[j]]; len(q) > 0 {
			m.Action, m.To, added[keys[j]] = MoveAction, q[0], q[1:]
		}
		m.Tier, m.Plane, m.Rail, m.Gbps, m.Medium, m.Part, m.Metres = c.Tier, c.Plane, c.Rail, c.Gbps, c.Medium, c.Part, c.Metres
		m.From = [4]string{c.ADevice, c.APort, c.BDevice, c.BPort}
		return fn(m)
	})
}

// lowerKeys appends to keys each link's tier and lower device key, in
// the cable map's order: the link walk's, then the side links'.
func lowerKeys(p *planner.Plan, keys [][2]uint64) [][2]uint64 {
	rails, tri := railLeaves(p), p.Tiers == 3
	_ = p.WalkLinks(func(l *planner.Link) error {
		lo, _ := lowerUpper(l, p.ServerPorts, rails, tri)
		keys = append(keys, [2]uint64{uint64(l.Tier), lo})
		return nil
	})
	_ = p.WalkSideLinks(func(l *planner.LeafSideLink) error {
		k := sideKey(l, rails)
		keys = append(keys, [2]uint64{k[0], k[1]})
		return nil
	})
	return keys
}

// MovesCSVHeader heads the moves' CSV: the phase and action, the cable
// map's ends before and after, and the cable map's other columns.
var MovesCSVHeader = []string{"phase", "action", "tier", "from_a_device", "from_a_port", "from_b_device", "from_b_port",
	"to_a_device", "to_a_port", "to_b_device", "to_b_port", "gbps", "medium", "part", "length_m", "plane", "rail"}

// WriteMovesCSV writes the grow strategy's moves as CSV, one row a link.
func WriteMovesCSV(w io.Writer, pp *PhasedPlan) error {
	rec := make([]string, len(MovesCSVHeader))
	return planner.StreamCSV(w, MovesCSVHeader, func(write func([]string) error) error {
		return pp.Moves(func(m *LinkMove) error {
			rec[0], rec[1], rec[2] = strconv.Itoa(m.Phase), m.Action, m.Tier
			copy(rec[3:7], m.From[:])
			copy(rec[7:11], m.To[:])
			rec[11], rec[12], rec[13] = strconv.Itoa(m.Gbps), string(m.Medium), m.Part
			rec[14], rec[15], rec[16] = strconv.FormatFloat(m.Metres, 'f', -1, 64), strconv.Itoa(m.Plane), strconv.Itoa(m.Rail)
			return write(rec)
		})
	})
}

// moveJSON is one move as the JSON list writes it.
type moveJSON struct {
	Phase  int            `json:"phase"`
	Action string         `json:"action"`
	Tier   string         `json:"tier"`
	From   linkEnds       `json:"from"`
	To     *linkEnds      `json:"to,omitempty"`
	Gbps   int            `json:"gbps"`
	Medium planner.Medium `json:"medium"`
	Part   string         `json:"part"`
	Metres float64        `json:"length_m"`
	Plane  int            `json:"plane"`
	Rail   int            `json:"rail,omitempty"`
}

type linkEnds struct {
	A endJSON `json:"a"`
	B endJSON `json:"b"`
}

// endJSON is one end of a link as the cable map's JSON names it.
type endJSON struct {
	Device string `json:"device"`
	Port   string `json:"port"`
}

// WriteMovesJSON writes the grow strategy's moves as a JSON array, one
// link an element (a line each), streamed.
func WriteMovesJSON(w io.Writer, pp *PhasedPlan) error {
	return planner.StreamJSON(w, func(write func(v any) error) error {
		return pp.Moves(func(m *LinkMove) error {
			j := moveJSON{Phase: m.Phase, Action: m.Action, Tier: m.Tier, From: linkEnds{endJSON{Device: m.From[0], Port: m.From[1]}, endJSON{Device: m.From[2], Port: m.From[3]}},
				Gbps: m.Gbps, Medium: m.Medium, Part: m.Part, Metres: m.Metres, Plane: m.Plane, Rail: m.Rail}
			if m.Action == MoveAction {
				j.To = &linkEnds{endJSON{Device: m.To[0], Port: m.To[1]}, endJSON{Device: m.To[2], Port: m.To[3]}}
			}
			return write(j)
		})
	})
}

// renameMoves calls fn for each core of from that rename gives the name
// of another core of to, in core key order: From[0] its name in from's
// cable map, To[0] in to's. A core no core of to takes over is not
// renamed: its links are moved or taken out.
func renameMoves(from, to *planner.Plan, rename map[uint64]uint64, phase int, fn func(m *LinkMove) error) error {
	if rename == nil {
		return nil
	}
	fromNames, toNames := coreNames(from), coreNames(to)
	keys := make([]uint64, 0, len(rename))
	for a, b := range rename {
		if a != b && b&unmatchedCore == 0 {
			keys = append(keys, a)
		}
	}
	slices.Sort(keys)
	for _, a := range keys {
		m := &LinkMove{Phase: phase, Action: RenameAction, Tier: planner.MediaTiers[planner.LinkSpineCore]}
		m.From[0], m.To[0], m.Plane = fromNames[a], toNames[rename[a]], int(a&^(1<<63)>>40)
		if err := fn(m); err != nil {
			return err
		}
	}
	return nil
}

// coreNames is each core's name in p's cable map, by core key.
func coreNames(p *planner.Plan) map[uint64]string {
	names := map[uint64]string{}
	var ups []uint64
	rails := railLeaves(p)
	_ = p.WalkLinks(func(l *planner.Link) error {
		if l.Tier == planner.LinkSpineCore {
			_, up := lowerUpper(l, p.ServerPorts, rails, true)
			ups = append(ups, up)
		} else {
			ups = append(ups, 0)
		}
		return nil
	})
	i := 0
	_ = p.WalkCableMap(func(c *planner.CableRun) error {
		if i < len(ups) && ups[i] != 0 {
			names[ups[i]] = c.BDevice
		}
		i++
		return nil
	})
	return names
}
