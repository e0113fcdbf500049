package planner

import (
	"strconv"

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
func (p *Plan) SideLinks() int {
	n := 0
	if ls := p.LeafStorage; ls != nil {
		n += ls.Links
	}
	if lp := p.LeafPairs; lp != nil {
		n += lp.PeerLinks
	}
	return n
}

// WalkCableMap calls fn for every row of the cable map: the fabric's
// links as WalkCables walks them, then, plane by plane, the storage
// nodes' links (storage-node<N> port U<x>/P1 to its leaf) and the leaf
// pairs' peer links (leaf 2i to leaf 2i + 1 of the plane). Those take
// the server-leaf tier's longest run and its modules (the node-end
// module at a storage node, the leaf-end one at each leaf end), as the
// BOM prices them (serverLeafSide), without a place in the hall. A leaf's storage ports fill
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
	for plane := 1; plane <= p.Planes; plane++ {
		if err := s.storage(plane); err != nil {
			return err
		}
		if err := s.peers(plane); err != nil {
			return err
		}
	}
	return nil
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
	lay := p.layout
	var out []fabric.Load
	next, pod := 0, 0
	for _, run := range lay.Pods {
		for range run.Count {
			k := 0
			for _, ld := range run.Leaves {
				for range ld.Switches {
					g := lay.LeafOf(pod, k, next)
					for len(out) <= g {
						out = append(out, fabric.Load{})
					}
					out[g] = fabric.Load{Switches: 1, Down: ld.Down, Up: ld.Up}
					next++
					k++
				}
			}
			pod++
		}
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

// storage walks plane's storage links: the plane's share of each node's
// ports in turn, spread over the full units' leaves (the plane's first)
// or the partial unit's (from ls.firstLeaf) as the sizing spreads them (the first leaves take one more where they
// do not divide), each beside a full leaf's server ports.
func (s *sideWalk) storage(plane int) error {
	ls := s.p.LeafStorage
	if ls == nil || ls.perPlane == 0 || ls.leavesPerPlane == 0 {
		return nil
	}
	planes := s.p.Planes
	each, more := ls.perPlane/ls.leavesPerPlane, ls.perPlane%ls.leavesPerPlane
	perNode := ls.PortsEach / planes
	dc := s.w.cages[tierServerLeaf][1]
	g, j := 0, 0 // leaf and its storage port
	for i := range ls.perPlane {
		if j == each+boolInt(g < more) {
			g, j = g+1, 0
		}
		node, r := i/perNode, i%perNode
		c := s.row(CableTierStorage, plane, ls.cable)
		c.AModule = ls.cable.Lower
		c.ADevice, c.APort = "storage-node"+strconv.Itoa(node+1), "U"+strconv.Itoa(r*planes+plane)+"/P1"
		c.BDevice, c.BPort = s.w.leaf(plane, ls.firstLeaf+g), portName(s.extraPort(ls.firstLeaf+g, ls.serverPorts, j, true), dc)
		j++
		if err := s.fn(c); err != nil {
			return err
		}
	}
	return nil
}

// peers walks plane's peer links: leaf 2i to leaf 2i + 1, port for
// port.
func (s *sideWalk) peers(plane int) error {
	lp := s.p.LeafPairs
	if lp == nil || lp.PeerPortsEach == 0 {
		return nil
	}
	dc := s.w.cages[tierServerLeaf][1]
	for pair := range lp.Pairs / s.p.Planes {
		a, b := 2*pair, 2*pair+1
		for j := range lp.PeerPortsEach {
			c := s.row(CableTierPeer, plane, lp.cable)
			c.AModule, c.AModel = c.BModule, c.BModel
			c.ADevice, c.APort = s.w.leaf(plane, a), portName(s.extraPort(a, s.down(a), j, false), dc)
			c.BDevice, c.BPort = s.w.leaf(plane, b), portName(s.extraPort(b, s.down(b), j, false), dc)
			if err := s.fn(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// down is leaf g's server links as the link walk wires them.
func (s *sideWalk) down(g int) int {
	if g < len(s.leaves) {
		return s.leaves[g].Down
	}
	return 0
}
