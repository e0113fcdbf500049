package planner

import (
	"fabricplan/planner/hall"
	"fabricplan/planner/perf"
	"fabricplan/planner/resilience"
	"fabricplan/planner/serve"
)

// Report is the JSON form of a plan that `fabricplan plan --json` prints.
// Its keys are an interface other tools rely on (DESIGN.md): counts are
// integers, money in US dollars, power in watts, bandwidth in GB/s.
type Report struct {
	Scenario string     `json:"scenario"`
	System   SystemJSON `json:"system"`
	GPUs     int        `json:"gpus"`
	Servers  int        `json:"servers"`
	Tiers    int        `json:"tiers"`
	Planes   int        `json:"planes"`
	NICPorts int        `json:"nic_ports"`
	PortGbps int        `json:"port_gbps"`
	// UplinkGbps is the switch-to-switch port speed, given only when it
	// differs from port_gbps.
	UplinkGbps int `json:"uplink_gbps,omitempty"`
	// CoreUplinkGbps is the spine-to-core port speed, given only in a
	// three-tier fabric where it differs from the leaf-to-spine speed.
	CoreUplinkGbps int             `json:"core_uplink_gbps,omitempty"`
	Fabric         Fabric          `json:"fabric"`
	NIC            string          `json:"nic"`
	Switch         string          `json:"switch"`
	Switches       SwitchCounts    `json:"switches"`
	SwitchPorts    PortCounts      `json:"switch_ports"`
	Ports          []TierPorts     `json:"ports"`
	Wiring         Wiring          `json:"wiring"`
	Headroom       []Headroom      `json:"headroom"`
	Links          Links           `json:"links"`
	Transceivers   Transceivers    `json:"transceivers"`
	Cables         []CableCount    `json:"cables"`
	CostUSD        Money           `json:"cost_usd"`
	PowerW         Watts           `json:"power_w"`
	Spares         SpareParts      `json:"spares"`
	PerSU          UnitBill        `json:"per_su"`
	BOM            []BOMJSON       `json:"bom"`
	Notes          []string        `json:"notes"`
	JCT            *perf.JCTReport `json:"jct"`
	// Inference and RL are the serving and RL estimates of a scenario
	// of that kind (absent otherwise).
	Inference  *serve.Result          `json:"inference,omitempty"`
	RL         *serve.RLResult        `json:"rl,omitempty"`
	Resilience *resilience.Resilience `json:"resilience,omitempty"`
	// SanityBands put the cost per GPU and the capex share beside the
	// published analyst bands.
	SanityBands []SanityCheck `json:"sanity_bands"`
	// Layout is the scalable unit reported and the leaf alignment;
	// Oversubscription the ratio built at each tier; Cheaper the designs
	// found to give the same ports and ratio for less; GPUsBought the
	// GPUs cost per GPU divides by.
	Layout           UnitLayout    `json:"layout"`
	Oversubscription []TierOversub `json:"oversubscription"`
	Cheaper          []Cheaper     `json:"cheaper"`
	GPUsBought       int           `json:"gpus_bought"`
	// The whole cluster's networks (back end first) and what the back end
	// adds to the cluster without it; the job on the front end alone and
	// the checkpoint write time the storage path allows.
	Networks    []SideNetwork `json:"networks,omitempty"`
	BackEndAdds *Increment    `json:"backend_adds,omitempty"`
	FrontEndJCT *FrontEndJCT  `json:"frontend_jct,omitempty"`
	Checkpoint  *Checkpoint   `json:"checkpoint,omitempty"`
	// Facility holds the data-hall figures of a laid-out plan.
	Facility *hall.Figures `json:"facility,omitempty"`

	// SpineSwitch and CoreSwitch are the spines' and cores' models, given
	// only where they differ from the leaves' switch.
	SpineSwitch string `json:"spine_switch,omitempty"`
	CoreSwitch  string `json:"core_switch,omitempty"`

	// LeafStorage is the storage nodes on the compute leaves, given only
	// when network.storage_nodes asks for them.
	LeafStorage *LeafStorage `json:"leaf_storage,omitempty"`
	// LeafPairs is the leaf pairs and their peer links, given only when
	// network.leaf_pairs asks for them.
	LeafPairs *LeafPairs `json:"leaf_pairs,omitempty"`
}

// TierOversub is the oversubscription built at one tier: its links
// toward the tier below over its links toward the tier above, for the
// whole tier and for its most oversubscribed switch.
type TierOversub struct {
	Tier  string  `json:"tier"`
	Ratio float64 `json:"ratio"`
	Worst float64 `json:"worst"`
}

// SystemJSON names what the fabric connects: the catalog system (or
// "custom"), how many of them, and the nodes (servers or trays) each has.
type SystemJSON struct {
	Key          string `json:"key"`
	Name         string `json:"name"`
	Count        int    `json:"count"`
	NodesEach    int    `json:"nodes_each"`
	GPUsPerNode  int    `json:"gpus_per_node"`
	NICsPerNode  int    `json:"nics_per_node"`
	NVLinkDomain int    `json:"nvlink_domain"`
}

