package sidenet

// Reference is a published design's switch counts beside the back end:
// Storage, FrontEnd and OOB switches (0: not published, the planner's
// sizing stands) for a design of Units scalable units of UnitNodes node
// slots each, with its back end. A cluster takes them per unit begun
// (the RAs build a partial unit's switches whole: "the fabric should be
// designed to support the full SU"), rounded up.
type Reference struct {
	UnitNodes, Units       int
	Storage, FrontEnd, OOB int
}

// UnitsOf is the scalable units nodes servers begin.
func (r Reference) UnitsOf(nodes int) int { return ceilDiv(nodes, r.UnitNodes) }

// Scaled is count, a figure of the reference design, for a cluster of
// nodes servers: count x units / Units, rounded up (0 stays 0).
func (r Reference) Scaled(count, nodes int) int {
	if count <= 0 {
		return 0
	}
	return ceilDiv(count*r.UnitsOf(nodes), r.Units)
}

// forced is the switch counts a referenced sizing takes (0: the
// planner's own).
type forced struct{ storage, frontEnd, oob int }

// referenced is the switch counts the reference gives the cluster of in:
// with the back end, its figures scaled; without it, those less what the
// planner's own sizing says the back end adds to each network (the RAs
// publish no design without a back end), at least one switch.
func referenced(in Inputs) forced {
	r := *in.Reference
	f := forced{r.Scaled(r.Storage, in.Nodes), r.Scaled(r.FrontEnd, in.Nodes), r.Scaled(r.OOB, in.Nodes)}
	if in.BackEnd {
		return f
	}
	withIn, withoutIn := in, in
	withIn.BackEnd, withIn.Reference, withoutIn.Reference = true, nil, nil
	with, without := Size(withIn), Size(withoutIn)
	less := func(n, w, wo int) int {
		if n == 0 {
			return 0
		}
		return max(1, n-(w-wo))
	}
	return forced{less(f.storage, with.Storage.Switches, without.Storage.Switches),
		less(f.frontEnd, with.FrontEnd.Switches, without.FrontEnd.Switches),
		less(f.oob, with.OOB.Switches, without.OOB.Switches)}
}

// force gives n switches switches in place of those sized: the tier
// split and the links beyond the device ports' scale with the count (a
// published count gives no split), the spines to the nearest pair (they
// come in pairs) and at most half; the ports stay.
func (n Net) force(switches int) Net {
	if switches <= 0 || n.Switches == 0 || switches == n.Switches {
		return n
	}
	spines := min(2*((n.Spines*switches+n.Switches)/(2*n.Switches)), switches/2)
	inner := ((n.Links-n.Ports)*switches + n.Switches/2) / n.Switches
	n.Leaves, n.Spines, n.Switches, n.Links, n.Rescaled = switches-spines, spines, switches, n.Ports+inner, true
	return n
}
