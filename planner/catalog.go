package planner

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"

	"fabricplan/internal/builtdoc"
	"fabricplan/internal/datadoc"
	"fabricplan/planner/perf"
	"fabricplan/planner/resilience"
	"fabricplan/planner/serve"
)

// Source says where a catalog figure came from and when. Estimate marks
// figures that are not vendor specifications.
type Source struct {
	Ports string `toml:"ports" json:"ports"`
	Price string `toml:"price" json:"price"`
	Range string `toml:"range" json:"range"` // where the low-high price range came from
	Watts string `toml:"watts" json:"watts"`
	Reach string `toml:"reach" json:"reach"`
	AsOf  string `toml:"as_of" json:"as_of"`
	// RackUnits and Lengths source a part's height and the lengths a
	// cable is sold in.
	RackUnits string `toml:"rack_units" json:"rack_units"`
	Lengths   string `toml:"lengths" json:"lengths"`
	Estimate  bool   `toml:"estimate" json:"estimate"`
	// Failures sources a switch's own failure rate (failures_per_year).
	Failures string `toml:"failures" json:"failures,omitempty"`
}

// Switch is one switch model. Ports and CageLinks are keyed by port speed
// in Gb/s: a 51.2T switch has 64 ports at 800G or 128 at 400G, and a
// twin-port OSFP cage carries two 400G links.
type Switch struct {
	Key       string `toml:"-" json:"key"`
	Name      string `toml:"name" json:"name"`
	RackUnits int    `toml:"rack_units" json:"rack_units"` // height, U (0: 1U)
	Fabric    Fabric `toml:"fabric" json:"fabric"`
	// LaneGbps lists the SerDes lane rates the part runs (a 400G NDR
	// port is 4 x 100G lanes, an 800G XDR port 4 x 200G): the two ends
	// of a link must share one.
	LaneGbps  []int          `toml:"lane_gbps" json:"lane_gbps"`
	Form      string         `toml:"form" json:"form"`
	Ports     map[string]int `toml:"ports" json:"ports"`
	CageLinks map[string]int `toml:"cage_links" json:"cage_links"`
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	// FailuresPerYear is the model's own critical-failure rate per
	// switch-year (a chassis fails more often than a single-chip box);
	// 0: the reliability data's switch rate.
	FailuresPerYear float64 `toml:"failures_per_year" json:"failures_per_year,omitempty"`
	Provenance

	// Chassis is a modular switch's parts (nil: a fixed switch); its
	// ports, price and power come from them.
	Chassis *Chassis `toml:"chassis" json:"chassis,omitempty"`
}

// Radix is the number of ports at gbps, 0 when the switch has none.
func (s *Switch) Radix(gbps int) int { return s.Ports[speedKey(gbps)] }

// speedKey is a port speed as the catalog's tables key it ("400"): the
// speeds switches offer as constants, so looking one up allocates no
// string (strconv.Itoa did, 4% of a sweep).
func speedKey(gbps int) string {
	switch gbps {
	case 100:
		return "100"
	case 200:
		return "200"
	case 400:
		return "400"
	case 800:
		return "800"
	case 1600:
		return "1600"
	}
	return strconv.Itoa(gbps)
}

// LinksPerCage is how many links at gbps one cage (and so one transceiver
// module) carries; at least 1.
func (s *Switch) LinksPerCage(gbps int) int {
	if n := s.CageLinks[speedKey(gbps)]; n > 0 {
		return n
	}
	return 1
}

// Speeds lists the port speeds the switch offers, fastest first.
func (s *Switch) Speeds() []int { return speeds(s.Ports) }

// NIC is one network adapter model. InfiniBandPorts and EthernetPorts list
// the port splits it supports in each mode (empty: mode not supported).
type NIC struct {
	Key             string `toml:"-" json:"key"`
	Name            string `toml:"name" json:"name"`
	LaneGbps        []int  `toml:"lane_gbps" json:"lane_gbps"` // SerDes lane rates the NIC runs
	Gbps            int    `toml:"gbps" json:"gbps"`
	Form            string `toml:"form" json:"form"`
	Cages           int    `toml:"cages" json:"cages"`
	InfiniBandPorts []int  `toml:"infiniband_ports" json:"infiniband_ports"`
	EthernetPorts   []int  `toml:"ethernet_ports" json:"ethernet_ports"`
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	Provenance
}

// PortSplits lists the ports-per-NIC values the NIC supports on fabric f.
func (n *NIC) PortSplits(f Fabric) []int {
	if f == InfiniBand {
		return n.InfiniBandPorts
	}
	return n.EthernetPorts
}

