package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// writeNetworks prints the cluster's networks, one row each, and what the
// back end adds to the cluster without it.
func writeNetworks(w io.Writer, p *planner.Plan) error {
	n := p.Networks
	if n == nil {
		_, err := fmt.Fprintln(w, "no networks beside the back end: the catalog has no side_defaults")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NETWORK\tKIND\tPORTS/SERVER\tSPEED\tPORTS\tSWITCHES\tLINKS\tOPTICS\tCOST\tPOWER\t")
	for _, s := range n.List {
		speed := ""
		if s.PortGbps > 0 {
			speed = fmt.Sprintf("%dG", s.PortGbps)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.Name, s.Kind, s.PortsPerServer, speed,
			textfmt.Int(s.Ports), textfmt.Int(s.Switches), textfmt.Int(s.Links), textfmt.Int(s.Transceivers),
			textfmt.USD(s.CostUSD), textfmt.Watts(s.PowerW))
	}
	t := n.Total
	fmt.Fprintf(tw, "whole cluster\t\t%d\t\t%s\t%s\t\t%s\t%s\t%s\t\n", n.PortsPerServer(), textfmt.Int(t.Ports), textfmt.Int(t.Switches),
		textfmt.Int(t.Transceivers), textfmt.USD(t.CostUSD), textfmt.Watts(t.PowerW))
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, backEndAddsLine(n))
	if f := n.FrontEndJCT; f != nil {
		fmt.Fprintf(w, "Without a back end: the job on the front end alone (TCP) takes %s a step against %s with RDMA on the back end: the back end is %s faster\n",
			textfmt.Seconds(f.StepS), textfmt.Seconds(f.BackEndStepS), textfmt.Gain(f.Gain))
	}
	if c := n.Checkpoint; c != nil {
		bound := ""
		if c.BoundBy == planner.BoundStorage {
			bound = ", the storage's write bandwidth,"
		}
		fmt.Fprintf(w, "Checkpoint write: %s (%.0f GB of model state at %.0f GB/s%s over the %s)\n",
			textfmt.Interval(c.WriteS), c.StateGB, c.BandwidthGBs, bound, c.Via)
	}
	writeSwitchSources(w, n)
	writeMgmtSource(w, n)
	_, err := fmt.Fprintln(w, "Sources: "+n.Source+"; prices are estimates, see 'fabricplan catalog'")
	return err
}

// writeSwitchSources names the published designs the switch counts come
// from, each with what it gives each network (its note, the first).
func writeSwitchSources(w io.Writer, n *planner.Networks) {
	var sources []string
	for _, s := range n.List {
		if s.SwitchesSource != "" && !slices.Contains(sources, s.SwitchesSource) {
			sources = append(sources, s.SwitchesSource)
		}
	}
	for _, src := range sources {
		fmt.Fprintf(w, "Switch counts from %s:\n", src)
		for _, s := range n.List {
			if s.SwitchesSource == src && len(s.Notes) > 0 {
				fmt.Fprintf(w, "  %s: %s\n", s.Name, s.Notes[0])
			}
		}
	}
}

// writeMgmtSource names where the management servers' count comes from
// when that is not the networks' own source (a rule by the cluster's
// size, or the scenario).
func writeMgmtSource(w io.Writer, n *planner.Networks) {
	for _, s := range n.List {
		if s.Name == planner.NetMgmt && s.Source != n.Source && len(s.Notes) > 0 {
			fmt.Fprintf(w, "%s; from %s\n", s.Notes[0], s.Source)
		}
	}
}

// backEndAddsLine says what the back end adds to the cluster without it.
func backEndAddsLine(n *planner.Networks) string {
	a := n.BackEndAdds
	share := ""
	if n.Total.CostUSD > 0 {
		share = fmt.Sprintf(" (%.0f%% of the network spend)", 100*a.CostUSD/n.Total.CostUSD)
	}
	beside := ""
	if b := n.BesideText("transceivers"); b != "" {
		beside = " (" + b + ")"
	}
	return fmt.Sprintf("The back end adds %s, %s, %s, %s%s and %s to the cluster without it%s",
		textfmt.Plural(a.Ports, "port"), textfmt.Plural(a.Switches, "switch"), textfmt.Plural(a.Transceivers, "transceiver"),
		textfmt.USD(a.CostUSD), share, textfmt.Watts(a.PowerW), beside)
}

