package planner

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
	"fabricplan/planner/hall"
)

// CableRun is one link of a plan's cable map: its two ends, its tier and
// what it is made of. A is the lower end (the server, or the lower
// switch), B the upper.
type CableRun struct {
	ADevice, APort string
	BDevice, BPort string
	Tier           string // "server_leaf", "leaf_spine" or "spine_core"; beside them CableTierStorage, CableTierPeer
	Gbps           int
	Medium         Medium
	Part           string // the cable's catalog key (the fibre for transceiver links)
	AModule        string // transceiver at the A end ("" without one)
	BModule        string
	// AModel and BModel are the switch models (catalog keys) at each
	// end; AModel is "" for a server.
	AModel, BModel string
	Metres         float64
	Plane          int // from 1
	Rail           int // from 1; 0 for links above a leaf that is not a rail's
	// With a facility layout: each end's rack, row (from 1) and lowest U,
	// and the run before rounding up to the length sold (Metres).
	ARack, BRack string
	ARow, BRow   int
	AU, BU       int
	RunM         float64
	// aID and bID number the ends' devices over the fabric, aPort and
	// bPort their ports from 0 as LinkEnd.Port (for counting transceiver
	// cages).
	aID, bID, aPort, bPort int
	// aRack and bRack index the ends' racks in Hall.Racks.
	aRack, bRack int32
	// aNIC names a server end's port by its adapter, U<NIC>/P<port>
	// (the topology file's channel adapters), where APort names it by
	// cage; "" where APort does.
	aNIC string
}

// WalkCables calls fn once for every link of the plan, in the order of
// WalkLinks: plane by plane; in each, pod by pod, each leaf's server links
// then its uplinks; then, core group by core group, each spine's
// uplinks. Like WalkLinks it never holds the links, so a million-GPU fabric
// streams in flat memory. fn must not keep c: it is reused. The walk
// stops at fn's first error.
//
// Names: nodes su3-node7 (scalable unit 3, its 7th server or tray);
// leaves p1-su3-leaf-r5 (plane 1, rail 5; p1-su3-leaf when a leaf holds
// whole servers; p1-su3-rack2-leaf-r5 where an SU's racks each have their
// own leaves, as an NVL72 SuperPOD's); spines p1-spine-12, or p1-pod2-spine-12 with three
// tiers; cores p1-core-40. Node ports are U<NIC>/P<port> (ibdiagnet's
// names for an adapter's ports), or P<cage>/<port> where a catalog
// system's cages carry several NICs' ports (a DGX H100's four twin-port
// OSFP cages); switch ports are P<cage>, or
// P<cage>/<lane> where one cage carries several links (twin-port cages,
// breakouts). A switch's links toward the tier below take its first
// ports, its uplinks start at the next whole cage.
func (p *Plan) WalkCables(fn func(c *CableRun) error) error {
	return p.walkCables(true, fn)
}

// walkCables is WalkCables; without names it leaves the device and
// port names empty (the BOM's tally needs none).
func (p *Plan) walkCables(names bool, fn func(c *CableRun) error) error {
	w := newCableWalk(p)
	w.names = names
	return p.WalkLinks(func(l *Link) error {
		if err := w.link(l); err != nil {
			return err
		}
		return fn(&w.c)
	})
}

