package planner

import (
	"fmt"
	"strings"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// Leaf pairs (issue 46): an Ethernet top-of-rack design whose servers
// are dual-homed to a pair of leaves, MLAG or ESI-LAG (Huawei's AI
// Fabric guide: "Servers can be dual-homed to leaf switches through
// M-LAG"). Each server's ports in a plane split in half over the pair;
// each leaf gives peer_link_ports ports to the link joining it to its
// peer (none for ESI-LAG) and splits the rest between its servers' ports
// and the uplinks the leaf ratio asks for them; the pairs share one
// spine layer, each leaf reaching every spine.
//
// Sizing sees a pair as a rail-optimized unit of two rails: a server of
// R ports a plane is R/2 two-port stand-ins, one port on each leaf, and
// a leaf's server ports are whole servers' halves. The plane it returns
// counts ports and switches as built; its servers a unit are divided
// back to servers (pairedPlane). The link walk maps a pair's ports to
// the server's (linkwalk.go: the leaves of a unit take rails/leaves
// ports of each server). No hall is laid out for pairs yet: each tier's
// links are at one length.

// MaxPeerLinkPorts bounds network.peer_link_ports: more than any switch
// has (a generous bound; the sizing holds it to the leaf's ports).
const MaxPeerLinkPorts = 1 << 10

// LeafPairs is a plan's leaf pairs and their peer links, all planes.
type LeafPairs struct {
	Pairs int `json:"pairs"`
	// PeerPortsEach is the ports each leaf gives its peer link.
	PeerPortsEach int `json:"peer_ports_each"`
	// PeerLinks is the peer links (one cable each), all planes.
	PeerLinks int `json:"peer_links"`
	// serverPorts is a full leaf's server ports, for the modules.
	serverPorts int
	// runs are the peer links grouped by how they are cabled, as the BOM
	// prices them (peerRuns); runOf is each pair's run (all planes, plane
	// by plane), nil when every pair takes runs[0].
	runs  []peerRun
	runOf []int32
	// perPlane is the pairs of one plane.
	perPlane int
}

// peerRun is the pairs whose peer links are cabled one way: the cable,
// its length sold and the leaf-end module, and the run measured (0
// without a hall).
type peerRun struct {
	cable sideCable
	pairs int
}

// cableOf is how pair (from 0, in its plane) of plane (from 1) cables
// its peer links.
func (lp *LeafPairs) cableOf(plane, pair int) sideCable {
	if lp.runOf == nil {
		return lp.runs[0].cable
	}
	return lp.runs[lp.runOf[(plane-1)*lp.perPlane+pair]].cable
}

// validateLeafPairs checks network.leaf_pairs and peer_link_ports: pairs
// only on an Ethernet top-of-rack design (MLAG and ESI-LAG are Ethernet;
// a rail leaf already takes one port of each server), a server's ports
// a plane even (half to each leaf), and no peer link without pairs.
func (s *Scenario) validateLeafPairs() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	n, c := s.Network, s.Cluster
	if n.PeerLinkPorts < 0 || n.PeerLinkPorts > MaxPeerLinkPorts {
		add(fielderr.New("network.peer_link_ports", "give the ports each leaf of a pair gives its peer link, e.g. 2 (0 for ESI-LAG), or leave it out", "%d ports", n.PeerLinkPorts))
	} else if n.PeerLinkPorts > 0 && !n.LeafPairs {
		add(fielderr.New("network.peer_link_ports", "set leaf_pairs = true, or leave peer_link_ports out", "a peer link needs leaf pairs"))
	}
	if !n.LeafPairs {
		return errs
	}
	switch {
	case n.Style() != TopoToR:
		add(fielderr.New("network.leaf_pairs", "set rail_optimized = false (top-of-rack), or leave leaf_pairs out", "leaf pairs dual-home top-of-rack servers; this design is %s", n.Style()))
	case n.Fabric != Ethernet:
		add(fielderr.New("network.leaf_pairs", `set fabric = "ethernet", or leave leaf_pairs out`, "MLAG and ESI-LAG leaf pairs are Ethernet"))
	case n.PodGPUs > 0:
		add(fielderr.New("network.pod_gpus", "leave pod_gpus out with leaf_pairs (pods are whole pairs)", "pod sizes are not modelled for leaf pairs"))
	case n.StorageNodes > 0:
		add(fielderr.New("network.storage_nodes", "leave storage_nodes out with leaf_pairs", "storage on paired leaves is not modelled"))
	}
	if e := n.pairPortsError(c.GPUsPerServer); e != nil {
		add(e)
	}
	return errs
}

