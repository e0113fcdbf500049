package planner

import (
	"cmp"
	"errors"
	"fmt"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
	"fabricplan/planner/hall"
)

// Storage on the compute leaves (issue 46): a converged back end cables
// its storage nodes to the compute fabric's leaves instead of a storage
// network of their own. Each storage port takes a leaf port at the
// server port speed, and a leaf that keeps k of them sizes its uplinks
// for its servers and those k ports at the leaf ratio, so the storage
// traffic has its share of the way up. The ports spread over the planes
// as a server's do. Where the partial unit's leaves have the idle server
// ports to hold them all, they go there, evenly over its leaves, which
// take the uplinks they need: the units keep their size (a design
// engineer cables storage to the ports a partial unit leaves empty
// before cutting a unit). Otherwise they spread evenly over the leaves
// of the plane's full units (some take one fewer where they do not
// divide), first on the ports a full leaf has spare beside its servers
// and uplinks; where keeping k ports leaves a filled leaf fewer server
// ports, the units shrink to match, as many times as it takes: the
// fewest ports a leaf, the most servers.

// LeafStorage is the storage nodes on the compute leaves, as sized.
type LeafStorage struct {
	Nodes     int `json:"nodes"`
	PortsEach int `json:"ports_each"` // back-end ports of one node, all planes
	// Links is the storage links, all planes: one leaf port and one
	// cable each, at the server port speed.
	Links int `json:"links"`
	// Leaves is the leaves that take them, all planes: the full units',
	// or the partial unit's (PartialUnit).
	Leaves int `json:"leaves"`
	// PartialUnit says the ports are on the partial unit's idle server
	// ports, the units at their size.
	PartialUnit bool `json:"partial_unit,omitempty"`
	// OwnLeaves says the ports are on leaves of their own after the
	// units (a leaf group serving no nodes), the units at their size.
	OwnLeaves bool `json:"own_leaves,omitempty"`
	// PortsPerLeaf is the ports each of those leaves keeps for storage
	// (some take one fewer where they do not divide).
	PortsPerLeaf int `json:"ports_per_leaf"`
	// perPlane and leavesPerPlane are one plane's ports and leaves;
	// serverPorts is the server ports (and reserved slots') of a leaf
	// beside them; firstLeaf is the plane's first leaf that takes them.
	perPlane, leavesPerPlane, serverPorts, firstLeaf int
	// cable is how the links are cabled, as the BOM prices them.
	cable sideCable
}

// MaxStoragePortsEach bounds network.storage_node_ports: more back-end
// ports than any storage node has (a generous bound, as the NIC ports).
const MaxStoragePortsEach = maxNICsPerServer

// validateLeafStorage checks network.storage_nodes and
// storage_node_ports: in range, the ports splitting evenly over the
// planes, and a style whose leaves a storage node can join (a rail-only
// fabric is one network a rail, which no storage node spans).
func (n Network) validateLeafStorage() []error {
	var errs []error
	add := func(e *fielderr.FieldError) { errs = append(errs, e) }
	if n.StorageNodes < 0 || n.StorageNodes > MaxGPUs {
		add(fielderr.New("network.storage_nodes", "give the storage nodes cabled to the compute leaves, e.g. 16, or leave it out", "%d storage nodes", n.StorageNodes))
	}
	ports := n.StorageNodePorts
	switch {
	case ports < 0 || ports > MaxStoragePortsEach:
		add(fielderr.New("network.storage_node_ports", fmt.Sprintf("give 1 to %d back-end ports a storage node, or leave it out (one a plane)", MaxStoragePortsEach), "%d ports", ports))
	case n.StorageNodes > 0 && ports > 0 && n.Planes > 0 && ports%n.Planes != 0:
		add(fielderr.New("network.storage_node_ports", fmt.Sprintf("give a multiple of the %d planes", n.Planes), "%d ports a storage node do not split over %d planes", ports, n.Planes))
	}
	if n.StorageNodes > 0 && n.Style() == TopoRailOnly {
		add(fielderr.New("network.storage_nodes", "use a rail-optimized, dual-plane or top-of-rack design, or a storage network beside the back end ([networks] storage)",
			"a rail-only fabric is one network a rail: a storage node on its leaves would reach one rail"))
	}
	return errs
}

// storagePlace is where setLeafStorage keeps the storage ports.
type storagePlace int

