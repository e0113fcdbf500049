package planner

// LaysHall reports whether a plan of s is laid out in the data hall
// (Build measures its links there) rather than priced at one length per
// tier: the catalog has facility data, s neither asks for flat links
// nor fixes its lengths in network.media. The design search and the
// phased build-out both ask it.
func (s *Scenario) LaysHall(cat *Catalog) bool { return s.laysHall(cat) }

// LaidOutAs is s laid out as o is: o's link media and lengths
// (network.media) and whether its links are priced at one length per
// tier (FlatLinks) or counted (CountedLinks). A design search gives its
// designs, built flat or counted, the layout of the scenario searched.
// Exported for planner/explore.
func (s Scenario) LaidOutAs(o Scenario) Scenario {
	s.flatLinks, s.countedLinks, s.Network.Media = o.flatLinks, o.countedLinks, o.Network.Media
	return s
}

// AutoSwitches are the switches "auto", the design search and the
// cheaper-design check try as the fabric's (leaf) switch at gbps ports:
// SwitchesFor without the modular chassis.
// Exported for planner/explore.
func (c *Catalog) AutoSwitches(f Fabric, gbps int) []*Switch { return c.autoSwitches(f, gbps) }
