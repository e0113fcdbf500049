package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
)

func runPlan(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "plan", "[SCENARIO.toml] [plan flags] [--json]")
	pf := addPlanFlags(fs)
	asJSON := fs.Bool("json", false, "print the plan as JSON")
	networks := fs.Bool("networks", false, "print the cluster's networks (back end, front end, storage, out-of-band) and what the back end adds")
	_, p, err := planArgs(env, fs, pf, args, nil)
	if err != nil {
		return err
	}
	p.FindCheaper(env.cat)
	if *asJSON {
		return writeJSON(env.stdout, p.Report())
	}
	if *networks {
		return writeNetworks(env.stdout, p)
	}
	return writePlanText(env.stdout, p)
}

// jsonIndent is one level of the commands' JSON indent.
const jsonIndent = "  "

// writeJSON writes v as JSON, indented, with a newline after.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", jsonIndent)
	return enc.Encode(v)
}

// writePlanText prints a plan as aligned tables.
func writePlanText(w io.Writer, p *planner.Plan) error {
	writePlanHeader(w, p)
	if nets := p.Networks; nets != nil {
		fmt.Fprintf(w, "  %s; %d network ports per %s in all (back end %d); 'plan --networks' lists the four networks\n\n",
			backEndAddsLine(nets), nets.PortsPerServer(), nodeWord(p), p.ServerPorts)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	writeBackEndAdds(tw, p)
	writeCostPower(tw, p)
	if j := p.JCT; j != nil && p.Inference == nil { // a serving cluster trains nothing: its block is INFERENCE
		writeJobTime(tw, p, j)
	}
	writeServing(tw, p)
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeBOMText(w, p); err != nil {
		return err
	}
	if err := writeUnitBill(w, p.UnitBill()); err != nil {
		return err
	}
	if p.Hall != nil {
		fmt.Fprintln(w, "\nDATA HALL (fabricplan layout for racks and runs)")
		if err := writeLayoutText(w, p); err != nil {
			return err
		}
	}
	if len(p.Notes) > 0 {
		fmt.Fprintln(w, "\nNOTES")
		for _, note := range p.Notes {
			fmt.Fprintln(w, "  - "+note)
		}
	}
	return nil
}

// writePlanHeader prints the plan's title and the lines saying what
// was planned: GPUs, servers or trays, NICs, and the fabric.
func writePlanHeader(w io.Writer, p *planner.Plan) {
	s := p.Scenario
	n := s.Network
	name := textfmt.DisplayName(s.Name)
	if name == "" {
		name = "unnamed scenario"
	}
	fmt.Fprintf(w, "Fabric plan: %s\n", name)
	if sys := p.System; sys != nil && sys.RackScale() {
		fmt.Fprintf(w, "  %s GPUs in %s x %s: %s compute trays of %d GPUs; %d x %s per tray (%s each); NVLink domain %d\n",
			textfmt.Int(p.GPUs), textfmt.Int(p.Systems), sys.Name, textfmt.Int(p.Servers), sys.GPUsPerNode(),
			n.NICsPerServer, p.NIC.Name, nicPorts(n.PortsPerNIC, p.PortGbps), sys.NVLinkDomain)
	} else {
		servers := textfmt.Plural(p.Servers, "server")
		if sys != nil {
			servers = textfmt.Int(p.Servers) + " " + sys.Name
		}
		fmt.Fprintf(w, "  %s in %s of %d; %d x %s per server (%s each)\n",
			textfmt.Plural(p.GPUs, "GPU"), servers, s.Cluster.GPUsPerServer,
			n.NICsPerServer, p.NIC.Name, nicPorts(n.PortsPerNIC, p.PortGbps))
	}
	planes := textfmt.Plural(p.Planes, "plane")
	if n.Style() == planner.TopoRailOnly {
		planes = textfmt.Plural(p.Planes, "rail network")
	}
	fmt.Fprintf(w, "  %s, %s, %s of %s (%d x %dG), %s, leaf %s\n",
		n.Fabric.Name(), textfmt.Plural(p.Tiers, "tier"), planes, p.Switch.Key, p.Switch.Radix(p.PortGbps), p.PortGbps, n.Style(), n.Oversubscription)
	if t := p.UpperSwitchesText(); t != "" {
		fmt.Fprintf(w, "  %s\n", t)
	}
	fmt.Fprintln(w)

}

// writeBackEndAdds prints the table of what the back end adds: ports,
// switches, links, transceivers, units, ratios and headroom.
func writeBackEndAdds(tw io.Writer, p *planner.Plan) {
	fmt.Fprintln(tw, "WHAT THE BACK-END ADDS\t")
	fmt.Fprintf(tw, "  NIC ports\t%s\t(%d per %s)\n", textfmt.Int(p.NICPorts), p.ServerPorts, nodeWord(p))
	fmt.Fprintf(tw, "  Switches\t%s\tleaf %s, spine %s, core %s\n", textfmt.Int(p.TotalSwitches()),
		textfmt.Int(p.Switches(planner.TierLeaf)), textfmt.Int(p.Switches(planner.TierSpine)), textfmt.Int(p.Switches(planner.TierCore)))
	fmt.Fprintf(tw, "  Switch ports\t%s\tused of %s installed\n", textfmt.Int(p.PortsUsed), textfmt.Int(p.PortsTotal))
	fmt.Fprintf(tw, "  Links (cables)\t%s\t%s\n", textfmt.Int(p.Links.Total), p.Links.Parts())
	if ls := p.LeafStorage; ls != nil {
		fmt.Fprintf(tw, "  Storage links	%s	%s storage nodes of %s on %s leaves, up to %d a leaf (counted in the links above)\n",
			textfmt.Int(ls.Links), textfmt.Int(ls.Nodes), textfmt.Plural(ls.PortsEach, "port"), textfmt.Int(ls.Leaves), ls.PortsPerLeaf)
	}
	if lp := p.LeafPairs; lp != nil {
		fmt.Fprintf(tw, "  Peer links\t%s\t%s leaf pairs, %d ports a leaf (beside the links above)\n", textfmt.Int(lp.PeerLinks), textfmt.Int(lp.Pairs), lp.PeerPortsEach)
	}
	fmt.Fprintf(tw, "  Transceivers\t%s\tserver side %s, switch side %s\n", textfmt.Int(p.ServerTransceivers+p.SwitchTransceivers),
		textfmt.Int(p.ServerTransceivers), textfmt.Int(p.SwitchTransceivers))
	fmt.Fprintf(tw, "  Scalable units\t%s\t%s\n", textfmt.Int(p.UnitCount()), p.UnitWords())
	if sp := p.SpeedsText(); sp != "" {
		fmt.Fprintf(tw, "  Port speeds	per tier	%s; built %s (in bandwidth)\n", sp, builtRatios(p))
	}
	if r := p.TierRatiosText(); r != "" {
		fmt.Fprintf(tw, "  Oversubscription\tper tier\t%s\n", r)
	}
	for _, h := range p.Headroom {
		what := textfmt.Int(h.Ports) + " ports"
		if h.Switches > 0 {
			what = textfmt.Int(h.Switches) + " switches"
		}
		fmt.Fprintf(tw, "  Headroom (%s)\t+%s\t%s\n", h.Tier, what, h.Reason)
	}
	fmt.Fprintln(tw, "\t")
}

// writeCostPower prints the cost and power tables.
func writeCostPower(tw io.Writer, p *planner.Plan) {
	c := p.Cost
	fmt.Fprintf(tw, "COST (estimates)\t\t%s\n", basisWords(c.Basis))
	fmt.Fprintf(tw, "  Total\t%s\t%s; range %s to %s\n", textfmt.USD(c.Total), p.PerGPUText(),
		textfmt.USD(c.LowUSD), textfmt.USD(c.HighUSD))
	if len(c.Drivers) > 0 {
		var ds []string
		for _, d := range c.Drivers {
			ds = append(ds, fmt.Sprintf("%s (%s)", d.Key, textfmt.USD(d.SwingUSD)))
		}
		fmt.Fprintf(tw, "  Moved most by\t\t%s, low to high\n", strings.Join(ds, ", "))
	}
	fmt.Fprintf(tw, "  By component\t\tNICs %s, switches %s, transceivers %s, cables %s\n",
		textfmt.USD(c.NICs), textfmt.USD(c.Switches), textfmt.USD(c.Transceivers), textfmt.USD(c.Cables))
	if c.FabricShare > 0 {
		fmt.Fprintf(tw, "  Share of cluster capex\t%.1f%%\tcompute %s (%s)\n", 100*c.FabricShare, textfmt.USD(c.ComputeUSD), computeWords(p))
	}
	for _, b := range p.SanityBands {
		fmt.Fprintf(tw, "  Beside analysts\t%s\t%s\n", b.Position, b.Words(bandFormat(b)))
	}
	if len(p.SanityBands) > 0 {
		fmt.Fprintf(tw, "  Bands' basis\t\t%s\n", p.SanityBands[0].Basis)
	}
	pw := p.Power
	fmt.Fprintf(tw, "POWER (estimates)\t%s\tNICs %s, switches %s, transceivers %s, cables %s\n", textfmt.Watts(pw.Total),
		textfmt.Watts(pw.NICs), textfmt.Watts(pw.Switches), textfmt.Watts(pw.Transceivers), textfmt.Watts(pw.Cables))
}

// writeJobTime prints the job-time table of the plan's workload j.
func writeJobTime(tw io.Writer, p *planner.Plan, j *perf.JCT) {
	fmt.Fprintln(tw, "\t")
	fmt.Fprintf(tw, "JOB TIME (model)\t\t%s on %s, dp %d, %s\n", j.ModelName, j.GPU.Name, j.DP, textfmt.Plural(j.Microbatches, "micro-batch"))
	caveat := ""
	if c := j.StepCaveat(); c != "" {
		caveat = " (" + c + ")"
	}
	fmt.Fprintf(tw, "  Step, RDMA%s\t%s\tcompute %s, bubble %s, exposed comm %s\n", caveat, textfmt.Seconds(j.Planned.StepS),
		textfmt.Seconds(j.Planned.ComputeS), textfmt.Seconds(j.Planned.BubbleS), textfmt.Seconds(j.Planned.ExposedCommS()))
	fmt.Fprintf(tw, "  Step, TCP/IP baseline\t%s\tsame links without RDMA (the protocol's share)\n", textfmt.Seconds(j.Baseline.StepS))
	if f := p.Networks.FrontEndJCTOrNil(); f != nil {
		fmt.Fprintf(tw, "  Step, front end only\t%s\tthe job on the front end alone (TCP): the back end is %s faster\n",
			textfmt.Seconds(f.StepS), textfmt.Gain(f.Gain))
	}
	fmt.Fprintf(tw, "  JCT gain\t%s\t%s vs %s for %s\n", textfmt.Gain(j.Gain), textfmt.Duration(j.Planned.Days),
		textfmt.Duration(j.Baseline.Days), textfmt.Tokens(j.Workload.TokensTotal))
	if v, detail, ok := failuresJCT(p); ok {
		fmt.Fprintf(tw, "  JCT counting failures\t%s\t%s\n", v, detail)
	}
	fmt.Fprintf(tw, "  DP bus bandwidth\t%.1f GB/s\t%s/%s; vs %.1f GB/s over TCP/IP; MFU %.1f%%\n", j.Planned.BusBWGBs, j.Planned.BusBWAlgo, j.Planned.BusBWProto,
		j.Baseline.BusBWGBs, 100*j.Planned.MFU)
	fmt.Fprintln(tw, "  Step breakdown, RDMA\t\t(effects: what each adds to the parts above)")
	for _, r := range j.Breakdown() {
		fmt.Fprintf(tw, "    %s\t%s\t%s\n", r.Label(), r.Time(), r.Detail)
	}
	m := j.Memory
	fmt.Fprintf(tw, "  Memory per GPU\t%.1f of %.0f GB\t%s; %s stage: weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f, reserve %.0f\n",
		m.TotalGB, m.HBMGB, m.Status, m.Stage, m.WeightsGB, m.GradientsGB, m.OptimizerGB, m.ActivationsGB, m.ReserveGB)
	if f := j.Fix; f != nil {
		fmt.Fprintf(tw, "  Step with %s\t%s\tthe cheapest change that fits (%.1f GB per GPU); gain %s, %s\n", f.Change,
			textfmt.Seconds(f.JCT.Planned.StepS), f.JCT.Memory.TotalGB, textfmt.Gain(f.JCT.Gain), textfmt.Duration(f.JCT.Planned.Days))
	}
	for _, f := range j.Findings {
		fmt.Fprintf(tw, "  Finding\t\t%s\n", f)
	}
}

// writeBOMText prints the bill of materials with its estimate and quote
// marks.
func writeBOMText(w io.Writer, p *planner.Plan) error {
	fmt.Fprintln(w, "\nBILL OF MATERIALS")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "ITEM\tWHERE\tQTY\tUNIT\tTOTAL\tPOWER\t")
	var quoted []string
	for _, l := range p.BOM {
		est := ""
		switch {
		case l.QuoteExpired:
			est = "!"
		case l.Quote != nil:
			est = "q"
		case l.Estimate:
			est = "*"
		}
		if l.Quote != nil && !l.Spare {
			quoted = append(quoted, fmt.Sprintf("  %s %s: %s", est, l.Key, l.Source))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s\t%s\t%s\t\n", l.Key, l.Where, textfmt.Int(l.Qty),
			textfmt.USDExact(l.UnitUSD), est, textfmt.USD(l.TotalUSD), textfmt.Watts(l.TotalWatts))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "  * estimate: see 'fabricplan catalog' for each source")
	if len(quoted) > 0 {
		fmt.Fprintln(w, "  q quoted, ! quote expired:")
		fmt.Fprintln(w, strings.Join(slices.Compact(quoted), "\n"))
	}
	return nil
}

