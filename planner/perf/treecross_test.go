package perf

import (
	"math"
	"testing"
)

// ncclBtree is ncclGetBtree of NVIDIA/nccl src/graph/trees.cc, line for
// line: node rank's parent (-1 at the root) among nranks.
func ncclBtree(nranks, rank int) int {
	bit := 1
	for ; bit < nranks; bit <<= 1 {
		if bit&rank != 0 {
			break
		}
	}
	if rank == 0 {
		return -1
	}
	up := (rank ^ bit) | (bit << 1)
	if up >= nranks {
		up = rank ^ bit
	}
	return up
}

// ncclDtreeParents is ncclGetDtree's two parents of rank: the second tree
// shifted by one when nranks is odd, mirrored when even.
func ncclDtreeParents(nranks, rank int) (int, int) {
	s0 := ncclBtree(nranks, rank)
	if nranks%2 == 1 {
		u := ncclBtree(nranks, (rank-1+nranks)%nranks)
		if u == -1 {
			return s0, -1
		}
		return s0, (u + 1) % nranks
	}
	u := ncclBtree(nranks, nranks-1-rank)
	if u == -1 {
		return s0, -1
	}
	return s0, nranks - 1 - u
}

// bruteTreeCrossing counts, edge by edge, the double tree's edges whose
// ends sit in different groups of k consecutive nodes.
func bruteTreeCrossing(n, k int) float64 {
	c := 0
	for r := 0; r < n; r++ {
		p0, p1 := ncclDtreeParents(n, r)
		for _, p := range []int{p0, p1} {
			if p >= 0 && p/k != r/k {
				c++
			}
		}
	}
	return float64(c) / float64(2*(n-1))
}

// TestTreeCrossingMatchesNCCLsTrees checks the counted share against the
// trees NCCL builds, edge by edge, for every n up to 300 and group size
// up to n. Catches: a wrong boundary offset for the mirrored or shifted
// tree (n%k, k-1), the shifted tree's wrapped node left in the last
// group, an edge of length b < k whose residue window is (0, 2b] rather
// than (b, 3b], the parent-past-the-end case left out.
func TestTreeCrossingMatchesNCCLsTrees(t *testing.T) {
	for n := 2; n <= 300; n++ {
		for k := 1; k <= n; k++ {
			if got, want := treeCrossing(n, k), bruteTreeCrossing(n, k); got != want {
				t.Fatalf("treeCrossing(%d, %d) = %v, NCCL's trees give %v", n, k, got, want)
			}
		}
	}
}

// TestTreeCrossingHandCount: the share of a double binary tree's 2(n-1)
// edges that join two groups of k consecutive nodes, counted by hand
// from ncclGetBtree (edges r to r±lowbit(r); the root's edge to 0):
//   - n = 8: tree 1 is 1-2, 3-2, 5-6, 7-6, 2-4, 6-4, 4-0. Groups of 4
//     ({0..3}, {4..7}): 2-4 and 4-0 cross, 2 edges; the mirror tree the
//     same, 4 of 14 = 2/7 (the ring: 2 of 8). Groups of 2: 1-2, 5-6,
//     2-4, 6-4, 4-0 cross, 5 a tree, 10 of 14 = 5/7 (the ring: 1/2).
//   - n = 16, groups of 4: the odd nodes' edges stay in their group;
//     2-4 and 10-12 cross, 6-4 and 14-12 do not; 4-8, 12-8 and 8-0
//     cross: 5 a tree, 10 of 30 = 1/3 (the ring: 1/4).
//   - n = 7 (odd: the second tree is the first shifted by one), groups
//     {0,1,2}, {3,4,5}, {6}: tree 1's 3-2, 5-6, 2-4, 6-4, 4-0 cross (5);
//     shifted, 2-3, 4-3, 6-0, 3-5, 0-5, 5-1 of which 2-3, 6-0, 0-5, 5-1
//     cross (4): 9 of 12 = 3/4 (the ring: 3/7).
//   - a whole job in one group: 0.
//
// Mutations caught: the ring's groups/nodes kept for the tree (1/4 for
// 16 in 4s), each tree's crossing edges counted once for both trees
// (1/6), the shifted tree's node 0 left in the last group (n = 7), the
// edges over 2(n-1) taken over n.
func TestTreeCrossingHandCount(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want float64
	}{
		{8, 4, 2.0 / 7}, {8, 2, 5.0 / 7}, {16, 4, 1.0 / 3}, {7, 3, 3.0 / 4},
		{16, 16, 0}, {16, 32, 0}, {2, 1, 1},
	} {
		if got := treeCrossing(c.n, c.k); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("treeCrossing(%d, %d) = %.4f, want %.4f", c.n, c.k, got, c.want)
		}
	}
}

