package hall

import (
	"fmt"
	"testing"
)

// rowsFacility is the hand facility (handFacility) with leaves in the
// middle of each row, the network rows in the middle of the hall and
// eight racks a row.
func rowsFacility() Facility {
	f := handFacility
	f.LeafPlacement, f.RowOrder, f.RacksPerRow = PlaceMiddle, RowsNetMiddle, 8
	return f
}

// rowKinds writes the hall's rows by rack kind, one letter a rack (c
// compute, L leaf, S spine, C core), rows split by "|".
func rowKinds(h *Hall) string {
	letter := map[string]string{RackCompute: "c", RackLeaf: "L", RackSpine: "S", RackCore: "C"}
	s := ""
	for i, r := range h.Racks {
		if i > 0 && r.Row != h.Racks[i-1].Row {
			s += "|"
		}
		s += letter[r.Kind]
	}
	return s
}

// TestPartialUnitAsWhole: the hall's last unit, when partial, stands
// where the whole unit would. By hand (handServers' racks: 4 servers of
// 10 kW a 40 kW rack, a unit of 10 servers in 3 racks, its 2 leaves in
// one leaf rack with room for 40; eight racks a row): two whole units
// take 6 compute racks and their leaf rack, 7 racks, the leaf rack in
// the middle (after (6+1)/2 = 3 racks). A third unit whole takes 3 racks
// more, 10 > 8, so its partial start takes a row of its own; its leaf
// rack stands after (3+1)/2 = 2 of its racks as the whole unit's does,
// the racks it has filling the slots before it first. With one spine
// rack (network rows in the middle: the hall is one block of 3 rows,
// the network row after round down((3-1)/2) = 1 compute row). Mutation
// caught: a partial unit packed by its own size (21 and 22 servers put
// its one rack beside the two whole units' row, a server more took a
// row of its own and shortened its server-leaf runs); its leaf rack set
// by its own racks (after (2+1)/2 = 1 rack at 25 servers, after 2 at
// 30: the leaf rack moved as the unit grew).
func TestPartialUnitAsWhole(t *testing.T) {
	for _, tc := range []struct {
		servers int
		want    string
	}{
		{20, "S|cccLccc"}, // one compute row: the network row before it (round down((2-1)/2) = 0)
		{21, "cccLccc|S|cL"},
		{24, "cccLccc|S|cL"},
		{25, "cccLccc|S|ccL"},
		{28, "cccLccc|S|ccL"},
		{29, "cccLccc|S|ccLc"},
		{30, "cccLccc|S|ccLc"},
	} {
		t.Run(fmt.Sprint(tc.servers), func(t *testing.T) {
			in := handServers
			in.Servers, in.Units = tc.servers, (tc.servers+9)/10
			in.LeavesPerPlane = 2 * in.Units
			h, err := New(in, rowsFacility(), handConstants)
			if err != nil {
				t.Fatal(err)
			}
			if got := rowKinds(h); got != tc.want {
				t.Errorf("rows %s, want %s", got, tc.want)
			}
		})
	}
}

// TestNetworkRowsCentred: the spine and core rows stand together in the
// middle block of rows, with as many compute rows before them in the
// block as after (give or take one), over halls of 3 to 3,000 servers
// and one to twelve network rows. The rows: handServers' units of 10
// servers take 3 racks, three units and their leaf rack fill a row of
// ten; 40 spines or cores (1U, 1 kW) fill a rack. Blocks: round(sqrt(
// rows x 2.2 m pitch / (6 m row + 1.2 m aisle))). By hand, 100 servers
// (4 compute rows) and 40 spines (1 network row): 5 rows in one block,
// the network row after round down((5-1)/2) = 2 compute rows; 300
// servers (10 compute rows) and 4,800 spines (120 racks, 12 rows): 22
// rows in 3 blocks of 8, the network rows from row 8 (the middle
// block's first) to row 19, that block's 12 rows. Mutations caught:
// the network rows set after half the compute rows (182 servers and 40
// spines: 8 rows in 2 blocks of 4, the network row block 0's last, 3
// compute rows before it and none after); a block starting on a
// network row that follows another (3 servers and 4,800 spines: the 12
// network rows split over two blocks).
func TestNetworkRowsCentred(t *testing.T) {
	for _, n := range []struct{ spines, cores int }{{40, 0}, {400, 200}, {1000, 500}, {4800, 0}} {
		for servers := 3; servers <= 3000; servers += 1 + servers/7 {
			spines := n.spines
			in := handServers
			in.Servers, in.Units = servers, (servers+9)/10
			in.LeavesPerPlane, in.SpinesPerPlane, in.CoresPerPlane = 2*in.Units, spines, n.cores
			in.PodSpines = []int{spines}
			f := handFacility
			f.LeafPlacement, f.RowOrder = PlaceMiddle, RowsNetMiddle
			h, err := New(in, f, handConstants)
			if err != nil {
				t.Fatal(err)
			}
			if msg := networkBlockFault(h); msg != "" {
				t.Errorf("%d servers, %d spines: %s (rows %s)", servers, spines, msg, rowKinds(h))
			}
		}
	}
}

// networkBlockFault says how h's network rows miss the middle of the
// middle block: in two blocks, in another block, or off its middle;
// "" when they do not.
func networkBlockFault(h *Hall) string {
	block := map[float64]int{} // a block's rows share their left end
	var blocks []float64
	for _, r := range h.Rows {
		if _, ok := block[r.X]; !ok {
			block[r.X] = len(blocks)
			blocks = append(blocks, r.X)
		}
	}
	netBlock, before, after, net := -1, 0, 0, 0
	for _, r := range h.Rows {
		if !r.Network {
			continue
		}
		if netBlock >= 0 && block[r.X] != netBlock {
			return "the network rows stand in two blocks"
		}
		netBlock = block[r.X]
		net++
	}
	if netBlock != (len(blocks)-1)/2 {
		return fmt.Sprintf("the network rows stand in block %d of %d, not the middle one", netBlock, len(blocks))
	}
	seen := false
	for _, r := range h.Rows {
		switch {
		case r.Network:
			seen = true
		case block[r.X] == netBlock && seen:
			after++
		case block[r.X] == netBlock:
			before++
		}
	}
	if net <= before+after && (before > after+1 || after > before+1) {
		return fmt.Sprintf("%d compute rows before the network rows in their block, %d after", before, after)
	}
	return ""
}
