package cli

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
)

// defaultLongestRuns is how many of a tier's longest runs layout --tier
// lists.
const defaultLongestRuns = 10

// writeTierRuns prints one link tier's runs (layout --tier): text, CSV
// (one row per group of runs, then one per longest run) or JSON.
func writeTierRuns(w io.Writer, p *planner.Plan, tier string, longest int, asCSV, asJSON bool) error {
	if longest < 0 {
		return usagef("--longest %d: give 0 or more runs to list", longest)
	}
	if _, ok := planner.TierKey(tier); !ok {
		return usagef("--tier %q: give server-leaf, leaf-spine or spine-core", tier)
	}
	d, err := p.RunsOf(context.Background(), tier, longest)
	if err != nil {
		return fmt.Errorf("--tier: %w", err)
	}
	switch {
	case asJSON:
		return writeJSON(w, d)
	case asCSV:
		return writeTierRunsCSV(w, d)
	}
	return writeTierRunsText(w, d)
}

// tierRunsCSVHeader heads layout --tier --csv: a "runs" row per medium,
// part and length sold, then a "longest" row per longest run.
var tierRunsCSVHeader = []string{"section", "tier", "medium", "part", "length_m", "links", "cable_m", "run_m", "from_rack", "from_row", "from_u", "to_rack", "to_row", "to_u", "from_device", "from_port", "to_device", "to_port"}

func writeTierRunsCSV(w io.Writer, d planner.TierRuns) error {
	cw := csv.NewWriter(w)
	cw.Write(tierRunsCSVHeader)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, r := range d.Runs {
		cw.Write([]string{"runs", d.Tier, string(r.Medium), r.Part, g(r.Metres), strconv.Itoa(r.Links), f(float64(r.Links) * r.Metres), "", "", "", "", "", "", "", "", "", "", ""})
	}
	for _, l := range d.Longest {
		cw.Write([]string{"longest", d.Tier, string(l.Medium), l.Part, g(l.Metres), "1", g(l.Metres), f(l.RunM),
			l.From, strconv.Itoa(l.FromRow), strconv.Itoa(l.FromU), l.To, strconv.Itoa(l.ToRow), strconv.Itoa(l.ToU), textfmt.CSVText(l.ADevice), l.APort, textfmt.CSVText(l.BDevice), l.BPort})
	}
	cw.Flush()
	return cw.Error()
}

func writeTierRunsText(w io.Writer, d planner.TierRuns) error {
	fmt.Fprintf(w, "Tier %s: %s links, %s m of cable, %s, cabling %s\n", strings.ReplaceAll(d.Tier, "_", "-"), textfmt.Int(d.Links),
		textfmt.Int(int(d.CableM+0.5)), textfmt.Plural(d.Optics, "transceiver"), textfmt.USD(d.CostUSD))
	if !d.Laid {
		fmt.Fprintln(w, "No hall layout: every link at the tier's length.")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\nMedium\tSold\tLinks\tCable\tPart\n")
	for _, r := range d.Runs {
		fmt.Fprintf(tw, "%s\t%g m\t%s\t%s m\t%s\n", r.Medium.Label(), r.Metres, textfmt.Int(r.Links), textfmt.Int(int(float64(r.Links)*r.Metres+0.5)), r.Part)
	}
	if len(d.Longest) > 0 {
		fmt.Fprintf(tw, "\nLongest\tRun\tSold\tMedium\tFrom (rack, row, U)\tTo (rack, row, U)\tLink\n")
	}
	for i, l := range d.Longest {
		fmt.Fprintf(tw, "%d\t%.1f m\t%g m\t%s\t%s, row %d, U%d\t%s, row %d, U%d\t%s %s > %s %s\n", i+1, l.RunM, l.Metres, l.Medium.Label(),
			l.From, l.FromRow, l.FromU, l.To, l.ToRow, l.ToU, l.ADevice, l.APort, l.BDevice, l.BPort)
	}
	return tw.Flush()
}