// Transceiver is one optical module type: form factor, link speed and the
// number of links it carries (2 for a twin-port module).
type Transceiver struct {
	Key      string `toml:"-" json:"key"`
	Name     string `toml:"name" json:"name"`
	LaneGbps []int  `toml:"lane_gbps" json:"lane_gbps"` // electrical lane rates the module runs
	Form     string `toml:"form" json:"form"`
	LinkGbps int    `toml:"link_gbps" json:"link_gbps"`
	Links    int    `toml:"links" json:"links"`
	ReachM   int    `toml:"reach_m" json:"reach_m"` // longest link it drives, metres
	// Optical names each link's optical interface (e.g. 400GBASE-DR4):
	// modules of different host lanes join on one; "" unknown.
	Optical string `toml:"optical" json:"optical,omitempty"`
	// Fibre is the cable key of the fibre it takes: "" for single-mode
	// ("fiber"), "fiber-mm" for a multimode module. Multimode modules
	// are chosen only per link in a laid-out hall (FibreModule).
	Fibre string `toml:"fibre" json:"fibre"`
	UnitPrice
	Watts float64 `toml:"watts" json:"watts"`
	Provenance
}

// Cable is one cable medium priced by length: base + per metre.
type Cable struct {
	Key  string `toml:"-" json:"key"`
	Name string `toml:"name" json:"name"`
	// LengthsM are the lengths the medium is sold in, shortest first;
	// empty: any length up to its reach.
	LengthsM     []float64 `toml:"lengths_m" json:"lengths_m"`
	PriceBaseUSD float64   `toml:"price_base_usd" json:"price_base_usd"`
	PricePerMUSD float64   `toml:"price_per_m_usd" json:"price_per_m_usd"`
	// PriceRangeFactor scales a cable's modelled price to its low and
	// high estimate.
	PriceRangeFactor [2]float64     `toml:"price_range_factor" json:"price_range_factor"`
	Watts            float64        `toml:"watts" json:"watts"`
	MaxM             map[string]int `toml:"max_m" json:"max_m"`
	// Unavailable lists where the medium is not offered although its
	// speed is, each with the reason.
	Unavailable []CableRule `toml:"unavailable" json:"unavailable"`
	Provenance
}

// CableRule says where a medium is not offered: on a fabric (empty: any)
// at a speed (0: any), or on twin-port switch cages (several links a
// cage). Why gives the source.
type CableRule struct {
	Fabric   Fabric `toml:"fabric" json:"fabric"`
	Gbps     int    `toml:"gbps" json:"gbps"`
	TwinPort bool   `toml:"twin_port" json:"twin_port"`
	Why      string `toml:"why" json:"why"`
}

// Offered reports whether the medium exists for links at gbps on fabric
// f between ports whose cages carry cageLinks links each (the switch
// end), and why not.
func (c *Cable) Offered(f Fabric, gbps, cageLinks int) (bool, string) {
	if c.Reach(gbps) == 0 {
		return false, fmt.Sprintf("%s is not offered at %dG", c.Key, gbps)
	}
	if r := c.unavailable(f, gbps, cageLinks); r != nil {
		return false, fmt.Sprintf("%s is not offered here: %s", c.Key, r.Why)
	}
	return true, ""
}

// offers is Offered without the reason, for the callers that drop it
// (the media choice asks it for every medium of every tier of every
// plan, and a reason costs a formatted string).
func (c *Cable) offers(f Fabric, gbps, cageLinks int) bool {
	return c.Reach(gbps) > 0 && c.unavailable(f, gbps, cageLinks) == nil
}

// unavailable is the rule of c.Unavailable that keeps the medium from
// links at gbps on fabric f between cages of cageLinks links (nil: none).
func (c *Cable) unavailable(f Fabric, gbps, cageLinks int) *CableRule {
	for i := range c.Unavailable {
		r := &c.Unavailable[i]
		if (r.Fabric == "" || r.Fabric == f) && (r.Gbps == 0 || r.Gbps == gbps) && (!r.TwinPort || cageLinks > 1) {
			return r
		}
	}
	return nil
}

// Reach is the longest cable of this medium at gbps in metres; 0 when the
// medium is not offered at that speed.
func (c *Cable) Reach(gbps int) int {
	var b [20]byte
	return c.MaxM[string(strconv.AppendInt(b[:0], int64(gbps), 10))] // the key's bytes looked up in place: no string made
}