// TestTreeNeverCrossesLessThanARing: for every n up to 300 and group
// size below n that fills its groups (n a multiple of k), the tree's
// share is at least the ring's (groups/n): the ring leaves a group on 1
// edge each way, the tree on 2 to 4 a tree. A part-filled last group is
// another matter: 4 nodes in groups of 3 cross the ring on 2 edges of 4
// (3-2 and 3-0, 1/2) but each tree on 1 of 3 (3-2, then 1-3: 1/3).
// Mutation caught: a count that loses the edges of length k and more
// (the nodes whose lowest bit is at least k), which falls below the
// ring for large groups.
func TestTreeNeverCrossesLessThanARing(t *testing.T) {
	if got := treeCrossing(4, 3); math.Abs(got-1.0/3) > 1e-12 {
		t.Errorf("treeCrossing(4, 3) = %.4f, want 1/3", got)
	}
	for n := 2; n <= 300; n++ {
		for k := 1; k < n; k++ {
			if n%k != 0 {
				continue
			}
			ring := float64((n+k-1)/k) / float64(n)
			if tree := treeCrossing(n, k); tree < ring-1e-12 {
				t.Fatalf("%d nodes in groups of %d: tree %.4f < ring %.4f", n, k, tree, ring)
			}
		}
	}
}

// treeShare is the share of its NIC a port of a group of n servers (one
// rank each, stride 8) keeps under NCCL's tree, and the ring's.
func treeShare(d *JCTData, fv fabricView, n int) (tree, ring float64) {
	fv.setJobSize(8*n, 8)
	if fv.static {
		fv.maxLoads = new(maxLoadMemo)
	}
	m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
	g := m.group(n, 8)
	return m.treeGroup(&g).share, g.share
}

// TestTreeChargedItsOwnShare: under adaptive routing a crossing port
// keeps 1/max(1, r x frac) with frac the tree's share (hand counts
// above). 8 servers, 2 per leaf (5/7): 1:1 keeps 1, 2:1 loads 10/7 and
// keeps 7/10 (the ring 1), 3:1 loads 15/7, keeps 7/15 (the ring 2/3).
// 16 servers, 4 per leaf (1/3): 3:1 loads exactly 1, keeps 1; 4:1 keeps
// 3/4 (the ring 1). A ring of 16 under one 16-port leaf never crosses.
// Three tiers, 1:1 leaves of 4, pods of 8 at 4:1, 16 servers: the pod
// boundaries of the hand count for groups of 8 (2 edges a tree, 4 of
// 30), core load 4 x 2/15 = 8/15, keeps 1; pods of 4 at 4:1: 4 x 1/3,
// keeps 3/4 (the ring's 4 x 1/4 keeps 1).
// Mutations caught: treeGroup returning the ring's share (7/10 read as
// 1), the pod's tree share left out (3/4 read as 1), the ratio dropped.
func TestTreeChargedItsOwnShare(t *testing.T) {
	d := testData(t)
	for _, c := range []struct {
		name            string
		k, n            int
		ratio           float64
		pod             int
		spine           float64
		wantTree, wantR float64
	}{
		{"8 servers, 2 per leaf, 1:1", 2, 8, 1, 0, 0, 1, 1},
		{"8 servers, 2 per leaf, 2:1", 2, 8, 2, 0, 0, 0.7, 1},
		{"8 servers, 2 per leaf, 3:1", 2, 8, 3, 0, 0, 7.0 / 15, 2.0 / 3},
		{"16 servers, 4 per leaf, 3:1", 4, 16, 3, 0, 0, 1, 1},
		{"16 servers, 4 per leaf, 4:1", 4, 16, 4, 0, 0, 0.75, 1},
		{"packed under one leaf, 3:1", 16, 16, 3, 0, 0, 1, 1},
		{"pods of 8 at 4:1", 4, 16, 1, 8, 4, 1, 1},
		{"pods of 4 at 4:1", 4, 16, 1, 4, 4, 0.75, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			fv := crossingView(d, c.k, c.ratio, false, false)
			if c.pod > 0 {
				fv.tiers, fv.serversPerPod, fv.spineRatio = 3, c.pod, c.spine
			}
			tree, ring := treeShare(d, fv, c.n)
			if math.Abs(tree-c.wantTree) > 1e-9 || math.Abs(ring-c.wantR) > 1e-9 {
				t.Errorf("tree keeps %.4f, ring %.4f; want %.4f, %.4f", tree, ring, c.wantTree, c.wantR)
			}
		})
	}
}