// Storage placements: placeFirst is the rule that sizes a plan first
// (the partial unit's idle ports where they fit, else the full units'
// leaves); sizeWith prices the others (storagePlaces) beside it and
// keeps the cheapest.
const (
	placeFirst   storagePlace = iota
	placePartial              // the partial unit's idle server ports (storageOnPartial)
	placeOwn                  // a leaf group of their own after the units (storageOnOwnLeaves)
	placeFull                 // the full units' leaves, the units shrinking as it takes (storageOnLeaves)
)

// storagePlaces is the placements sizeWith prices beside placeFirst.
var storagePlaces = [...]storagePlace{placePartial, placeOwn, placeFull}

// errNoPlace says a storage placement does not apply to a design (no
// partial unit, no room on it, a leaf too small): sizeWith passes over
// it.
var errNoPlace = errors.New("the storage placement does not apply")

// setLeafStorage keeps storage ports where place says: on the one
// switch that holds a plane (storageOnOneSwitch) whatever it says, else
// on the partial unit's idle ports, on leaves of their own, or on the
// full units' leaves, fewest a leaf first (storageOnLeaves); placeFirst
// tries the partial unit, then the full units' leaves. A placement that
// does not apply is errNoPlace. fixed says the leaf's servers are set by
// the system's whole racks; servers_per_leaf and servers_per_tor set
// them too.
func (spec *fabricSpec) setLeafStorage(n Network, fixed bool, place storagePlace) error {
	if n.StorageNodes == 0 {
		return nil
	}
	ports := cmp.Or(n.StorageNodePorts, n.Planes)
	ls := LeafStorage{Nodes: n.StorageNodes, PortsEach: ports, perPlane: n.StorageNodes * ports / n.Planes}
	if done, err := spec.storageOnOneSwitch(ls); done || err != nil {
		return err
	}
	perServer, lpg := 1, spec.Rails
	if !spec.RailOptimized {
		perServer, lpg = spec.Rails, 1
	}
	fixed = fixed || n.ServersPerLeaf > 0 || n.ServersPerToR > 0
	switch place {
	case placePartial:
		if !spec.storageOnPartial(ls, perServer, lpg) {
			return errNoPlace
		}
		return nil
	case placeOwn:
		if !n.RailOptimized || n.LeafPairs || !spec.storageOnOwnLeaves(ls, perServer, lpg) {
			return errNoPlace // top-of-rack leaves stand in their servers' racks: none for these
		}
		return nil
	case placeFull:
		return spec.storageOnLeaves(ls, n.Oversubscription, perServer, lpg, fixed)
	}
	if spec.storageOnPartial(ls, perServer, lpg) {
		return nil
	}
	return spec.storageOnLeaves(ls, n.Oversubscription, perServer, lpg, fixed)
}

// storageOnOneSwitch keeps a plane's storage ports on the one switch
// that holds its servers (done), or, when they do not fit beside them,
// asks for leaves and spines (tiers = 1 asked is an error naming the
// field). A plane past one switch is left to storageOnLeaves.
func (spec *fabricSpec) storageOnOneSwitch(ls LeafStorage) (done bool, err error) {
	endpoints := spec.Servers * spec.Rails
	if endpoints > spec.Radix || spec.Tiers > 1 {
		return false, nil
	}
	if endpoints+ls.perPlane <= spec.Radix {
		ls.PortsPerLeaf, ls.leavesPerPlane, ls.serverPorts = ls.perPlane, 1, endpoints
		spec.storage = ls
		return true, nil
	}
	if spec.Tiers == 1 {
		return false, fielderr.New("network.storage_nodes", fmt.Sprintf("give at most %d storage ports a plane, or tiers = 0 for leaves and spines", spec.Radix-endpoints),
			"%d storage ports beside %d server ports on one %d-port switch", ls.perPlane, endpoints, spec.Radix)
	}
	spec.Tiers = 2 // the storage ports do not fit beside the servers on one switch
	return false, nil
}

