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
)

// CableRun is one link of a plan's cable map: its two ends, its tier and
// what it is made of. A is the lower end (the server, or the lower
// switch), B the upper.
type CableRun struct {
	ADevice, APort string
	BDevice, BPort string
	Tier           string // "server_leaf", "leaf_spine" or "spine_core"
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
	// bPort their ports from 0 (for counting transceiver cages).
	aID, bID, aPort, bPort int
	// aUp is a leaf's first uplink port (leaf-spine links).
	aUp int
	// aRack and bRack index the ends' racks in Hall.Racks.
	aRack, bRack int32
}

// WalkCables calls fn once for every link of the plan, in a fixed order:
// plane by plane; in each, pod by pod, each leaf's server links then its
// uplinks; then, core group by core group, each spine's uplinks. It
// keeps only a counter per switch of a group, never the links, so a
// million-GPU fabric streams in flat memory. fn must not keep c: it is
// reused. The walk stops at fn's first error.
//
// Names: nodes su3-node7 (scalable unit 3, its 7th server or tray);
// leaves p1-su3-leaf-r5 (plane 1, rail 5; p1-su3-leaf when a leaf holds
// whole servers; p1-su3-rack2-leaf-r5 where an SU's racks each have their
// own leaves, as an NVL72 SuperPOD's); spines p1-spine-12, or p1-pod2-spine-12 with three
// tiers; cores p1-core-40. Node ports are U<NIC>/P<port> (ibdiagnet's
// names for an adapter's ports); switch ports are P<cage>, or
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
	for plane := 1; plane <= p.Planes; plane++ {
		if err := w.plane(plane, fn); err != nil {
			return err
		}
	}
	return nil
}

// cableWalk holds what naming and wiring need, and the reused row.
type cableWalk struct {
	p        *Plan
	lay      fabric.Layout
	perCage  int
	perNIC   int
	tiers    map[string]LinkTier
	c        CableRun
	arrivals []int // links so far per upper switch of the group being wired
	names    bool
	survey   bool         // only note each link's run and cages (chooseCageMedia)
	rec      *linkRecords // with survey: what the BOM pass replays
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
}

