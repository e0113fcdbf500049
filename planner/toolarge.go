package planner

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
	"fabricplan/planner/fabric"
)

// tooLargeError is the error of a fabric that does not fit three tiers:
// what does not fit, then every change that makes it fit, cheapest
// first. The changes are priced by building them, which only a reader
// of the message needs: the message is found when Error is first
// called, so a search, a sweep or an auto switch that only tests
// errors.Is(err, ErrTooLarge) never builds them nor finds the reach.
type tooLargeError struct {
	explain func() string // what does not fit, and the changes to try
	once    sync.Once
	text    string
	// short is the message a row of many sizes shows (RowError): the
	// changes that fit by sizing alone, unpriced.
	short func() string
}

func (e *tooLargeError) Error() string {
	e.once.Do(func() { e.text = e.explain() })
	return e.text
}

func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// tooLarge explains a fabric of spec that does not fit the asked tiers
// and lists the changes that would make it fit.
func tooLarge(s Scenario, cat *Catalog, nic *NIC, sw *Switch, port, radix int, spec fabric.Spec, tiers int) error {
	perPlane := spec.Servers * spec.Rails
	if s.Network.Tiers != 0 && tiers < 3 {
		return fielderr.New("network.tiers", "set tiers = 0 to use the fewest that fit",
			"%s server ports per plane do not fit in %s of %s (%d x %dG)", textfmt.Int(perPlane), textfmt.Plural(tiers, "tier"), sw.Key, radix, port)
	}
	// The reach (a search over pod sizes) is found with the rest of the
	// message: a design search meets many fabrics too large and reads
	// none of their messages.
	head := func() (string, int) {
		reach := threeTierReach(spec)
		return fmt.Sprintf("%s: %s server ports per plane exceed the %s that three tiers of %s (%d x %dG) reach as this fabric is built (its leaf groups, alignment and ratios; %s in theory, every port used)",
			ErrTooLarge, textfmt.Int(perPlane), textfmt.Int(reach), sw.Key, radix, port, textfmt.Int(radix*radix*radix/4)), reach
	}
	return &tooLargeError{explain: func() string {
		h, reach := head()
		return h + "; try " + strings.Join(fitFixes(s, cat, nic, sw, port, radix, perPlane, reach), "; or ")
	}, short: func() string {
		h, reach := head()
		return h + "; try " + strings.Join(sizedFixes(s, cat, nic, sw, port, radix, perPlane, reach), "; or ") +
			fmt.Sprintf("; fabricplan plan --gpus %d prices each", s.Cluster.GPUs)
	}}
}

// RowError is err as a row of many sizes shows it (a sweep's, jct
// --sweep's): a fabric too large for three tiers says what does not fit
// and the changes that fit by sizing alone (fabric.Size on each change's
// spec: no hall, no BOM), unpriced, and that plan prices each; plan's
// own message builds and prices every change, too dear at every row.
// Any other error reads as its Error.
func RowError(err error) string {
	if t, ok := err.(*tooLargeError); ok && t.short != nil {
		return t.short()
	}
	return err.Error()
}

// fitFix is one change that may make a fabric too large for three tiers
// fit: its words, and the scenario and leaf switch to build it on (none
// when it cannot be built as it stands).
type fitFix struct {
	words string
	s     *Scenario
	sw    *Switch
}