// storageOnLeaves finds the fewest storage ports k a full leaf keeps: with
// k, a leaf takes d server ports (storageLeafPorts) with d + k down and
// UpFor(d + k) up; k grows until the full units' leaves hold the plane's
// storage ports. No leaf size that holds them is an error naming the
// field, as is a fixed leaf size the plane fills no unit of.
func (spec *fabricSpec) storageOnLeaves(ls LeafStorage, ratio string, perServer, lpg int, fixed bool) error {
	for k := 1; ; k++ {
		d := spec.storageLeafPorts(k, perServer, fixed)
		if d < perServer || !fabric.Fits(spec.Radix, spec.LeafW, d+k, spec.UpFor(d+k)) {
			return fielderr.New("network.storage_nodes", "give fewer storage nodes or ports, a larger switch, a lower ratio or fewer servers a leaf",
				"%s storage ports a plane do not fit on the compute leaves beside their servers (%d a leaf: past a %d-port leaf at %s)",
				textfmt.Int(ls.perPlane), k, spec.Radix, ratio)
		}
		leaves := spec.Servers / (d / perServer) * lpg
		if fixed && leaves == 0 {
			return fielderr.New("network.storage_nodes", "leave the leaf's size out, or add servers to fill a unit",
				"storage nodes go on the full units' leaves: the plane's %d servers fill no unit of %d", spec.Servers, d/perServer)
		}
		if leaves*k >= ls.perPlane {
			spec.Down, spec.Up = d, spec.UpFor(d+k)
			ls.PortsPerLeaf, ls.leavesPerPlane, ls.serverPorts = k, leaves, d
			spec.storage = ls
			return nil
		}
	}
}

// storageOnPartial keeps the plane's storage ports on the partial unit's
// idle server ports when they all fit there, up to ceil(ports / leaves)
// on each of its leaves beside its nodes and reserved slots, and says
// so; its leaves take the uplinks for them (fabric.Spec.PartialPorts).
// false, changing nothing, without a partial unit or room on it.
func (spec *fabricSpec) storageOnPartial(ls LeafStorage, perServer, lpg int) bool {
	spg := spec.Down / perServer
	if spg == 0 || spec.Servers%spg == 0 {
		return false
	}
	each := ceilDiv(ls.perPlane, lpg)
	used := min(spec.Servers%spg+spec.ReservedSlots, spg) * perServer
	if used+each > spec.Down {
		return false
	}
	spec.PartialPorts = each
	ls.PortsPerLeaf, ls.leavesPerPlane, ls.serverPorts, ls.firstLeaf = each, lpg, used, spec.Servers/spg*lpg
	ls.PartialUnit = true
	spec.storage = ls
	return true
}

// storageOnOwnLeaves keeps the plane's storage ports on leaves of their
// own after the units: one unit's leaves (fewer where the ports are
// fewer), up to ceil(ports / leaves) each, which take the uplinks for
// them at the ratio (fabric.Spec.StorageLeaves). The units keep their
// size, so a plane of full units cables its storage as one a server
// larger cables it on its partial unit (issue 45: 6,144 GPUs and 16
// storage nodes on QM9700 took 497 switches, units shrunk to 31 nodes,
// where 6,152 took 490). false, changing nothing, where they do not fit
// a leaf or a pod is one rail of whole racks (rail pods), which leaves
// serving no racks do not join.
func (spec *fabricSpec) storageOnOwnLeaves(ls LeafStorage, perServer, lpg int) bool {
	spg := spec.Down / perServer
	leaves := min(lpg, ls.perPlane)
	each := ceilDiv(ls.perPlane, max(leaves, 1))
	if spg == 0 || leaves == 0 || spec.RailPods || !fabric.Fits(spec.Radix, spec.LeafW, each, spec.UpFor(each)) {
		return false
	}
	spec.StorageLeaves, spec.StoragePorts = leaves, each
	ls.PortsPerLeaf, ls.leavesPerPlane, ls.firstLeaf = each, leaves, ceilDiv(spec.Servers, spg)*lpg
	ls.OwnLeaves = true
	spec.storage = ls
	return true
}

// cheapestStorage is first, sized with placeFirst, or, where another
// placement of the storage ports (storagePlaces) applies and its plan
// costs less, that plan: the planner keeps the cheapest valid placement
// at any size, so one more server never finds a cheaper one than the
// size before (issue 45). A placement that does not apply or fit is
// passed over; a tie keeps first.
func cheapestStorage(first *Plan, s Scenario, cat *Catalog, nic *NIC, sw *Switch) (*Plan, error) {
	if first.LeafStorage == nil || first.Tiers == 1 {
		return first, nil // one switch holds the plane: one placement
	}
	best := first
	for _, place := range storagePlaces {
		if place == first.LeafStorage.place() || place == placeOwn && first.Hall != nil && first.Hall.Facility.LeafPlacement == hall.PlaceToR {
			continue // a leaf in its servers' racks: leaves serving none have no rack there
		}
		z, err := sizePlaneAt(s, cat, nic, sw, place)
		if err != nil {
			continue // errNoPlace, or past the switch: first stands
		}
		p, err := z.plan(s, cat, nic, sw)
		if err != nil || p.Cost.Total >= best.Cost.Total {
			continue
		}
		best = p
	}
	return best, nil
}