func newCableWalk(p *Plan) *cableWalk {
	w := &cableWalk{p: p, lay: p.layout, cages: p.endCages(), perNIC: max(1, p.Scenario.Network.PortsPerNIC),
		tiers: map[string]LinkTier{}}
	w.perCage = w.cages[tierServerLeaf][1]
	for _, t := range p.LinkTiers {
		w.tiers[t.Name] = t
	}
	if p.media != nil {
		m := *p.media
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

// switchPort names a switch's port by its index from 0.
func (w *cableWalk) switchPort(i int) string { return portName(i, w.perCage) }

// portName names port i (from 0) of a switch whose cages carry perCage
// links each.
func portName(i, perCage int) string {
	if perCage == 1 {
		return "P" + strconv.Itoa(i+1)
	}
	return "P" + strconv.Itoa(i/perCage+1) + "/" + strconv.Itoa(i%perCage+1)
}

// upName names uplink k (from 0) of a switch with down links below,
// whose link tier's lower ends carry upCage links a cage and whose down
// ports downCage: the uplinks start at the next whole cage (upPort).
func upName(down, k, downCage, upCage int) string {
	return portName(upPort(down, k, downCage, upCage), upCage)
}

// nodePort names the server port carrying rail (from 0) of plane (from
// 1): ports alternate over the planes, so a multi-port NIC puts one port
// in each plane.
func (w *cableWalk) nodePort(plane, rail int) string {
	x := rail*w.p.Planes + plane - 1
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

// rail is the rail (from 1) of leaf g's links, 0 when the leaf holds
// whole servers.
func (w *cableWalk) rail(g int) int {
	if w.lay.LeavesPerUnit > 1 {
		return g%w.lay.LeavesPerUnit + 1
	}
	return 0
}

// set fills the tier's fixed columns of the row.
func (w *cableWalk) set(tier string, plane int) {
	t := w.tiers[tier]
	w.c.Tier, w.c.Gbps, w.c.Medium, w.c.Part, w.c.Metres, w.c.Plane = tier, w.p.TierGbps(tier), t.Medium, t.Cable, t.Metres, plane
	w.c.AModule, w.c.BModule = t.LowerModule, t.UpperModule
	lower, upper := w.p.linkEnds(tier)
	w.c.AModel, w.c.BModel = "", upper.Key
	if lower != nil {
		w.c.AModel = lower.Key
	}
}

// plane walks one plane's links.
func (w *cableWalk) plane(plane int, fn func(c *CableRun) error) error {
	lay, c := w.lay, &w.c
	next := 0 // leaves walked so far in the plane
	pod := 0
	for _, run := range lay.Pods {
		for range run.Count {
			n := run.Spines
			w.arrivals = resize(w.arrivals, n)
			base := 0 // links of the pod's leaves so far, mod n
			k := 0    // leaf of the pod
			for _, l := range run.Leaves {
				for range l.Switches {
					g := lay.LeafOf(pod, k, next) // leaf index in the plane
					leaf := w.leaf(plane, g)
					if err := w.serverLinks(plane, g, leaf, l.Down, fn); err != nil {
						return err
					}
					if n > 0 {
						w.set("leaf_spine", plane)
						up := roundUp(l.Down, w.perCage) // the hall's cage count reads ports by the down cages
						for k := range l.Up {
							x := (base + k) % n
							if w.names {
								c.ADevice, c.APort = leaf, upName(l.Down, k, w.perCage, w.cages[tierLeafSpine][0])
								c.BDevice, c.BPort = w.spine(plane, pod, x), portName(w.arrivals[x], w.cages[tierLeafSpine][1])
							}
							c.Rail = w.rail(g)
							if h := w.p.Hall; h != nil {
								c.aID, c.aPort, c.aUp = w.leafID+(plane-1)*h.LeavesPerPlane()+g, up+k, up
								c.bID, c.bPort = w.spineID+(plane-1)*h.SpinesPerPlane()+h.PodSpine(pod)+x, w.arrivals[x]
								if err := w.measure(1, h.LeafPlace(plane, g), h.SpinePlace(plane, pod, x)); err != nil {
									return err
								}
							}
							w.arrivals[x]++
							if err := fn(c); err != nil {
								return err
							}
						}
						base = (base + l.Up) % n
					}
					next++
					k++
				}
			}
			pod++
		}
	}
	return w.coreLinks(plane, fn)
}

// serverLinks walks the down links of leaf g of a plane, named leaf:
// a rail's leaf takes that port of each server of its unit; a leaf
// holding whole servers takes every port of each in turn.
func (w *cableWalk) serverLinks(plane, g int, leaf string, down int, fn func(c *CableRun) error) error {
	c := &w.c
	rails := w.p.RailsPerPlane
	lpu, spu := w.lay.LeavesPerUnit, w.lay.ServersPerUnit
	w.set("server_leaf", plane)
	first := g / lpu * spu
	for k := range down {
		server, r := first+k, g%lpu
		if lpu == 1 {
			server, r = first+k/rails, k%rails
		}
		if w.names {
			c.ADevice, c.APort = w.node(server), w.nodePort(plane, r)
			c.BDevice, c.BPort = leaf, w.switchPort(k)
		}
		c.Rail = r + 1
		if h := w.p.Hall; h != nil {
			c.aID, c.aPort, c.bID, c.bPort = server, r*w.p.Planes+plane-1, w.leafID+(plane-1)*h.LeavesPerPlane()+g, k
			if err := w.measure(0, h.NodePlace(server), h.LeafPlace(plane, g)); err != nil {
				return err
			}
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	return nil
}

// coreLinks walks the spine-core links of one plane: a core group takes
// its spine indices (spine j alone in reference designs) of every pod
// that has them.
func (w *cableWalk) coreLinks(plane int, fn func(c *CableRun) error) error {
	lay, c := w.lay, &w.c
	if len(lay.CoreGroups) == 0 {
		return nil
	}
	w.set("spine_core", plane)
	c.Rail = 0
	j, firstCore := 0, 0
	for _, run := range lay.CoreGroups {
		n := run.Cores
		for range run.Groups {
			w.arrivals = resize(w.arrivals, n)
			base := 0
			for jj := j; jj < j+max(run.Spines, 1); jj++ {
				pod := 0
				for i, pr := range lay.Pods {
					if run.SpineUp[i] == 0 {
						pod += pr.Count
						continue
					}
					down := spineDown(pr, jj)
					for range pr.Count {
						downCage := w.cages[tierLeafSpine][1]
						spine, up := w.spine(plane, pod, jj), roundUp(down, downCage)
						for k := range run.SpineUp[i] {
							x := (base + k) % n
							if w.names {
								c.ADevice, c.APort = spine, upName(down, k, downCage, w.cages[tierSpineCore][0])
								c.BDevice, c.BPort = w.core(plane, firstCore+x), portName(w.arrivals[x], w.cages[tierSpineCore][1])
							}
							if h := w.p.Hall; h != nil {
								c.aID, c.aPort, c.aUp = w.spineID+(plane-1)*h.SpinesPerPlane()+h.PodSpine(pod)+jj, up+k, up
								c.bID, c.bPort = w.coreID+(plane-1)*h.CoresPerPlane()+firstCore+x, w.arrivals[x]
								if err := w.measure(2, h.SpinePlace(plane, pod, jj), h.CorePlace(plane, firstCore+x)); err != nil {
									return err
								}
							}
							w.arrivals[x]++
							if err := fn(c); err != nil {
								return err
							}
						}
						base = (base + run.SpineUp[i]) % n
						pod++
					}
				}
			}
			j += max(run.Spines, 1)
			firstCore += n
		}
	}
	return nil
}

// spineDown is the links spine j of a pod of run pr takes from its
// leaves: the pod's uplinks spread over its spines, the first ones
// taking one more.
func spineDown(pr fabric.PodRun, j int) int {
	t := fabric.SumLinks(pr.Leaves, true)
	return fabric.SpineDownAt(fabric.SpreadLinks(t, pr.Spines), j)
}

// resize returns s with n zeros.
func resize(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// CableCSVHeader heads the cable map's CSV columns.
var CableCSVHeader = []string{"a_device", "a_port", "b_device", "b_port", "tier", "gbps", "medium", "part", "a_module", "b_module",
	"length_m", "plane", "rail", "a_rack", "a_row", "a_u", "b_rack", "b_row", "b_u", "run_m", "a_model", "b_model"}

// WriteCablesCSV streams the cable map as CSV, one row per link.
func WriteCablesCSV(w io.Writer, p *Plan) error {
	rec := make([]string, len(CableCSVHeader))
	return streamCSV(w, CableCSVHeader, func(write func([]string) error) error {
		return p.WalkCables(func(c *CableRun) error {
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

// streamCSV writes header, then every record each hands to write,
// through one buffer: rows stream out as they are made, whatever their
// count.
func streamCSV(w io.Writer, header []string, each func(write func([]string) error) error) error {
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
// element (a line each), without holding the links.
func WriteCablesJSON(w io.Writer, p *Plan) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	sep := "\n"
	err := p.WalkCables(func(c *CableRun) error {
		b, err := json.Marshal(cableJSON{A: endJSON{c.ADevice, c.APort, c.AModule, c.AModel, c.ARack, c.ARow, c.AU},
			B:    endJSON{c.BDevice, c.BPort, c.BModule, c.BModel, c.BRack, c.BRow, c.BU},
			Tier: c.Tier, Gbps: c.Gbps, Medium: c.Medium, Part: c.Part, Metres: c.Metres, Plane: c.Plane, Rail: c.Rail, RunM: math.Round(c.RunM*100) / 100})
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
	fmt.Fprintf(bw, "# Expected topology of %s: %s, %s, %s links.\n# Written by Fabric Planner; IBDM topology file format (ibdiagnet --topo_file).\n",
		textfmt.Int(p.GPUs)+" GPUs", textfmt.Plural(p.Tiers, "tier"), textfmt.Plural(p.Planes, "plane"), textfmt.Int(p.Links.Total))
	nic := IBNLNodeType(p)
	section := ""
	err := p.WalkCables(func(c *CableRun) error {
		ltype, local, lport, rtype, remote, rport := ibnlName(c.AModel), c.ADevice, c.APort, ibnlName(c.BModel), c.BDevice, c.BPort
		if c.Tier == "server_leaf" {
			ltype, local, lport, rtype, remote, rport = ibnlName(c.BModel), c.BDevice, c.BPort, nic, c.ADevice, c.APort
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