// writeUnitBill writes the per-SU table of the reference architectures.
func writeUnitBill(w io.Writer, b planner.UnitBill) error {
	fmt.Fprintln(w, "\nPER SCALABLE UNIT")
	fmt.Fprintln(w, "  "+b.Heading())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	group := ""
	for _, r := range b.Rows {
		if r.Group != group {
			group = r.Group
			fmt.Fprintf(tw, "  %s\tONE SU\tCLUSTER\t\n", strings.ToUpper(group))
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s\t\n", r.Item, r.UnitText(), textfmt.Int(r.Cluster))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if b.Shares() {
		fmt.Fprintln(w, "  "+planner.ShareNote)
	}
	return nil
}

func runCatalog(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "catalog", "[--json]")
	asJSON := fs.Bool("json", false, "print the catalog as JSON")
	if _, err := parseWithScenario(fs, args); err != nil {
		return err
	}
	c := env.cat
	if *asJSON {
		return writeJSON(env.stdout, c)
	}
	w := env.stdout
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	est := func(e bool) string {
		if e {
			return "estimate"
		}
		return ""
	}
	rng := func(price float64, r [2]float64, pr planner.Pricing) string {
		return fmt.Sprintf("%s\t%s-%s\t%s", textfmt.USDExact(price), textfmt.USDExact(r[0]), textfmt.USDExact(r[1]), pricingCols(pr))
	}
	const priceHead = "PRICE\tRANGE\tCONDITION\tGRADE\tDATE"
	fmt.Fprintln(tw, "SYSTEMS\tGPUS\tNODES x NICS\t"+priceHead+"\tWATTS\t")
	for _, k := range planner.SortedKeys(c.Systems) {
		s := c.Systems[k]
		fmt.Fprintf(tw, "%s\t%d\t%d x %d %s\t%s\t%.0f\t%s\n", k, s.GPUs, s.Nodes, s.NICsPerNode, s.NIC, rng(s.PriceUSD, s.PriceRangeUSD, s.Pricing), s.Watts, est(s.Source.Estimate))
	}
	fmt.Fprintln(tw, "\t")
	fmt.Fprintln(tw, "SWITCHES\tFABRIC\tPORTS\t"+priceHead+"\tWATTS\t")
	for _, k := range c.SwitchKeys() {
		s := c.Switches[k]
		var ports []string
		for _, g := range s.Speeds() {
			ports = append(ports, fmt.Sprintf("%dx%dG", s.Radix(g), g))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.0f\t%s\n", k, s.Fabric, strings.Join(ports, " "), rng(s.PriceUSD, s.PriceRangeUSD, s.Pricing), s.Watts, est(s.Source.Estimate))
	}
	fmt.Fprintln(tw, "\t")
	fmt.Fprintln(tw, "NICS\tSPEED\tFORM\t"+priceHead+"\tWATTS\t")
	for _, k := range c.NICKeys() {
		n := c.NICs[k]
		fmt.Fprintf(tw, "%s\t%dG\t%s\t%s\t%.0f\t%s\n", k, n.Gbps, n.Form, rng(n.PriceUSD, n.PriceRangeUSD, n.Pricing), n.Watts, est(n.Source.Estimate))
	}
	fmt.Fprintln(tw, "\t")
	fmt.Fprintln(tw, "TRANSCEIVERS\tLINKS\tFORM\t"+priceHead+"\tWATTS\t")
	for _, k := range planner.SortedKeys(c.Transceivers) {
		t := c.Transceivers[k]
		fmt.Fprintf(tw, "%s\t%dx%dG\t%s\t%s\t%.0f\t%s\n", k, t.Links, t.LinkGbps, t.Form, rng(t.PriceUSD, t.PriceRangeUSD, t.Pricing), t.Watts, est(t.Source.Estimate))
	}
	fmt.Fprintln(tw, "\t")
	fmt.Fprintln(tw, "CABLES\tPRICE\t\t\tRANGE\tCONDITION\tGRADE\tDATE\tWATTS\t")
	for _, k := range planner.SortedKeys(c.Cables) {
		cb := c.Cables[k]
		fmt.Fprintf(tw, "%s\t$%.0f + $%.2f/m\t\t\t%gx-%gx\t%s\t%.0f\t%s\n", k, cb.PriceBaseUSD, cb.PricePerMUSD, cb.PriceRangeFactor[0], cb.PriceRangeFactor[1], pricingCols(cb.Pricing), cb.Watts, est(cb.Source.Estimate))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	writeCatalogSources(w, c)
	if d := c.Prices; d != nil {
		fmt.Fprintf(w, "\nPRICE BASIS\n  default %s; list multiplies the parts marked list_premium by %gx (range %gx-%gx)\n    source: %s\n",
			d.DefaultBasis, d.ListPremium.Factor, d.ListPremium.Range[0], d.ListPremium.Range[1], d.ListPremium.Source)
	}
	return writeSideCatalog(w, c)
}

// writeCatalogSources prints the source of every catalog part.
func writeCatalogSources(w io.Writer, c *planner.Catalog) {
	fmt.Fprintln(w, "\nSOURCES")
	for _, k := range planner.SortedKeys(c.Systems) {
		writeSource(w, k, c.Systems[k].Source, c.Systems[k].Pricing)
	}
	for _, k := range c.SwitchKeys() {
		writeSource(w, k, c.Switches[k].Source, c.Switches[k].Pricing)
	}
	for _, k := range c.NICKeys() {
		writeSource(w, k, c.NICs[k].Source, c.NICs[k].Pricing)
	}
	for _, k := range planner.SortedKeys(c.Transceivers) {
		writeSource(w, k, c.Transceivers[k].Source, c.Transceivers[k].Pricing)
	}
	for _, k := range planner.SortedKeys(c.Cables) {
		writeSource(w, k, c.Cables[k].Source, c.Cables[k].Pricing)
	}
}

// pricingCols is a part's price condition, grade and date as table
// columns.
func pricingCols(p planner.Pricing) string {
	grade := p.Grade
	if p.ListPremium {
		grade += " (list: +premium)"
	}
	return p.Condition + "\t" + grade + "\t" + p.Date
}

func writeSource(w io.Writer, key string, s planner.Source, pr planner.Pricing) {
	fmt.Fprintf(w, "  %s (as of %s):\n", key, s.AsOf)
	fx := ""
	if pr.FX != nil {
		fx = "converted " + pr.FX.Words()
	}
	for _, kv := range [][2]string{{"ports", s.Ports}, {"price", s.Price}, {"range", s.Range}, {"fx", fx}, {"watts", s.Watts}, {"reach", s.Reach},
		{"height", s.RackUnits}, {"sold", s.Lengths}} {
		if kv[1] != "" {
			fmt.Fprintf(w, "    %-6s %s\n", kv[0]+":", kv[1])
		}
	}
}

// bandFormat formats a sanity band's figures: money, or a share.
func bandFormat(b planner.SanityCheck) func(float64) string {
	if b.High <= 1 {
		return func(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }
	}
	return textfmt.USDExact
}

// basisWords says what a price basis means.
func basisWords(basis string) string {
	switch basis {
	case planner.BasisList:
		return "list basis: branded optics at the vendor premium"
	case planner.BasisVolume:
		return "volume basis: hyperscale ASPs where sourced, else street less a stated discount"
	}
	return "street basis: third-party optics, retail prices"
}

// nodeWord names what the fabric's endpoints are housed in.
func nodeWord(p *planner.Plan) string {
	if p.System != nil && p.System.RackScale() {
		return "tray"
	}
	return "server"
}

// computeWords says how the compute capex was counted.
func computeWords(p *planner.Plan) string {
	price, units := p.ComputeUnitUSD()
	if sys := p.System; sys != nil {
		w := fmt.Sprintf("%d x %s at %s", units, sys.Key, textfmt.USD(price))
		if sys.NICsIncluded {
			w += ", less the NICs they include, counted in the fabric"
		}
		return w
	}
	return fmt.Sprintf("%s at %s", textfmt.Plural(units, "server"), textfmt.USD(price))
}

// nicPorts says how a NIC's ports split: "one 400G port", "2 x 200G ports".
func nicPorts(ports, gbps int) string {
	if ports == 1 {
		return fmt.Sprintf("one %dG port", gbps)
	}
	return fmt.Sprintf("%d x %dG ports", ports, gbps)
}

// builtRatios lists the bandwidth ratio built at each tier with uplinks,
// as "leaf 1:1, spine 1:1".
func builtRatios(p *planner.Plan) string {
	var parts []string
	for _, o := range p.BuiltOversubscription() {
		parts = append(parts, o.Tier+" "+textfmt.Oversub(o.Ratio))
	}
	if len(parts) == 0 {
		return "one switch, no uplinks"
	}
	return strings.Join(parts, ", ")
}