// place is the placement that put ls's ports where they are.
func (ls *LeafStorage) place() storagePlace {
	switch {
	case ls.PartialUnit:
		return placePartial
	case ls.OwnLeaves:
		return placeOwn
	}
	return placeFull
}

// storagePlaceKey is where p's storage ports went, for the keys of what
// is kept of its sizing (hallKeyOf): 0 without storage on the leaves.
func (p *Plan) storagePlaceKey() int {
	if p.LeafStorage == nil {
		return 0
	}
	return int(p.LeafStorage.place())
}

// storageUnits is the leaf groups the hall lays out past the units for
// storage leaves of their own (one, their leaf racks'), else none.
func (p *Plan) storageUnits() int {
	if p.LeafStorage != nil && p.LeafStorage.OwnLeaves {
		return 1
	}
	return 0
}

// storageLeafPorts is the server ports a leaf keeping k storage ports
// takes, whole servers of perServer ports: the fixed leaf's, or the most
// that fit beside them at the ratio, no more than the plane's servers (a
// plane smaller than a unit is one unit of its servers); below perServer
// when none fit.
func (spec *fabricSpec) storageLeafPorts(k, perServer int, fixed bool) int {
	d := spec.Down / perServer * perServer
	if fixed {
		return d
	}
	d = min(d, spec.Servers*perServer)
	for d >= perServer && !fabric.Fits(spec.Radix, spec.LeafW, d+k, spec.UpFor(d+k)) {
		d -= perServer
	}
	return d
}

// addLeafStorage records the storage links the leaves keep, all planes,
// as switch ports in use, with a note saying where they went.
func (p *Plan) addLeafStorage(spec fabricSpec) {
	ls := spec.storage
	if ls.perPlane == 0 {
		return
	}
	ls.Links, ls.Leaves = ls.perPlane*p.Planes, ls.leavesPerPlane*p.Planes
	p.LeafStorage = &ls
	p.PortsUsed += ls.Links
	p.Links.Storage = ls.Links
	where := fmt.Sprintf("the full units' %s leaves, up to %s each, which size their uplinks for them: %d server ports and %s a full leaf",
		textfmt.Int(ls.Leaves), textfmt.Plural(ls.PortsPerLeaf, "port"), spec.Down, textfmt.Plural(spec.Up, "uplink"))
	if ls.OwnLeaves {
		leaves := textfmt.Int(ls.Leaves) + " leaves"
		if ls.Leaves == 1 {
			leaves = "1 leaf"
		}
		where = fmt.Sprintf("%s of their own after the units, up to %s each, with the uplinks for them: the units keep their %s (the cheapest placement that fits)",
			leaves, textfmt.Plural(ls.PortsPerLeaf, "port"), textfmt.Plural(spec.Down, "server port")+" a full leaf")
	}
	if ls.PartialUnit {
		where = fmt.Sprintf("the partial scalable unit's %s leaves, up to %s each on server ports its servers leave empty, which take the uplinks for them: the units keep their %s",
			textfmt.Int(ls.Leaves), textfmt.Plural(ls.PortsPerLeaf, "port"), textfmt.Plural(spec.Down, "server port")+" a full leaf")
	}
	if p.Tiers == 1 {
		where = "the one switch of each plane, beside the servers"
	}
	p.Notes = append(p.Notes, fmt.Sprintf("storage on the compute leaves: %s storage nodes of %s, %s links at %dG on %s; cabled and priced as the server-leaf links (their node-end modules counted with the servers'); a storage network beside the back end (plan --networks) is still sized unless networks.storage = %q",
		textfmt.Int(ls.Nodes), textfmt.Plural(ls.PortsEach, "port"), textfmt.Int(ls.Links), p.PortGbps, where, NetNone))
}

// sideCable is how the links beside the servers' on the server-leaf
// tier (storage and peer links) are cabled: the tier's longest run (its
// medium, cable and length sold; the tier's one medium without a hall
// layout) with the tier's transceivers for that run's fibre at each end
// ("" for copper and AOC). The BOM prices them so and the cable map
// lists them so (WalkCableMap).
type sideCable struct {
	Medium       Medium
	Cable        string
	Metres       float64
	Lower, Upper string
}