// writeSideCatalog lists the parts of the networks beside the back end
// and each system's default networks, with their sources.
func writeSideCatalog(w io.Writer, c *planner.Catalog) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	rng := func(price float64, r [2]float64, p planner.Pricing) string {
		return fmt.Sprintf("%s\t%s-%s\t%s\t%s\t%s", textfmt.USDExact(price), textfmt.USDExact(r[0]), textfmt.USDExact(r[1]),
			p.Condition, p.Grade, p.Date)
	}
	fmt.Fprintln(tw, "\nNETWORKS BESIDE THE BACK END\tWHAT\tPRICE\tRANGE\tCONDITION\tGRADE\tDATE\tWATTS\t")
	for _, k := range planner.SortedKeys(c.SideSwitches) {
		s := c.SideSwitches[k]
		var ports []string
		for _, g := range s.Speeds() {
			ports = append(ports, fmt.Sprintf("%dx%dG", s.Radix(g), g))
		}
		fmt.Fprintf(tw, "%s\tswitch %s\t%s\t%.0f\t\n", k, strings.Join(ports, " "), rng(s.PriceUSD, s.PriceRangeUSD, s.Pricing), s.Watts)
	}
	for _, k := range planner.SortedKeys(c.SideNICs) {
		n := c.SideNICs[k]
		fmt.Fprintf(tw, "%s\tadapter %dx%dG\t%s\t%.0f\t\n", k, n.Ports, n.Gbps, rng(n.PriceUSD, n.PriceRangeUSD, n.Pricing), n.Watts)
	}
	for _, k := range planner.SortedKeys(c.SideLinks) {
		l := c.SideLinks[k]
		fmt.Fprintf(tw, "%s\tlink %dG, %d modules\t%s\t%.0f\t\n", k, l.Gbps, l.Modules, rng(l.PriceUSD, l.PriceRangeUSD, l.Pricing), l.Watts)
	}
	for _, k := range planner.SortedKeys(c.SideServers) {
		s := c.SideServers[k]
		fmt.Fprintf(tw, "%s\tmanagement server\t%s\t%.0f\t\n", k, rng(s.PriceUSD, s.PriceRangeUSD, s.Pricing), s.Watts)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, k := range planner.SortedKeys(c.SideSwitches) {
		writeSource(w, k, c.SideSwitches[k].Source, c.SideSwitches[k].Pricing)
	}
	for _, k := range planner.SortedKeys(c.SideNICs) {
		writeSource(w, k, c.SideNICs[k].Source, c.SideNICs[k].Pricing)
	}
	for _, k := range planner.SortedKeys(c.SideLinks) {
		writeSource(w, k, c.SideLinks[k].Source, c.SideLinks[k].Pricing)
	}
	for _, k := range planner.SortedKeys(c.SideServers) {
		writeSource(w, k, c.SideServers[k].Source, c.SideServers[k].Pricing)
	}
	fmt.Fprintln(w, "\nDEFAULT NETWORKS PER SYSTEM")
	for _, k := range planner.SortedKeys(c.SideDefaults) {
		d := c.SideDefaults[k]
		fmt.Fprintf(w, "  %s: front end %s %d x %dG at %s; storage %s (%s, %d x %dG, %.3f GB/s per GPU); OOB %s\n    source: %s\n",
			k, d.FrontEnd, d.FrontEndPorts, d.FrontEndGbps, d.FrontEndOversubscription, d.Storage, d.StorageFabric, d.StoragePorts,
			d.StorageGbps, d.StorageGBsPerGPU, d.OOB, d.Source)
	}
	return nil
}