// pairPortsError is the error when a server's ports a plane (valid
// counts, planes dividing them) do not split in half over a pair; nil
// when they do or another check reports the counts.
func (n Network) pairPortsError(gpusPerServer int) *fielderr.FieldError {
	if gpusPerServer <= 0 || n.NICsPerServer < 0 || n.PortsPerNIC < 0 || n.Planes <= 0 {
		return nil
	}
	if sp := n.serverPorts(gpusPerServer); sp%n.Planes == 0 && sp/n.Planes%2 != 0 {
		return fielderr.New("network.leaf_pairs", "give each server an even number of ports a plane (more NICs or ports a NIC, or fewer planes)",
			"a server's %d ports a plane do not split over a pair of leaves", sp/n.Planes)
	}
	return nil
}

// setLeafPairs shapes a plane of leaf pairs: each leaf gives its peer
// link its ports, splits the rest at the leaf ratio and keeps whole
// servers' halves (servers_per_tor's, when set), with the uplinks the
// ratio asks for them; sizing then sees each pair as a unit of two
// rails (see the file's comment). A plane one switch would hold is
// given leaves and spines; tiers = 1 asked is an error, as are peer
// ports that leave a leaf no server.
func (spec *fabricSpec) setLeafPairs(n Network, sw *Switch, port int) error {
	if !n.LeafPairs {
		return nil
	}
	if spec.Rails%2 != 0 { // validation says so for the scenario; a search's variants come here
		return fielderr.New("network.leaf_pairs", "give each server an even number of ports a plane", "a server's %d ports a plane do not split over a pair of leaves", spec.Rails)
	}
	half := spec.Rails / 2
	avail := spec.Radix - n.PeerLinkPorts
	d := 0
	if avail > 0 {
		down, _ := fabric.SplitPorts(avail, spec.LeafW, spec.RatioD, spec.RatioU)
		d = down / half * half
	}
	if n.ServersPerToR > 0 {
		d = n.ServersPerToR * half
	}
	if d == 0 || !fabric.Fits(avail, spec.LeafW, d, spec.UpFor(d)) {
		return fielderr.New("network.peer_link_ports", "give fewer peer link ports or servers per ToR, a larger switch or a lower ratio",
			"a leaf of %s (%d x %dG) less %d peer ports holds %d server ports at %s; a server gives it %d", sw.Key, spec.Radix, port, n.PeerLinkPorts, d, n.Oversubscription, half)
	}
	if spec.Servers*spec.Rails <= spec.Radix {
		if spec.Tiers == 1 {
			return fielderr.New("network.tiers", "set tiers = 0 or 2: a pair of leaves needs spines", "leaf pairs on one switch")
		}
		spec.Tiers = 2
	}
	spec.RailOptimized, spec.Rails, spec.Servers = true, 2, spec.Servers*half
	spec.Down, spec.Up = d, spec.UpFor(d)
	spec.pairs = LeafPairs{PeerPortsEach: n.PeerLinkPorts, serverPorts: d}
	return nil
}

// pairedPlane is pl with its servers a unit counted as servers, not as
// the two-port stand-ins sizing saw, and the partial unit's headroom
// said in servers; pl unchanged without pairs.
func (spec fabricSpec) pairedPlane(pl fabric.Plane, rails int) fabric.Plane {
	if spec.pairs.serverPorts == 0 {
		return pl
	}
	half := rails / 2
	pl.ServersPerGroup /= half
	pl.Layout.ServersPerUnit /= half
	for i, h := range pl.Headroom {
		if h.Tier == TierLeaf && strings.HasPrefix(h.Reason, partialUnitPrefix) {
			rem := spec.Servers % (spec.Down) / half
			pl.Headroom[i].Reason = fmt.Sprintf("the partial leaf pair has %d of %d servers: its leaves' empty server ports, for growth", rem, spec.Down/half)
		}
	}
	return pl
}