// serverLeafSide is the server-leaf tier's sideCable. A laid-out tier
// mixing media takes its longest run, not its commonest medium at the
// longest length (an ACC priced with transceivers, as the bill had it).
func (p *Plan) serverLeafSide(cat *Catalog) sideCable {
	t := p.LinkTiers[0]
	sc := sideCable{Medium: t.Medium, Cable: t.Cable, Metres: t.Metres, Lower: t.LowerModule, Upper: t.UpperModule}
	if len(t.Runs) == 0 {
		return sc
	}
	longest := t.Runs[0]
	for _, r := range t.Runs[1:] {
		if r.Metres > longest.Metres {
			longest = r
		}
	}
	sc.Medium, sc.Cable, sc.Metres = longest.Medium, longest.Part, longest.Metres
	if sc.Medium != Optics && sc.Medium != Multimode {
		sc.Lower, sc.Upper = "", ""
		return sc
	}
	fibre := ""
	if sc.Medium == Multimode {
		fibre = mmFiberKey
	}
	sc.Lower, sc.Upper = moduleFor(cat, t.LowerParts, fibre, t.LowerModule), moduleFor(cat, t.UpperParts, fibre, t.UpperModule)
	return sc
}

// moduleFor is the commonest of parts (transceivers by key, with their
// counts) that takes fibre ("" single-mode, fiber-mm multimode); or, when
// none does, or.
func moduleFor(cat *Catalog, parts map[string]int, fibre, or string) string {
	best, n := or, 0
	for _, k := range SortedKeys(parts) {
		if m := cat.Transceivers[k]; m != nil && m.Fibre == fibre && parts[k] > n {
			best, n = k, parts[k]
		}
	}
	return best
}

// addServerLeafCables adds qty links cabled as sc at its length, where
// names them in the bill (what, in an error): the peer and storage links
// beside the servers' are cabled as the server-leaf tier's longest run
// (serverLeafSide). Spares count them with the server links.
func (p *Plan) addServerLeafCables(cat *Catalog, add func(BOMLine), sc sideCable, what, where string, qty int) error {
	cb := cat.Cables[sc.Cable]
	if cb == nil {
		return fmt.Errorf("%s: the server-leaf tier has no cable to copy (%q)", what, sc.Cable)
	}
	l := BOMLine{Category: CatCable, Key: cb.Key, Name: cb.Name, Where: where + " " + string(appendMetres(nil, sc.Metres)) + " m", Qty: qty, tier: "server_leaf",
		UnitWatts: cb.Watts, Source: cb.Source.Price, Estimate: cb.Source.Estimate}
	l.setPrice(p.Scenario.cablePrice(cat, cb, sc.Metres), p.Scenario.Quotes)
	add(l)
	return nil
}

// addLeafStorageLines adds the storage links' cables and modules to the
// bill: the server-leaf tier's longest run (serverLeafSide), its
// node-end module one a link (a storage port a module) and its leaf-end
// module for the cages the storage ports add beside a leaf's server
// ports (a twin-port cage half used by the servers takes one storage
// port for free). Spares count them with the server links.
func (p *Plan) addLeafStorageLines(cat *Catalog, add func(BOMLine)) error {
	ls := p.LeafStorage
	if ls == nil || len(p.LinkTiers) == 0 {
		return nil
	}
	ls.cable = p.serverLeafSide(cat)
	t := ls.cable
	if err := p.addServerLeafCables(cat, add, t, "storage links", "storage_leaf", ls.Links); err != nil {
		return err
	}
	const tier = "server_leaf" // spares count them with the server links
	if mod := cat.Transceivers[t.Lower]; mod != nil {
		add(p.moduleLine(cat, mod, "storage nodes", tier, ls.Links))
		p.ServerTransceivers += ls.Links
	}
	if mod := cat.Transceivers[t.Upper]; mod != nil {
		n := p.Planes * leafStorageModules(ls.perPlane, ls.leavesPerPlane, ls.serverPorts, p.Switch.LinksPerCage(p.PortGbps))
		add(p.moduleLine(cat, mod, "switch side, storage_leaf", tier, n))
		p.SwitchTransceivers += n
	}
	return nil
}

// leafStorageModules is the leaf-end modules one plane's storage ports
// add, spread evenly over leaves leaves of serverPorts server ports
// each, perCage links a module: the cages a leaf's server and storage
// ports fill less those its server ports fill, for the leaves that take
// one storage port more and for the rest.
func leafStorageModules(ports, leaves, serverPorts, perCage int) int {
	if leaves == 0 {
		return 0
	}
	more, each := ports%leaves, ports/leaves
	added := func(k int) int { return ceilDiv(serverPorts+k, perCage) - ceilDiv(serverPorts, perCage) }
	return more*added(each+1) + (leaves-more)*added(each)
}