// TierPorts counts one switch tier's ports, all planes: cabled toward
// the tier below (or servers), cabled toward the tier above, and idle.
type TierPorts struct {
	Tier string `json:"tier"`
	Down int    `json:"down"`
	Up   int    `json:"up"`
	Idle int    `json:"idle"`
	// Storage is the leaves' ports cabled to storage nodes
	// (network.storage_nodes), given only when there are any.
	Storage int `json:"storage,omitempty"`
	// Peer is the leaves' ports on their pairs' peer links
	// (network.leaf_pairs), given only when there are any.
	Peer int `json:"peer,omitempty"`
	// DownGbps and UpGbps are the tier's port speeds, given only when
	// uplink_gbps runs the switch-to-switch ports at another speed.
	DownGbps int `json:"down_gbps,omitempty"`
	UpGbps   int `json:"up_gbps,omitempty"`
}

// Wiring says how each upper tier is wired: "balanced" or
// "near-balanced" (empty where the tier does not exist).
type Wiring struct {
	LeafSpine string `json:"leaf_spine"`
	SpineCore string `json:"spine_core"`
}

// SwitchCounts counts switches per tier, all planes.
type SwitchCounts struct {
	Leaf  int `json:"leaf"`
	Spine int `json:"spine"`
	Core  int `json:"core"`
	Total int `json:"total"`
}

// PortCounts counts switch ports with a link and ports installed.
type PortCounts struct {
	Used      int `json:"used"`
	Installed int `json:"installed"`
}

// Transceivers counts optical modules at each end.
type Transceivers struct {
	Server int `json:"server"`
	Switch int `json:"switch"`
	Total  int `json:"total"`
}

// CableCount is one run of a tier's cables as the BOM buys them: a
// medium and length sold (and, from a hall layout, the cable part), or
// the tier's one medium and length without one. The storage and peer
// links beside the servers' are rows of their own (CableTierStorage,
// CableTierPeer).
type CableCount struct {
	Tier   string  `json:"tier"`
	Medium Medium  `json:"medium"`
	Part   string  `json:"part,omitempty"`
	Metres float64 `json:"metres"`
	Count  int     `json:"count"`
}

// cableCounts is the plan's cables, run by run as the BOM prices them:
// each tier's runs where the hall is laid out (its one medium and length
// without), then the storage links at the server-leaf run they are
// cabled as (serverLeafSide) and the peer links run by run (setPeerRuns).
func (p *Plan) cableCounts() []CableCount {
	var out []CableCount
	for _, t := range p.LinkTiers {
		if len(t.Runs) == 0 {
			out = append(out, CableCount{Tier: t.Name, Medium: t.Medium, Metres: t.Metres, Count: t.Links})
			continue
		}
		for _, r := range t.Runs {
			out = append(out, CableCount{Tier: t.Name, Medium: r.Medium, Part: r.Part, Metres: r.Metres, Count: r.Links})
		}
	}
	side := func(tier string, sc sideCable, n int) {
		if n > 0 {
			c := CableCount{Tier: tier, Medium: sc.Medium, Metres: sc.Metres, Count: n}
			if len(p.LinkTiers) > 0 && len(p.LinkTiers[0].Runs) > 0 {
				c.Part = sc.Cable
			}
			out = append(out, c)
		}
	}
	if ls := p.LeafStorage; ls != nil {
		side(CableTierStorage, ls.cable, ls.Links)
	}
	if lp := p.LeafPairs; lp != nil {
		for _, r := range lp.runs {
			side(CableTierPeer, r.cable, r.pairs*lp.PeerPortsEach)
		}
	}
	return out
}

// BOMJSON is one bill-of-materials line.
type BOMJSON struct {
	Category string  `json:"category"`
	Key      string  `json:"key"`
	Name     string  `json:"name"`
	Where    string  `json:"where"`
	Qty      int     `json:"qty"`
	UnitUSD  float64 `json:"unit_usd"`
	TotalUSD float64 `json:"total_usd"`
	Watts    float64 `json:"watts"`
	Source   string  `json:"source"`
	Estimate bool    `json:"estimate"`
	Spare    bool    `json:"spare"`
	// Quote is the vendor quote the line is priced at, if any.
	Quote *QuoteJSON `json:"quote,omitempty"`
	// ListPremium says the list basis's branded premium is in the price.
	ListPremium bool `json:"list_premium,omitempty"`
}

// QuoteJSON is a quoted BOM line's provenance.
type QuoteJSON struct {
	Vendor     string `json:"vendor"`
	Date       string `json:"date"`
	ValidUntil string `json:"valid_until"`
	Expired    bool   `json:"expired"`
}