// cableWalk turns the links of WalkLinks into the cable map's rows: it
// holds what naming and measuring need, and the reused row.
type cableWalk struct {
	p       *Plan
	lay     fabric.Layout
	perCage int
	perNIC  int
	// sysCage is the ports one of a catalog system's cages carries
	// when more than one (a DGX H100's twin-port OSFP cages: 2), and
	// server ports are then named by cage; 0 names them by NIC.
	sysCage int
	tiers   map[string]LinkTier
	c       CableRun
	tier    int // the tier whose fixed columns c holds (-1: none yet)
	names   bool
	survey  bool         // only note each link's run and cages (chooseCageMedia)
	rec     *linkRecords // with survey: what the BOM pass replays
	// visit, when set, takes each link's tier, run, cages and racks in
	// place of measuring it (the BOM pass walking again: rewalk).
	visit func(t int8, run float64, ca, cb, ra, rb int32) error
	// media picks each link's parts: the plan's chooser with a cache of
	// the walk's own, so walks of one plan may run at once.
	media *mediaChooser
	// First device numbers of the leaves, spines and cores (cage
	// counting).
	leafID, spineID, coreID int

	// cages are the links a cage carries at each end of each link tier
	// (Plan.endCages): a leaf's down ports are named by perCage
	// (cages[0][1]), its uplinks by cages[1][0], and so on up.
	cages [linkTierCount][2]int
	// The last leaf and spine named, by plane and index (pod and index
	// for a spine), and their names: a switch's links come together.
	leafAt, spineAt [3]int
	leafName        string
	spineName       string
}

func newCableWalk(p *Plan) *cableWalk { return newCableWalkOn(p, p.linkMedia()) }

// newCableWalkOn is newCableWalk giving the links media's parts (a copy
// with a cache of its own; nil: no parts).
func newCableWalkOn(p *Plan, media *mediaChooser) *cableWalk {
	w := &cableWalk{p: p, lay: p.layout, cages: p.endCages(), perNIC: max(1, p.Scenario.Network.PortsPerNIC),
		tiers: map[string]LinkTier{}, tier: -1, leafAt: [3]int{-1}, spineAt: [3]int{-1}}
	w.perCage = w.cages[tierServerLeaf][1]
	if n := p.systemCagePorts(); n > 1 {
		w.sysCage = n
	}
	for _, t := range p.LinkTiers {
		w.tiers[t.Name] = t
	}
	if media != nil {
		m := *media
		m.memo, m.lastKey, m.last = map[withKey]linkChoice{}, [3]withKey{}, [3]linkChoice{}
		w.media = &m
	}
	if h := p.Hall; h != nil {
		w.leafID = p.Servers
		w.spineID = w.leafID + h.LeavesPerPlane()*p.Planes
		w.coreID = w.spineID + h.SpinesPerPlane()*p.Planes
	}
	return w
}

// link fills the row of link l: its tier's fixed columns, its names
// (when named) and, in a laid-out hall, its places, run and parts.
func (w *cableWalk) link(l *Link) error {
	c := &w.c
	if l.Tier != w.tier || l.Plane != c.Plane {
		w.set(l.Tier, l.Plane)
	}
	c.Rail = l.Rail
	if w.names {
		w.name(l)
	}
	if h := w.p.Hall; h != nil {
		return w.place(l, h)
	}
	return nil
}

// name names link l's ends and ports.
func (w *cableWalk) name(l *Link) {
	c, lo, up := &w.c, &l.Lower, &l.Upper
	c.BPort = portName(up.Port, w.cages[l.Tier][1])
	if l.Tier == tierServerLeaf {
		c.ADevice, c.APort, c.BDevice = w.node(lo.Device), w.nodePort(lo.Port), w.leafNamed(l.Plane, up.Device)
		if w.sysCage > 1 {
			c.aNIC = w.nicPort(lo.Port)
		}
		return
	}
	c.APort = portName(lo.Port, w.cages[l.Tier][0])
	switch l.Tier {
	case tierLeafSpine:
		c.ADevice, c.BDevice = w.leafNamed(l.Plane, lo.Device), w.spine(l.Plane, l.Pod, up.Device)
	default:
		c.ADevice, c.BDevice = w.spineNamed(l.Plane, l.Pod, lo.Device), w.core(l.Plane, up.Device)
	}
}

// leafNamed is leaf's name, kept while the walk stays on that leaf.
func (w *cableWalk) leafNamed(plane, g int) string {
	if at := [3]int{plane, g}; at != w.leafAt {
		w.leafAt, w.leafName = at, w.leaf(plane, g)
	}
	return w.leafName
}