// PriceUSD is the price of one cable of length metres.
func (c *Cable) PriceUSD(metres float64) float64 { return c.PriceBaseUSD + c.PricePerMUSD*metres }

// Catalog is the hardware the planner can build with.
type Catalog struct {
	Schema       int                     `toml:"schema" json:"schema"`
	Systems      map[string]*System      `toml:"systems" json:"systems"`
	Switches     map[string]*Switch      `toml:"switches" json:"switches"`
	NICs         map[string]*NIC         `toml:"nics" json:"nics"`
	Transceivers map[string]*Transceiver `toml:"transceivers" json:"transceivers"`
	Cables       map[string]*Cable       `toml:"cables" json:"cables"`

	// The parts of the networks beside the back end and each system's
	// default networks (planner/networks.go).
	SideSwitches map[string]*Switch       `toml:"side_switches" json:"side_switches"`
	SideNICs     map[string]*SideNIC      `toml:"side_nics" json:"side_nics"`
	SideLinks    map[string]*SideLink     `toml:"side_links" json:"side_links"`
	SideServers  map[string]*SideServer   `toml:"side_servers" json:"side_servers"`
	SideDefaults map[string]*SideDefaults `toml:"side_defaults" json:"side_defaults"`

	// Facility holds the data-hall defaults (data/facility.toml); nil
	// leaves plans without a hall layout.
	Facility *FacilityData `toml:"-" json:"facility"`
	// JCT holds the JCT model's constants and presets (data/jct.toml).
	JCT *perf.JCTData `toml:"-" json:"-"`
	// Serve holds the inference and RL model's constants
	// (data/inference.toml); nil leaves inference and RL scenarios
	// without their estimates.
	Serve *serve.Data `toml:"-" json:"-"`
	// Reliability holds failure rates and recovery times
	// (data/reliability.toml); nil leaves plans without a resilience
	// analysis.
	Reliability *resilience.Reliability `toml:"-" json:"reliability"`

	// Prices holds the price bases and analyst bands (data/prices.toml);
	// nil leaves plans on the street basis without bands.
	Prices *PriceData `toml:"-" json:"prices,omitempty"`

	modules map[moduleKey][]*Transceiver // cheapest first
	// mmModules are the multimode modules, apart so the per-tier media
	// choice keeps to single-mode.
	mmModules map[moduleKey][]*Transceiver
}

type moduleKey struct {
	form  string
	gbps  int
	links int
}

// LoadCatalog reads and checks catalog.toml, jct.toml, reliability.toml
// and prices.toml from fsys.
func LoadCatalog(fsys fs.FS) (*Catalog, error) {
	src, err := fs.ReadFile(fsys, "catalog.toml")
	if err != nil {
		return nil, fmt.Errorf("read catalog: %w", err)
	}
	cat, err := ParseCatalog(src)
	if err != nil {
		return nil, err
	}
	jsrc, err := fs.ReadFile(fsys, "jct.toml")
	if err != nil {
		return nil, fmt.Errorf("read jct data: %w", err)
	}
	if cat.JCT, err = perf.ParseJCTData(jsrc); err != nil {
		return nil, err
	}
	if cat.Serve, err = loadServe(fsys); err != nil {
		return nil, err
	}
	rsrc, err := fs.ReadFile(fsys, "reliability.toml")
	if err != nil {
		return nil, fmt.Errorf("read reliability data: %w", err)
	}
	if cat.Reliability, err = resilience.ParseReliability(rsrc); err != nil {
		return nil, err
	}
	psrc, err := fs.ReadFile(fsys, "prices.toml")
	if err != nil {
		return nil, fmt.Errorf("read price data: %w", err)
	}
	if cat.Prices, err = ParsePriceData(psrc); err != nil {
		return nil, err
	}
	if err := cat.attachVolume(); err != nil {
		return nil, err
	}
	if cat.Facility, err = loadFacility(fsys); err != nil {
		return nil, err
	}
	return cat, nil
}

// loadServe reads inference.toml from fsys, nil when fsys has none.
func loadServe(fsys fs.FS) (*serve.Data, error) {
	src, err := fs.ReadFile(fsys, "inference.toml")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read inference data: %w", err)
	}
	return serve.ParseData(src)
}

// builtCatalog is data/catalog.toml decoded when the program was built
// (built_catalog.go, rewritten by go generate); nil without that file,
// when every catalog is decoded from its TOML.
var builtCatalog *builtdoc.Doc[Catalog]