// Report returns the plan's JSON form.
func (p *Plan) Report() Report {
	r := Report{
		Scenario: p.Scenario.Name, GPUs: p.GPUs, Servers: p.Servers, Tiers: p.Tiers, Planes: p.Planes,
		NICPorts: p.NICPorts, PortGbps: p.PortGbps, UplinkGbps: mixedUplink(p), CoreUplinkGbps: mixedCore(p), Fabric: p.Scenario.Network.Fabric,
		NIC: p.NIC.Key, Switch: p.Switch.Key, SpineSwitch: p.TierSwitchKey(TierSpine), CoreSwitch: p.TierSwitchKey(TierCore),
		Switches:     SwitchCounts{Leaf: p.Switches(TierLeaf), Spine: p.Switches(TierSpine), Core: p.Switches(TierCore), Total: p.TotalSwitches()},
		SwitchPorts:  PortCounts{Used: p.PortsUsed, Installed: p.PortsTotal},
		Links:        p.Links,
		Transceivers: Transceivers{Server: p.ServerTransceivers, Switch: p.SwitchTransceivers, Total: p.ServerTransceivers + p.SwitchTransceivers},
		CostUSD:      p.Cost,
		PowerW:       p.Power,
		Notes:        append([]string{}, p.Notes...),
		System:       p.systemJSON(),
		Wiring:       Wiring{LeafSpine: p.SpineWiring, SpineCore: p.CoreWiring},
		Headroom:     append([]Headroom{}, p.Headroom...),
		Spares:       p.Spares,
		PerSU:        p.UnitBill(),
		SanityBands:  append([]SanityCheck{}, p.SanityBands...),
	}
	for _, t := range p.SwitchTiers {
		tp := TierPorts{Tier: t.Name, Down: t.DownLinks, Up: t.UpLinks, Idle: t.Switches*t.Radix - t.DownLinks - t.UpLinks}
		if ls := p.LeafStorage; ls != nil && t.Name == TierLeaf {
			tp.Storage, tp.Idle = ls.Links, tp.Idle-ls.Links
		}
		if lp := p.LeafPairs; lp != nil && t.Name == TierLeaf {
			tp.Peer, tp.Idle = 2*lp.PeerLinks, tp.Idle-2*lp.PeerLinks
		}
		if p.MixedSpeeds() {
			tp.DownGbps, tp.UpGbps = t.DownGbps, t.UpGbps
			if t.UpLinks == 0 {
				tp.UpGbps = 0
			}
		}
		r.Ports = append(r.Ports, tp)
	}
	r.Cables = p.cableCounts()
	for _, l := range p.BOM {
		b := BOMJSON{Category: l.Category, Key: l.Key, Name: l.Name, Where: l.Where, Qty: l.Qty,
			UnitUSD: l.UnitUSD, TotalUSD: l.TotalUSD, Watts: l.TotalWatts, Source: l.Source, Estimate: l.Estimate, Spare: l.Spare, ListPremium: l.Premium}
		if q := l.Quote; q != nil {
			b.Quote = &QuoteJSON{Vendor: q.Vendor, Date: q.Date, ValidUntil: q.ValidUntil, Expired: l.QuoteExpired}
		}
		r.BOM = append(r.BOM, b)
	}
	if p.JCT != nil {
		j := p.JCT.Report()
		r.JCT = &j
	}
	r.Resilience = p.Resilience
	r.Inference, r.RL = p.Inference, p.RL
	r.Layout, r.Oversubscription, r.GPUsBought = p.Unit, p.BuiltOversubscription(), p.GPUsBought()
	r.Cheaper = append([]Cheaper{}, p.Cheaper...)
	r.LeafStorage, r.LeafPairs = p.LeafStorage, p.LeafPairs
	if n := p.Networks; n != nil {
		r.Networks = append([]SideNetwork{}, n.List...)
		adds := n.BackEndAdds
		r.BackEndAdds, r.FrontEndJCT, r.Checkpoint = &adds, n.FrontEndJCT, n.Checkpoint
	}
	if p.Hall != nil {
		f := p.Hall.Figures
		r.Facility = &f
	}
	return r
}

func (p *Plan) systemJSON() SystemJSON {
	if sys := p.System; sys != nil {
		return SystemJSON{Key: sys.Key, Name: sys.Name, Count: p.Systems, NodesEach: sys.Nodes, GPUsPerNode: sys.GPUsPerNode(),
			NICsPerNode: sys.NICsPerNode, NVLinkDomain: sys.NVLinkDomain}
	}
	n := p.Scenario.Network
	domain := p.Scenario.Cluster.GPUsPerServer
	if p.JCT != nil {
		domain = p.JCT.GPU.NVLinkDomain
	}
	return SystemJSON{Key: CustomSystem, Name: "custom servers", Count: p.Servers, NodesEach: 1,
		GPUsPerNode: p.Scenario.Cluster.GPUsPerServer, NICsPerNode: n.NICsPerServer, NVLinkDomain: domain}
}