// spineNamed is spine's name, kept while the walk stays on that spine.
func (w *cableWalk) spineNamed(plane, pod, j int) string {
	if at := [3]int{plane, pod, j}; at != w.spineAt {
		w.spineAt, w.spineName = at, w.spine(plane, pod, j)
	}
	return w.spineName
}

// place numbers link l's ends' devices and ports over the fabric (cage
// counting), places them in hall h and measures the run.
func (w *cableWalk) place(l *Link, h *hall.Hall) error {
	c, plane, lo, up := &w.c, l.Plane, &l.Lower, &l.Upper
	c.aPort, c.bPort = lo.Port, up.Port
	switch l.Tier {
	case tierServerLeaf:
		c.aID, c.bID = lo.Device, w.leafID+(plane-1)*h.LeavesPerPlane()+up.Device
		return w.measure(tierServerLeaf, h.NodePlace(lo.Device), h.LeafBoxPlace(plane, up.Device, w.p.leafBoxOf(up.Port)))
	case tierLeafSpine:
		c.aID = w.leafID + (plane-1)*h.LeavesPerPlane() + lo.Device
		c.bID = w.spineID + (plane-1)*h.SpinesPerPlane() + h.PodSpine(l.Pod) + up.Device
		return w.measure(tierLeafSpine, h.LeafPlace(plane, lo.Device), h.SpinePlace(plane, l.Pod, up.Device))
	}
	c.aID = w.spineID + (plane-1)*h.SpinesPerPlane() + h.PodSpine(l.Pod) + lo.Device
	c.bID = w.coreID + (plane-1)*h.CoresPerPlane() + up.Device
	return w.measure(tierSpineCore, h.SpinePlace(plane, l.Pod, lo.Device), h.CorePlace(plane, up.Device))
}

// portName names port i (from 0) of a switch whose cages carry perCage
// links each.
func portName(i, perCage int) string {
	if perCage == 1 {
		return "P" + strconv.Itoa(i+1)
	}
	return "P" + strconv.Itoa(i/perCage+1) + "/" + strconv.Itoa(i%perCage+1)
}

// nodePort names server port x (Link's numbering: rail*planes +
// plane-1): ports alternate over the planes, so a multi-port NIC puts
// one port in each plane. A system whose cages carry several ports
// names the cage and its port (P2/1: cage 2, port 1), as the cage
// sets count them (port x in cage x/ports), so each module has one
// cage in the map.
func (w *cableWalk) nodePort(x int) string {
	if w.sysCage > 1 {
		return portName(x, w.sysCage)
	}
	return w.nicPort(x)
}

// nicPort names server port x by its adapter: U<NIC>/P<port>.
func (w *cableWalk) nicPort(x int) string {
	return "U" + strconv.Itoa(x/w.perNIC+1) + "/P" + strconv.Itoa(x%w.perNIC+1)
}

// node names a server or tray by its scalable unit: the reference unit
// where the system has one (an NVL72 SU is 8 racks, 144 trays, although
// each rack's trays have their own leaves), else the leaf group's.
func (w *cableWalk) node(server int) string {
	spu := w.lay.ServersPerUnit
	if u := w.p.Unit.Servers; u > 0 {
		spu = u
	}
	return "su" + strconv.Itoa(server/spu+1) + "-node" + strconv.Itoa(server%spu+1)
}

// leaf names leaf g of plane by its scalable unit and rail. Where the
// reference unit holds several leaf groups (an NVL72 SU: 8 racks, each
// with its own leaf per rail), the group is named in its unit:
// p1-su2-rack3-leaf-r4.
func (w *cableWalk) leaf(plane, g int) string {
	lpu, spu := w.lay.LeavesPerUnit, w.lay.ServersPerUnit
	if u := w.p.Unit.Servers; spu > 0 && u > spu && u%spu == 0 {
		per, group := u/spu, g/lpu
		word := "-group"
		if sys := w.p.System; sys != nil && w.p.Unit.LeafAlignment == AlignRack && sys.RackNodes == spu {
			word = "-rack"
		}
		name := "p" + strconv.Itoa(plane) + "-su" + strconv.Itoa(group/per+1) + word + strconv.Itoa(group%per+1) + "-leaf"
		if lpu > 1 {
			name += "-r" + strconv.Itoa(g%lpu+1)
		}
		return name
	}
	name := "p" + strconv.Itoa(plane) + "-su" + strconv.Itoa(g/lpu+1) + "-leaf"
	if lpu > 1 {
		name += "-r" + strconv.Itoa(g%lpu+1)
	}
	return name
}