// ParseCatalog decodes and checks a catalog document: the shipped
// catalog's bytes come back decoded at build time, without their TOML
// decoded again, any other bytes are decoded.
//
//go:generate go test -run ^TestBuiltDocs$ . -args -write-built
func ParseCatalog(src []byte) (*Catalog, error) {
	c, err := builtdoc.Decode(builtCatalog, src, decodeCatalog)
	if err != nil {
		return nil, err
	}
	if err := c.index(); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if err := c.indexSide(); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	if err := c.checkPrices(); err != nil {
		return nil, fmt.Errorf("catalog: %w", err)
	}
	return c, nil
}

// decodeCatalog decodes a catalog document without checking it.
func decodeCatalog(src []byte) (*Catalog, error) {
	var c Catalog
	if err := datadoc.Decode("catalog", src, &c, &c.Schema); err != nil {
		return nil, err
	}
	return &c, nil
}

// check checks one catalog switch (k is its key): fabric, ports, lanes
// and the splits its ports offer (checkPrices checks its price).
func (s *Switch) check(k string) error {
	if s.Fabric != InfiniBand && s.Fabric != Ethernet {
		return fmt.Errorf("switch %s: fabric %q", k, s.Fabric)
	}
	if err := s.fillChassis(k); err != nil {
		return err
	}
	if len(s.Ports) == 0 || s.PriceUSD < 0 || s.Watts < 0 {
		return fmt.Errorf("switch %s: needs ports, price and watts", k)
	}
	if err := checkLanes("switch "+k, s.LaneGbps); err != nil {
		return err
	}
	for sp, n := range s.Ports {
		if g, err := strconv.Atoi(sp); err != nil || g <= 0 || n < 2 {
			return fmt.Errorf("switch %s: bad port entry %q = %d", k, sp, n)
		}
	}
	if err := s.checkSplits(); err != nil {
		return fmt.Errorf("switch %s: %w", k, err)
	}
	return nil
}

// index keys and checks the back-end parts and systems, and indexes the
// transceivers (checkPrices checks their prices).
func (c *Catalog) index() error {
	for k, s := range c.Switches {
		s.Key = k
		if err := s.check(k); err != nil {
			return err
		}
	}
	for k, n := range c.NICs {
		n.Key = k
		if err := n.check(k); err != nil {
			return err
		}
	}
	if err := c.indexModules(); err != nil {
		return err
	}
	for k, cb := range c.Cables {
		cb.Key = k
	}
	if err := c.checkChassisLinks(); err != nil {
		return err
	}
	for k, sys := range c.Systems {
		sys.Key = k
		if k == CustomSystem {
			return fmt.Errorf("system key %q is reserved for the scenario's own servers", k)
		}
		if err := sys.check(c); err != nil {
			return err
		}
	}
	for _, m := range []Medium{DAC, ACC, AOC} {
		if c.Cables[string(m)] == nil {
			return fmt.Errorf("cable %q missing", m)
		}
	}
	if c.Cables[fiberKey] == nil {
		return fmt.Errorf("cable %q missing", fiberKey)
	}
	return nil
}

// check checks one catalog NIC (k is its key): speed, cages and lanes.
func (n *NIC) check(k string) error {
	if n.Gbps <= 0 || n.Cages <= 0 {
		return fmt.Errorf("nic %s: needs gbps and cages", k)
	}
	return checkLanes("nic "+k, n.LaneGbps)
}

// indexModules keys and checks the transceivers and indexes them by form,
// link speed and links, cheapest first: single-mode in modules,
// multimode in mmModules.
func (c *Catalog) indexModules() error {
	c.modules = make(map[moduleKey][]*Transceiver, len(c.Transceivers))
	c.mmModules = map[moduleKey][]*Transceiver{}
	for _, k := range SortedKeys(c.Transceivers) {
		t := c.Transceivers[k]
		t.Key = k
		if t.ReachM <= 0 {
			return fmt.Errorf("transceiver %s: needs reach_m", k)
		}
		if err := checkLanes("transceiver "+k, t.LaneGbps); err != nil {
			return err
		}
		idx := c.modules
		if t.Fibre != "" && t.Fibre != fiberKey {
			if t.Fibre != mmFiberKey {
				return fmt.Errorf("transceiver %s: fibre %q: use %q or leave it out for single-mode", k, t.Fibre, mmFiberKey)
			}
			idx = c.mmModules
		}
		mk := moduleKey{t.Form, t.LinkGbps, t.Links}
		for _, prev := range idx[mk] {
			if prev.ReachM == t.ReachM && slices.Equal(prev.LaneGbps, t.LaneGbps) {
				return fmt.Errorf("transceivers %s and %s are both %s %dG x%d reaching %d m", prev.Key, k, t.Form, t.LinkGbps, t.Links, t.ReachM)
			}
		}
		idx[mk] = append(idx[mk], t)
		slices.SortStableFunc(idx[mk], func(a, b *Transceiver) int { return cmpFloat(a.PriceUSD, b.PriceUSD) })
	}
	if len(c.mmModules) > 0 && c.Cables[mmFiberKey] == nil {
		return fmt.Errorf("cable %q missing for the multimode transceivers", mmFiberKey)
	}
	return nil
}