// addLeafPairs records the pairs' peer links, all planes, as switch
// ports in use, with a note saying what the pairs are.
func (p *Plan) addLeafPairs(spec fabricSpec) {
	lp := spec.pairs
	if lp.serverPorts == 0 {
		return
	}
	lp.Pairs = p.Switches(TierLeaf) / 2
	lp.PeerLinks = lp.Pairs * lp.PeerPortsEach
	p.LeafPairs = &lp
	p.PortsUsed += 2 * lp.PeerLinks
	p.Links.Peer = lp.PeerLinks
	peer := "no peer link (ESI-LAG)"
	if lp.PeerPortsEach > 0 {
		peer = fmt.Sprintf("%s between the two (%d ports a leaf), %s, in the cable map as tier %q", textfmt.Plural(lp.PeerLinks, "peer link"), lp.PeerPortsEach, "each pair's cabled as a server-leaf link of its run (measured between its leaves in the hall; the server-leaf links' longest without one)", CableTierPeer)
	}
	p.Notes = append(p.Notes, fmt.Sprintf("leaf pairs: %s pairs of top-of-rack leaves, each server's %d ports a plane split over its pair (%d to each leaf), %d server ports and %s a full leaf, every leaf reaching every spine; %s",
		textfmt.Int(lp.Pairs), p.RailsPerPlane, p.RailsPerPlane/2, lp.serverPorts, textfmt.Plural(spec.Up, "uplink"), peer))
}

// addLeafPairLines adds the peer links' cables and modules to the bill,
// each run of them (setPeerRuns) at its length with its leaf-end module
// at both ends, a leaf's peer ports in cages of their own.
func (p *Plan) addLeafPairLines(cat *Catalog, add func(BOMLine)) error {
	lp := p.LeafPairs
	if lp == nil || lp.PeerLinks == 0 || len(p.LinkTiers) == 0 {
		return nil
	}
	if err := p.setPeerRuns(cat); err != nil {
		return err
	}
	const tier = "server_leaf" // spares count them with the server links
	cages := ceilDiv(lp.PeerPortsEach, p.Switch.LinksPerCage(p.PortGbps))
	for _, r := range lp.runs {
		if err := p.addServerLeafCables(cat, add, r.cable, "peer links", "leaf_peer", r.pairs*lp.PeerPortsEach); err != nil {
			return err
		}
		if mod := cat.Transceivers[r.cable.Upper]; mod != nil {
			n := 2 * r.pairs * cages
			add(p.moduleLine(cat, mod, "switch side, leaf_peer", tier, n))
			p.SwitchTransceivers += n
		}
	}
	return nil
}

// setPeerRuns groups the pairs by how their peer links are cabled
// (lp.runs, lp.runOf). Without a hall every pair takes the server-leaf
// tier's longest run (serverLeafSide). In one, each pair's run is
// measured between its two leaves (their LeafPlace, as the fabric's
// links are measured) and cabled as a server-leaf link of that run is:
// the medium, length sold and leaf-end module the media chooser picks
// for it, the same module at the other leaf.
func (p *Plan) setPeerRuns(cat *Catalog) error {
	lp, h := p.LeafPairs, p.Hall
	lp.runs, lp.runOf = nil, nil
	if h == nil {
		lp.runs = []peerRun{{cable: p.serverLeafSide(cat), pairs: lp.Pairs}}
		return nil
	}
	m := newMediaChooser(p, cat)
	lp.perPlane = lp.Pairs / p.Planes
	lp.runOf = make([]int32, lp.Pairs)
	at := map[sideCable]int32{}
	for plane := 1; plane <= p.Planes; plane++ {
		for pair := range lp.perPlane {
			run := h.Run(h.LeafPlace(plane, 2*pair), h.LeafPlace(plane, 2*pair+1))
			ch, ok := m.choose(tierServerLeaf, run)
			if !ok {
				return fmt.Errorf("leaf pair %d of plane %d: no medium reaches its peer link's %.1f m run", pair+1, plane, run)
			}
			sc := sideCable{Medium: ch.medium, Cable: ch.cable.Key, Metres: ch.metres}
			if ch.upper != nil {
				sc.Upper = ch.upper.Key
			}
			i, seen := at[sc]
			if !seen {
				i = int32(len(lp.runs))
				at[sc] = i
				lp.runs = append(lp.runs, peerRun{cable: sc})
			}
			lp.runs[i].pairs++
			lp.runOf[(plane-1)*lp.perPlane+pair] = i
		}
	}
	return nil
}