func (w *cableWalk) spine(plane, pod, j int) string {
	if w.p.Tiers == 3 {
		return "p" + strconv.Itoa(plane) + "-pod" + strconv.Itoa(pod+1) + "-spine-" + strconv.Itoa(j+1)
	}
	return "p" + strconv.Itoa(plane) + "-spine-" + strconv.Itoa(j+1)
}

func (w *cableWalk) core(plane, i int) string {
	return "p" + strconv.Itoa(plane) + "-core-" + strconv.Itoa(i+1)
}

// set fills tier t's fixed columns of the row.
func (w *cableWalk) set(t, plane int) {
	tier := linkTierNames[t]
	lt := w.tiers[tier]
	w.tier = t
	w.c.Tier, w.c.Gbps, w.c.Medium, w.c.Part, w.c.Metres, w.c.Plane = tier, w.p.TierGbps(tier), lt.Medium, lt.Cable, lt.Metres, plane
	w.c.AModule, w.c.BModule = lt.LowerModule, lt.UpperModule
	lower, upper := w.p.linkEnds(tier)
	w.c.AModel, w.c.BModel = "", upper.Key
	if lower != nil {
		w.c.AModel = lower.Key
	}
}

// CableCSVHeader heads the cable map's CSV columns.
var CableCSVHeader = []string{"a_device", "a_port", "b_device", "b_port", "tier", "gbps", "medium", "part", "a_module", "b_module",
	"length_m", "plane", "rail", "a_rack", "a_row", "a_u", "b_rack", "b_row", "b_u", "run_m", "a_model", "b_model"}

// WriteCablesCSV streams the cable map as CSV, one row per link
// (WalkCableMap: the fabric's, then the storage and peer links).
func WriteCablesCSV(w io.Writer, p *Plan) error {
	rec := make([]string, len(CableCSVHeader))
	return StreamCSV(w, CableCSVHeader, func(write func([]string) error) error {
		return p.WalkCableMap(func(c *CableRun) error {
			rec[0], rec[1], rec[2], rec[3], rec[4] = c.ADevice, c.APort, c.BDevice, c.BPort, c.Tier
			rec[5], rec[6], rec[7], rec[8], rec[9] = strconv.Itoa(c.Gbps), string(c.Medium), c.Part, c.AModule, c.BModule
			rec[10], rec[11], rec[12] = strconv.FormatFloat(c.Metres, 'f', -1, 64), strconv.Itoa(c.Plane), strconv.Itoa(c.Rail)
			rec[13], rec[14], rec[15], rec[16], rec[17], rec[18], rec[19] = "", "", "", "", "", "", ""
			if c.ARack != "" {
				rec[13], rec[14], rec[15] = c.ARack, strconv.Itoa(c.ARow), strconv.Itoa(c.AU)
				rec[16], rec[17], rec[18] = c.BRack, strconv.Itoa(c.BRow), strconv.Itoa(c.BU)
				rec[19] = strconv.FormatFloat(c.RunM, 'f', 2, 64)
			}
			rec[20], rec[21] = c.AModel, c.BModel
			return write(rec)
		})
	})
}