// checkRange requires a price range [low, high] around price.
func checkRange(what string, price float64, r [2]float64) error {
	if !(r[0] > 0 && r[0] <= price && price <= r[1]) {
		return fmt.Errorf("%s: price %g must lie in its price_range_usd %v", what, price, r)
	}
	return nil
}

// Module finds the cheapest transceiver of a form factor that carries
// links links at gbps each on lanes of lane Gb/s and reaches metres, or
// nil; longest is the farthest any such part reaches (0: none carries
// those links).
func (c *Catalog) Module(form string, gbps, links, lane int, metres float64) (mod *Transceiver, longest int) {
	for _, t := range c.modules[moduleKey{form, gbps, links}] {
		if !slices.Contains(t.LaneGbps, lane) {
			continue
		}
		longest = max(longest, t.ReachM)
		if mod == nil && float64(t.ReachM) >= metres {
			mod = t
		}
	}
	return mod, longest
}

// FibreModule is Module among the multimode modules when mm, else
// Module.
func (c *Catalog) FibreModule(mm bool, form string, gbps, links, lane int, metres float64) *Transceiver {
	if !mm {
		mod, _ := c.Module(form, gbps, links, lane, metres)
		return mod
	}
	for _, t := range c.mmModules[moduleKey{form, gbps, links}] {
		if slices.Contains(t.LaneGbps, lane) && float64(t.ReachM) >= metres {
			return t
		}
	}
	return nil
}

// SwitchKeys lists switch keys in sorted order.
func (c *Catalog) SwitchKeys() []string { return SortedKeys(c.Switches) }

// NICKeys lists NIC keys in sorted order.
func (c *Catalog) NICKeys() []string { return SortedKeys(c.NICs) }

// SwitchesFor lists, sorted by key, the switches of fabric f that have
// ports at gbps.
func (c *Catalog) SwitchesFor(f Fabric, gbps int) []*Switch {
	var out []*Switch
	for _, k := range c.SwitchKeys() {
		s := c.Switches[k]
		if s.Fabric == f && s.Radix(gbps) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// NICSpeeds lists the NIC speeds the catalog offers on fabric f, ascending.
func (c *Catalog) NICSpeeds(f Fabric) []int {
	seen := map[int]bool{}
	var out []int
	for _, n := range c.NICs {
		if len(n.PortSplits(f)) > 0 && !seen[n.Gbps] {
			seen[n.Gbps] = true
			out = append(out, n.Gbps)
		}
	}
	sort.Ints(out)
	return out
}

// hasNICSpeed says whether NICSpeeds(f) holds gbps, without listing them.
func (c *Catalog) hasNICSpeed(f Fabric, gbps int) bool {
	for _, n := range c.NICs {
		if n.Gbps == gbps && len(n.PortSplits(f)) > 0 {
			return true
		}
	}
	return false
}

// HasPriceKey says whether k names a catalog item with a price.
func (c *Catalog) HasPriceKey(k string) bool {
	_, ok := c.ItemPrice(k)
	return ok
}

// SortedKeys lists the keys of m in sorted order.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func speeds(m map[string]int) []int {
	var out []int
	for k := range m {
		if g, err := strconv.Atoi(k); err == nil {
			out = append(out, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// checkLanes requires a part's lane rates: one or more, each positive.
func checkLanes(what string, lanes []int) error {
	if len(lanes) == 0 {
		return fmt.Errorf("%s: needs lane_gbps, the SerDes lane rates it runs (e.g. [100])", what)
	}
	for _, l := range lanes {
		if l <= 0 {
			return fmt.Errorf("%s: lane_gbps %v must be positive", what, lanes)
		}
	}
	return nil
}

// SharedLane is the fastest lane rate both parts run, 0 when none: a
// link between them runs at it.
func SharedLane(a, b []int) int {
	best := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			best = max(best, x)
		}
	}
	return best
}