// TestTreeAllReduceSlowsWithItsShare: a tree all-reduce (NCCL_ALGO=tree)
// of 1 GiB over 8 servers, 2 per leaf, runs at 7/10 of its 1:1 bus
// bandwidth at 2:1 (hand count above), where the ring keeps all of it.
// Mutation caught: allReduceOf timing the tree on the ring's group.
func TestTreeAllReduceSlowsWithItsShare(t *testing.T) {
	d := testData(t)
	busbw := func(algo string, ratio float64) float64 {
		fv := crossingView(d, 2, ratio, false, false)
		fv.algorithm = algo
		fv.setJobSize(8*8, 8)
		m := newNetModel(fv, d.GPUs["h100"], d, RDMA)
		return m.allReduce(1<<30, m.groupP(8, 8)).busbw
	}
	if got := busbw(AlgoTree, 2) / busbw(AlgoTree, 1); math.Abs(got-0.7) > 1e-9 {
		t.Errorf("tree at 2:1 keeps %.4f of its 1:1 busbw, want 0.7", got)
	}
	if got := busbw(AlgoRing, 2) / busbw(AlgoRing, 1); math.Abs(got-1) > 1e-9 {
		t.Errorf("ring at 2:1 keeps %.4f of its 1:1 busbw, want 1", got)
	}
}

// TestTreeOversubscriptionNeverHelps: over 1:1 to 4:1, leaf groups of 1
// to 32 and jobs of 2 to 512 servers, packed and spread, the tree's
// share never exceeds the ring's where the job fills its leaf groups (it
// crosses at least as much, TestTreeNeverCrossesLessThanARing), static
// never keeps more than adaptive, and a higher ratio never keeps more.
// Mutations caught: the tree's hashed share taken from the ring's
// crossing probability while its balanced load uses its own (static
// above adaptive), a load that falls with the ratio.
func TestTreeOversubscriptionNeverHelps(t *testing.T) {
	d := testData(t)
	for _, spread := range []bool{false, true} {
		for _, k := range []int{1, 2, 4, 16, 32} {
			for _, n := range []int{2, 8, 48, 512} {
				prev := [2]float64{math.Inf(1), math.Inf(1)}
				for _, ratio := range []float64{1, 1.5, 2, 3, 4} {
					var share [2]float64
					for i, static := range []bool{false, true} {
						var ring float64
						share[i], ring = treeShare(d, crossingView(d, k, ratio, spread, static), n)
						full := spread || n%k == 0
						if share[i] > prev[i]+1e-12 || (full && share[i] > ring+1e-12) {
							t.Errorf("spread %v, %d per leaf, %d servers, static %v, %g:1: tree keeps %.4f, less oversubscribed %.4f, ring %.4f",
								spread, k, n, static, ratio, share[i], prev[i], ring)
						}
					}
					if share[1] > share[0]+1e-12 {
						t.Errorf("spread %v, %d per leaf, %d servers, %g:1: static tree keeps %.4f, adaptive %.4f",
							spread, k, n, ratio, share[1], share[0])
					}
					prev = share
				}
			}
		}
	}
}
