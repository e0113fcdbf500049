package planner

import (
	"strconv"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// The cable map's links beside the fabric's (issue 46): the storage
// nodes' links to the compute leaves (leafstorage.go) and the leaf
// pairs' peer links (leafpairs.go), which the BOM prices as the
// server-leaf tier's cable at its length with its modules. The link walk
// (WalkLinks) and the views built on it (the hall's runs, the phases'
// moves) do not carry them; the cable map's writers do, after the
// fabric's links, so its links by medium are the BOM's.

// Tier names of the cable map's rows beside the fabric's tiers: the BOM
// lines' places ("storage_leaf", "leaf_peer").
const (
	CableTierStorage = "storage_leaf"
	CableTierPeer    = "leaf_peer"
)

// SideLinks is the links the cable map lists beside the fabric's tiers
// (Links): the storage nodes' links to the compute leaves and the leaf
// pairs' peer links, all planes.
func (p *Plan) SideLinks() int { return p.Links.Storage + p.Links.Peer }

// topoLinks says what links the topology file lists (WriteTopoFile): the
// fabric's tiers', without the storage and peer links the plan counts
// beside them, which it says it leaves out.
func topoLinks(p *Plan) string {
	s := textfmt.Int(p.Links.Fabric()) + " links"
	var left []string
	if p.Links.Storage > 0 {
		left = append(left, textfmt.Plural(p.Links.Storage, "storage link"))
	}
	if p.Links.Peer > 0 {
		left = append(left, textfmt.Plural(p.Links.Peer, "peer link"))
	}
	if len(left) > 0 {
		s += " of the fabric's tiers; the plan's " + textfmt.Int(p.Links.Total) + " also count " + textfmt.JoinAnd(left) + ", not listed here"
	}
	return s
}

// WalkCableMap calls fn for every row of the cable map: the fabric's
// links as WalkCables walks them, then, plane by plane, the storage
// nodes' links (storage-node<N> port U<x>/P1 to its leaf) and the leaf
// pairs' peer links (leaf 2i to leaf 2i + 1 of the plane). A storage
// link takes the server-leaf tier's longest run and its modules (the
// node-end module at a storage node, the leaf-end one at the leaf), as
// the BOM prices it (serverLeafSide), without a place in the hall; a
// peer link its pair's measured run (setPeerRuns), with its racks, or
// without a hall the same longest run. A leaf's storage ports fill
// the last cage of its server ports, then cages after its uplinks; its
// peer ports take cages of their own after its uplinks (the BOM counts
// their modules so). fn must not keep c: it is reused.
func (p *Plan) WalkCableMap(fn func(c *CableRun) error) error {
	if err := p.WalkCables(fn); err != nil {
		return err
	}
	if p.SideLinks() == 0 || len(p.LinkTiers) == 0 {
		return nil
	}
	s := sideWalk{p: p, w: newCableWalkOn(p, nil), fn: fn, leaves: p.leafLoads()}
	return p.WalkSideLinks(s.side)
}

// sideWalk is the state of the cable map's walk of the side links.
type sideWalk struct {
	p      *Plan
	w      *cableWalk // names the leaves
	fn     func(c *CableRun) error
	leaves []fabric.Load // each leaf of a plane by its index: its server links and uplinks
	c      CableRun
}

// leafLoads is each leaf of a plane, by the plane's leaf index, with its
// server links (Down) and uplinks (Up), as the link walk wires them.
func (p *Plan) leafLoads() []fabric.Load {
	var out []fabric.Load
	for g, ld := range p.layout.Leaves() {
		for len(out) <= g {
			out = append(out, fabric.Load{})
		}
		out[g] = fabric.Load{Switches: 1, Down: ld.Down, Up: ld.Up}
	}
	return out
}

// row fills the fixed columns of a side link of plane cabled as sc (as
// the BOM prices it): tier, speed, medium, part, length, the leaf's
// module and model at the B end.
func (s *sideWalk) row(tier string, plane int, sc sideCable) *CableRun {
	s.c = CableRun{Tier: tier, Gbps: s.p.PortGbps, Medium: sc.Medium, Part: sc.Cable, Metres: sc.Metres, Plane: plane,
		BModule: sc.Upper, BModel: s.p.Switch.Key}
	return &s.c
}

// extraPort is the index of leaf g's j-th port (from 0) beside its down
// server links and its uplinks: with fill, first the free places of the
// last server cage; then cages after the uplinks. Ports count in the
// server links' cages (portName with cages[0][1]).
func (s *sideWalk) extraPort(g, down, j int, fill bool) int {
	cages := s.w.cages
	up := 0
	if g < len(s.leaves) {
		up = s.leaves[g].Up
	}
	dc := cages[tierServerLeaf][1]
	free := ceilDiv(down, dc)*dc - down
	if fill && j < free {
		return down + j
	}
	if fill {
		j -= free
	}
	upCages := 0
	if up > 0 {
		upCages = ceilDiv(up, cages[tierLeafSpine][0])
	}
	return (ceilDiv(down, dc)+upCages)*dc + j
}

// LeafSideLink is one link beside the fabric's tiers by its ends, as the
// cable map lists it: a storage node's link to a compute leaf, or a
// leaf pair's peer link.
// Exported for planner/phases.
type LeafSideLink struct {
	Tier  string // CableTierStorage or CableTierPeer
	Plane int    // from 1
	// Leaf is the plane's leaf (by the link walk's index, Link.Upper.Device
	// of its server links) at the leaf end: a peer link's first leaf, 2i.
	Leaf int
	// Node and Port are a storage link's node and its port on the node
	// (from 0, all planes); Peer is a peer link's other leaf, 2i + 1.
	Node, Port, Peer int
	// Extra is which of the leaf's ports beside its servers' and uplinks
	// the link takes (from 0), storage and peer ports counted apart.
	Extra int
}

// WalkSideLinks calls fn for every side link (SideLinks), plane by
// plane, each plane's storage links, then its peer links, in the cable
// map's order: a plane's share of each storage node's ports in turn,
// spread over the full units' leaves (the plane's first) or the partial
// unit's (from its first leaf) as the sizing spreads them (the first
// leaves take one more where they do not divide); then leaf 2i to leaf
// 2i + 1, port for port. fn must not keep l: it is reused.
// Exported for planner/phases.
func (p *Plan) WalkSideLinks(fn func(l *LeafSideLink) error) error {
	var l LeafSideLink
	for plane := 1; plane <= p.Planes; plane++ {
		if ls := p.LeafStorage; ls != nil && ls.perPlane > 0 && ls.leavesPerPlane > 0 {
			each, more := ls.perPlane/ls.leavesPerPlane, ls.perPlane%ls.leavesPerPlane
			perNode := ls.PortsEach / p.Planes
			g, j := 0, 0 // leaf and its storage port
			for i := range ls.perPlane {
				if j == each+boolInt(g < more) {
					g, j = g+1, 0
				}
				l = LeafSideLink{Tier: CableTierStorage, Plane: plane, Leaf: ls.firstLeaf + g, Node: i / perNode, Port: i%perNode*p.Planes + plane - 1, Peer: -1, Extra: j}
				j++
				if err := fn(&l); err != nil {
					return err
				}
			}
		}
		if lp := p.LeafPairs; lp != nil && lp.PeerPortsEach > 0 {
			for pair := range lp.Pairs / p.Planes {
				for j := range lp.PeerPortsEach {
					l = LeafSideLink{Tier: CableTierPeer, Plane: plane, Leaf: 2 * pair, Node: -1, Port: -1, Peer: 2*pair + 1, Extra: j}
					if err := fn(&l); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// side writes the cable map's row of side link l.
func (s *sideWalk) side(l *LeafSideLink) error {
	dc := s.w.cages[tierServerLeaf][1]
	if l.Tier == CableTierStorage {
		ls := s.p.LeafStorage
		c := s.row(CableTierStorage, l.Plane, ls.cable)
		c.AModule = ls.cable.Lower
		c.ADevice, c.APort = "storage-node"+strconv.Itoa(l.Node+1), "U"+strconv.Itoa(l.Port+1)+"/P1"
		c.BDevice, c.BPort = s.w.leaf(l.Plane, l.Leaf), portName(s.extraPort(l.Leaf, ls.serverPorts, l.Extra, true), dc)
		return s.fn(c)
	}
	c := s.row(CableTierPeer, l.Plane, s.p.LeafPairs.cableOf(l.Plane, l.Leaf/2))
	c.AModule, c.AModel = c.BModule, c.BModel
	c.ADevice, c.APort = s.w.leaf(l.Plane, l.Leaf), portName(s.extraPort(l.Leaf, s.down(l.Leaf), l.Extra, false), dc)
	c.BDevice, c.BPort = s.w.leaf(l.Plane, l.Peer), portName(s.extraPort(l.Peer, s.down(l.Peer), l.Extra, false), dc)
	if h := s.p.Hall; h != nil {
		a, b := h.LeafPlace(l.Plane, l.Leaf), h.LeafPlace(l.Plane, l.Peer)
		c.ARack, c.ARow = h.RackName(a.Rack)
		c.BRack, c.BRow = h.RackName(b.Rack)
		c.ARow, c.BRow = c.ARow+1, c.BRow+1
		c.AU, c.BU, c.RunM = a.U, b.U, h.Run(a, b)
	}
	return s.fn(c)
}

// down is leaf g's server links as the link walk wires them.
func (s *sideWalk) down(g int) int {
	if g < len(s.leaves) {
		return s.leaves[g].Down
	}
	return 0
}