// StreamCSV writes header, then every record each hands to write,
// through one buffer: rows stream out as they are made, whatever their
// count. The cable map and the phases' moves write through it.
func StreamCSV(w io.Writer, header []string, each func(write func([]string) error) error) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := each(cw.Write); err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// cableJSON is one link as the JSON cable map writes it.
type cableJSON struct {
	A      endJSON `json:"a"`
	B      endJSON `json:"b"`
	Tier   string  `json:"tier"`
	Gbps   int     `json:"gbps"`
	Medium Medium  `json:"medium"`
	Part   string  `json:"part"`
	Metres float64 `json:"length_m"`
	Plane  int     `json:"plane"`
	Rail   int     `json:"rail,omitempty"`
	RunM   float64 `json:"run_m,omitempty"`
}

type endJSON struct {
	Device string `json:"device"`
	Port   string `json:"port"`
	Module string `json:"module,omitempty"`
	// Model is the switch model's catalog key ("" for a server).
	Model string `json:"model,omitempty"`
	// Rack, Row and U place the end in a laid-out hall.
	Rack string `json:"rack,omitempty"`
	Row  int    `json:"row,omitempty"`
	U    int    `json:"u,omitempty"`
}

// WriteCablesJSON streams the cable map as a JSON array, one link an
// element (a line each; WalkCableMap's), without holding the links.
func WriteCablesJSON(w io.Writer, p *Plan) error {
	return StreamJSON(w, func(write func(v any) error) error {
		return p.WalkCableMap(func(c *CableRun) error {
			return write(cableJSON{A: endJSON{c.ADevice, c.APort, c.AModule, c.AModel, c.ARack, c.ARow, c.AU},
				B:    endJSON{c.BDevice, c.BPort, c.BModule, c.BModel, c.BRack, c.BRow, c.BU},
				Tier: c.Tier, Gbps: c.Gbps, Medium: c.Medium, Part: c.Part, Metres: c.Metres, Plane: c.Plane, Rail: c.Rail, RunM: math.Round(c.RunM*100) / 100})
		})
	})
}

// StreamJSON writes a JSON array of the values each hands to write, one
// a line, through one buffer: elements stream out as they are made,
// whatever their count. The cable map and the phases' moves write
// through it.
func StreamJSON(w io.Writer, each func(write func(v any) error) error) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	sep := "\n"
	err := each(func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		bw.WriteString(sep)
		sep = ",\n"
		_, err = bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// WriteTopoFile streams the expected topology in the IBDM topology file
// format that ibdiagnet compares with the fabric it discovers
// (ibdiagnet --topo_file; man ibdm-topo-file): a section per switch,
// its type and name on the first line, then one line a port,
// "LOCAL-PORT -> REMOTE-TYPE REMOTE-NAME REMOTE-PORT", and a blank line.
// Each link is declared once, in the section of its lower switch (a
// leaf lists its nodes and spines, a spine its cores), as the format's
// own example lists adapters only from the switch. Types are the
// switch model and the server (IBNLSwitchType, IBNLNodeType), each
// defined by the IBNL files IBNLFiles writes.
func WriteTopoFile(w io.Writer, p *Plan) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "# Expected topology of %s: %s, %s, %s.\n# Written by Fabric Planner; IBDM topology file format (ibdiagnet --topo_file).\n",
		textfmt.Int(p.GPUs)+" GPUs", textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.Planes, "plane"), topoLinks(p))
	nic := IBNLNodeType(p)
	section := ""
	err := p.WalkCables(func(c *CableRun) error {
		ltype, local, lport, rtype, remote, rport := ibnlName(c.AModel), c.ADevice, c.APort, ibnlName(c.BModel), c.BDevice, c.BPort
		if c.Tier == "server_leaf" {
			ltype, local, lport, rtype, remote, rport = ibnlName(c.BModel), c.BDevice, c.BPort, nic, c.ADevice, c.APort
			if c.aNIC != "" { // the adapter's port, as the node's IBNL names it
				rport = c.aNIC
			}
		}
		if local != section {
			section = local
			bw.WriteString("\n" + ltype + " " + local + "\n")
		}
		_, err := bw.WriteString("   " + lport + " -> " + rtype + " " + remote + " " + rport + "\n")
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}
