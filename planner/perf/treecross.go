package perf

// NCCL's tree all-reduce runs over a double binary tree of the nodes
// (NVIDIA/nccl src/graph/trees.cc, ncclGetBtree and ncclGetDtree): in the
// first tree node r's parent is (r^b)|2b for b its lowest set bit, or r^b
// when that is past the last node, so every edge joins r and r±b; the
// second tree mirrors the first (r -> n-1-r) when n is even and shifts it
// by one (r -> r+1 mod n) when n is odd. Each tree carries half the data,
// every edge reduces it up and broadcasts it down, so an edge moves half
// a buffer each way and the 2(n-1) edges of both trees the whole traffic.

// treeCrossing is the share of a tree all-reduce's traffic over n nodes
// that leaves its groups of k consecutive nodes: the edges of both trees
// joining two groups over all 2(n-1) edges.
func treeCrossing(n, k int) float64 {
	if n < 2 || k >= n {
		return 0
	}
	k = max(k, 1)
	c1, c2 := treeCrossEdges(n, k, 0), 0
	if n%2 == 0 {
		// Mirrored, group boundaries at n-tk in the first tree's numbering.
		c2 = treeCrossEdges(n, k, n%k)
	} else {
		// Shifted, the boundaries fall at tk-1; the last node of the
		// first tree's numbering is node 0, in the first group, not the last.
		c2 = treeCrossEdges(n, k, k-1) + shiftWrapFix(n, k)
	}
	return float64(c1+c2) / float64(2*(n-1))
}

// treeCrossEdges counts the edges of the first tree over n nodes that
// span a group boundary, boundaries (a node s starting a group) at
// s ≡ c (mod k), 1 ≤ s ≤ n-1. An edge of length b ≥ k always spans one;
// the edges of length b < k (b a power of two) cover, once each, the
// points whose residue mod 4b is in (b, 3b] up to the last multiple of b
// below n, plus (R-b, R] when the node R = b(4i+1) would have its parent
// R+b past the end and joins R-b instead.
func treeCrossEdges(n, k, c int) int {
	last := n - 1
	p := 1
	for p < k {
		p <<= 1
	}
	count := last / p // nodes whose lowest bit is at least k: their edge spans a boundary
	first := c % k
	if first == 0 {
		first = k
	}
	for b := 1; b < p && b <= last; b <<= 1 {
		r := last / b * b
		count += boundariesIn(first, k, r, b, 4*b)
		if (r/b)%4 == 1 {
			count += boundariesBetween(first, k, r-b, r)
		}
	}
	return count
}

// boundariesIn counts s = first+tk ≤ x (t ≥ 0) with s mod m in (b, 3b]:
// the residues repeat every m/gcd(k, m) boundaries.
func boundariesIn(first, k, x, b, m int) int {
	if x < first {
		return 0
	}
	total := (x-first)/k + 1
	period := m / gcd(k, m)
	count := 0
	for t := 0; t < min(period, total); t++ {
		if res := (first + t*k) % m; res > b && res <= 3*b {
			count += (total - t + period - 1) / period
		}
	}
	return count
}

// boundariesBetween counts s = first+tk (t ≥ 0) in (lo, hi].
func boundariesBetween(first, k, lo, hi int) int {
	if hi < first {
		return 0
	}
	s := first
	if lo >= first {
		s = first + ((lo-first)/k+1)*k
	}
	if s <= hi {
		return 1 + (hi-s)/k
	}
	return 0
}

// shiftWrapFix corrects the shifted tree's count for its node n-1 (node 0
// of the job, in the first group): its edges were counted as if it sat
// after the last boundary.
func shiftWrapFix(n, k int) int {
	last, first := n-1, k-1
	if first == 0 {
		first = k
	}
	fix := 0
	for _, nb := range btreeNeighbours(n, last) {
		if nb < 0 {
			continue
		}
		if boundariesBetween(first, k, nb, last) > 0 { // counted
			fix--
		}
		if (nb+1)/k != 0 { // crosses: node nb is the job's node nb+1
			fix++
		}
	}
	return fix
}

// btreeNeighbours is node r's parent and children in the first tree
// (ncclGetBtree), -1 for none.
func btreeNeighbours(n, r int) [3]int {
	bit := 1
	for bit < n && bit&r == 0 {
		bit <<= 1
	}
	if r == 0 {
		if n > 1 {
			return [3]int{-1, -1, bit >> 1}
		}
		return [3]int{-1, -1, -1}
	}
	up := (r ^ bit) | bit<<1
	if up >= n {
		up = r ^ bit
	}
	low := bit >> 1
	if low == 0 {
		return [3]int{up, -1, -1}
	}
	d1 := r + low
	for d1 >= n { // as ncclGetBtree: the nearest child in range
		d1 = -1
		if low > 0 {
			d1 = r + low
		}
		low >>= 1
	}
	return [3]int{up, r - bit>>1, d1}
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