// fitFixes lists the changes to a fabric too large for three tiers that
// make it fit, built and priced, cheapest first: packed leaves, more
// planes, a higher-radix switch; a plane split that needs the NICs'
// ports split stays unpriced, and splitting the cluster always comes
// last. A change that still does not fit is left out.
func fitFixes(s Scenario, cat *Catalog, nic *NIC, sw *Switch, port, radix, perPlane, reach int) []string {
	// One price for a fix whoever asks (plan, a sweep's row, a check
	// without the hall): laid out in the hall unless the scenario gives
	// its lengths, its links counted (CountedLinks: within 0.5% of the
	// walk, and cheap at the sizes that do not fit).
	s.flatLinks, s.countedLinks = s.givesLengths(), true
	fixes := candidateFixes(s, cat, sw, port, radix, perPlane, reach)
	type priced struct {
		words string
		p     *Plan
	}
	var fit []priced
	var unpriced []string
	for _, f := range fixes {
		if f.s == nil {
			unpriced = append(unpriced, f.words)
			continue
		}
		if p, err := buildWith(*f.s, cat, nic, f.sw); err == nil {
			fit = append(fit, priced{f.words, p})
		}
	}
	slices.SortStableFunc(fit, func(a, b priced) int { return comparePlans(a.p, b.p) })
	var out []string
	for _, f := range fit {
		out = append(out, fmt.Sprintf("%s: %s, %s", f.words, textfmt.Plural(f.p.TotalSwitches(), "switch"), textfmt.USD(f.p.Cost.Total)))
	}
	return append(append(out, unpriced...), "fewer GPUs per fabric (split the cluster)")
}

// candidateFixes lists the changes to try on a fabric too large for three
// tiers, in this order: packed leaves, more planes, each higher-radix
// switch the NIC joins at a shared lane.
func candidateFixes(s Scenario, cat *Catalog, sw *Switch, port, radix, perPlane, reach int) []fitFix {
	var fixes []fitFix
	if s.system(cat) != nil && s.Network.LeafAlignment != AlignPacked {
		c := s
		c.Network.LeafAlignment = AlignPacked
		fixes = append(fixes, fitFix{fmt.Sprintf("leaf_alignment = %q (leaves packed, racks straddling them)", AlignPacked), &c, sw})
	}
	if planes, words := morePlanes(s.Network, ceilDiv(perPlane, max(reach, 1))); reach > 0 && words != "" {
		f := fitFix{words: words}
		if planes > 0 {
			c := s
			c.Network.Planes = planes
			f.s, f.sw = &c, sw
		}
		fixes = append(fixes, f)
	}
	for _, alt := range cat.SwitchesFor(s.Network.Fabric, port) {
		if r := alt.Radix(port); r > radix && SharedLane(alt.LaneGbps, sw.LaneGbps) > 0 { // the NIC joins sw at one of these lanes
			c := s
			c.Network.Switch = alt.Key
			fixes = append(fixes, fitFix{fmt.Sprintf("a higher-radix switch: %s has %d x %dG", alt.Key, r, port), &c, alt})
		}
	}
	return fixes
}

// sizedFixes is fitFixes by sizing alone, as a row of many sizes shows
// it: the changes whose plane fits (sizePlane, no hall, links or BOM),
// unpriced, in candidateFixes' order (not cheapest first), then the
// plane split that needs the NICs' ports split and the cluster split.
func sizedFixes(s Scenario, cat *Catalog, nic *NIC, sw *Switch, port, radix, perPlane, reach int) []string {
	var out, unsized []string
	for _, f := range candidateFixes(s, cat, sw, port, radix, perPlane, reach) {
		if f.s == nil {
			unsized = append(unsized, f.words)
			continue
		}
		if _, err := sizePlane(*f.s, cat, nic, f.sw); err == nil {
			out = append(out, f.words)
		}
	}
	return append(append(out, unsized...), "fewer GPUs per fabric (split the cluster)")
}

// morePlanes suggests the planes that split a fabric need times over
// ("" when past maxPlanes): the fewest that divide a server's back-end
// ports, with their count, or else the split of each NIC's ports that
// makes room for them (count 0: the split is the user's to choose).
func morePlanes(n Network, need int) (int, string) {
	want, ports := n.Planes*need, n.NICsPerServer*n.PortsPerNIC
	if want > maxPlanes {
		return 0, ""
	}
	for planes := want; planes <= ports; planes++ {
		if ports%planes == 0 {
			return planes, fmt.Sprintf("%d planes (network.planes: each plane takes %d of the %d ports a server has, %d times fewer ports a plane)", planes, ports/planes, ports, planes/n.Planes)
		}
	}
	return 0, fmt.Sprintf("at least %d planes, splitting each NIC's ports (network.ports_per_nic) so that they divide a server's ports", want)
}
