package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
)

// facilityFlags are the [facility] table's fields as plan flags: any one
// given lays the plan out in a data hall.
var facilityFlags = []struct{ name, key, usage string }{
	{"facility", "", "lay the plan out in a data hall (on; the default unless --link-layout flat or lengths are given)"},
	{"link-layout", "link_layout", "link lengths: hall (each link measured in the data hall, the default) or flat (one length per tier, network.media)"},
	{"rack-kw", "rack_kw", "rack power budget, kW (default 60)"},
	{"rack-units", "rack_units", "rack height, U (default 42)"},
	{"reserved-units", "reserved_units", "units kept free in each rack (default 2)"},
	{"racks-per-row", "racks_per_row", "racks in one row, network racks included (default 20)"},
	{"rack-width-m", "rack_width_m", "rack width, m (default 0.6)"},
	{"rack-depth-m", "rack_depth_m", "rack depth, m (default 1.1)"},
	{"cold-aisle-m", "cold_aisle_m", "cold aisle width, m (default 1.2)"},
	{"hot-aisle-m", "hot_aisle_m", "hot aisle width, m (default 0.91)"},
	{"tray-height-m", "tray_height_m", "cable tray height above the floor, m (default 2.4)"},
	{"slack-m", "slack_m", "slack per run between racks, m (default 2)"},
	{"rack-slack-m", "rack_slack_m", "slack per link inside a rack, m (default 0.5)"},
	{"typical-pct", "typical_pct", "typical power as a share of peak, % (default 80)"},
	{"leaf-placement", "leaf_placement", "leaves at the middle or end of each row, or tor (in the compute racks)"},
	{"row-order", "row_order", "spine and core rows: network-middle, network-first or network-last"},
	{"server-kw", "server_kw", "a custom server's peak power, kW (default 10.2)"},
	{"server-units", "server_units", "a custom server's height, U (default 8)"},
}

func init() {
	for _, f := range facilityFlags {
		planFlagNames = append(planFlagNames, struct{ name, usage string }{f.name, f.usage})
		if f.key != "" {
			fieldFlag["facility."+f.key] = f.name
		}
	}
}

// runLayout prints the plan's data-hall layout: the facility figures and
// the racks (text), one row per rack (--csv) or the whole layout
// (--json). A scenario without a [facility] table takes the defaults.
func runLayout(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "layout", "[SCENARIO.toml] [plan flags] [--csv|--json]")
	pf := addPlanFlags(fs)
	asCSV := fs.Bool("csv", false, "one row per rack as CSV")
	asJSON := fs.Bool("json", false, "the layout as JSON: figures, rows and racks")
	tier := fs.String("tier", "", "detail one link tier instead (server-leaf, leaf-spine or spine-core): its runs by medium and length, cable metres, transceivers, cost and longest runs")
	longest := fs.Int("longest", defaultLongestRuns, "with --tier: how many of the longest runs to list")
	pos, err := parseWithScenario(fs, args)
	if err != nil {
		return err
	}
	if *asCSV && *asJSON {
		return usagef("give --csv or --json, not both")
	}
	path, err := onePositional(pos)
	if err != nil {
		return err
	}
	in, err := loadScenario(path, pf, fs)
	if err != nil {
		return err
	}
	if in.scenario.Facility == nil {
		in.scenario.Facility = &hall.Facility{}
	}
	p, err := in.build(env.cat)
	if err != nil {
		return err
	}
	h := p.Hall
	if h == nil {
		return fmt.Errorf("no hall to show: %s", in.scenario.NoHallReason(env.cat))
	}
	if *tier != "" {
		return writeTierRuns(env.stdout, p, *tier, *longest, *asCSV, *asJSON)
	}
	switch {
	case *asJSON:
		return writeLayoutJSON(env.stdout, h)
	case *asCSV:
		return writeRacksCSV(env.stdout, h)
	}
	return writeLayoutText(env.stdout, p)
}

// layoutJSON is the layout command's JSON: its head, then its racks.
type layoutJSON struct {
	layoutHead
	Racks []rackJSON `json:"racks"`
}

// layoutHead is the layout's JSON before its racks.
type layoutHead struct {
	Figures  hall.Figures  `json:"figures"`
	Facility hall.Facility `json:"facility"`
	WidthM   float64       `json:"width_m"`
	LengthM  float64       `json:"length_m"`
	Rows     []rowJSON     `json:"rows"`
}

// rackJSON is one rack in the layout's JSON: the CSV's columns under
// the CSV's names (snake_case, units in the name), rows and slots
// counted from 1 as in the rack's name and the tier runs' from_row.
// Its own tags keep a renamed hall.Rack field from renaming a key.
type rackJSON struct {
	Name      string  `json:"rack"`
	Kind      string  `json:"kind"`
	Row       int     `json:"row"`
	Slot      int     `json:"slot"`
	XM        float64 `json:"x_m"`
	YM        float64 `json:"y_m"`
	Nodes     int     `json:"nodes"`
	Switches  int     `json:"switches"`
	UsedU     int     `json:"used_u"`
	PeakKW    float64 `json:"peak_kw"`
	TypicalKW float64 `json:"typical_kw"`
	Cooling   string  `json:"cooling"`
}

// rackJSONOf is rack r as the layout's JSON writes it.
func rackJSONOf(r *hall.Rack) rackJSON {
	return rackJSON{Name: r.Name, Kind: r.Kind, Row: r.Row + 1, Slot: r.Slot + 1, XM: r.X, YM: r.Y, Nodes: r.Nodes,
		Switches: r.Switches, UsedU: r.UsedUnits, PeakKW: r.PeakKW, TypicalKW: r.TypicalKW, Cooling: r.Cooling}
}

// rowJSON is one row of racks in the layout's JSON, counted from 1;
// x_m is its left end and y_m its centre line.
type rowJSON struct {
	Row     int     `json:"row"`
	Network bool    `json:"network"`
	Racks   int     `json:"racks"`
	XM      float64 `json:"x_m"`
	YM      float64 `json:"y_m"`
	PeakKW  float64 `json:"peak_kw"`
}

// headOf is hall h's layout JSON before its racks.
func headOf(h *hall.Hall) layoutHead {
	var rows []rowJSON
	for _, r := range h.Rows {
		rows = append(rows, rowJSON{Row: r.Index + 1, Network: r.Network, Racks: r.Racks, XM: r.X, YM: r.Y, PeakKW: r.PeakKW})
	}
	return layoutHead{Figures: h.Figures, Facility: h.Facility, WidthM: h.WidthM, LengthM: h.LengthM, Rows: rows}
}

// racksJSONOf is hall h's racks as the layout's JSON writes them.
func racksJSONOf(h *hall.Hall) []rackJSON {
	racks := make([]rackJSON, len(h.Racks))
	for i := range h.Racks {
		racks[i] = rackJSONOf(&h.Racks[i])
	}
	return racks
}

// writeLayoutJSON writes the layout as writeJSON writes a layoutJSON,
// byte for byte, but rack by rack: a 1,000,000-GPU hall's 30,000 racks
// are 9 MB of JSON, which the encoder would hold several times over
// (the value, then indented).
func writeLayoutJSON(w io.Writer, h *hall.Hall) error {
	if len(h.Racks) == 0 {
		return writeJSON(w, layoutJSON{headOf(h), nil})
	}
	head, err := json.MarshalIndent(headOf(h), "", jsonIndent)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(bytes.TrimSuffix(head, []byte("\n}")))
	bw.WriteString(",\n" + jsonIndent + `"racks": [`)
	for i := range h.Racks {
		r, err := json.MarshalIndent(rackJSONOf(&h.Racks[i]), jsonIndent+jsonIndent, jsonIndent)
		if err != nil {
			return err
		}
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n" + jsonIndent + jsonIndent)
		bw.Write(r)
	}
	bw.WriteString("\n" + jsonIndent + "]\n}\n")
	return bw.Flush()
}

// rackCSVHeader heads the layout's CSV columns.
var rackCSVHeader = []string{"rack", "kind", "row", "slot", "x_m", "y_m", "nodes", "switches", "used_u", "peak_kw", "typical_kw", "cooling"}

func writeRacksCSV(w io.Writer, h *hall.Hall) error {
	cw := csv.NewWriter(w)
	cw.Write(rackCSVHeader)
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	for _, r := range h.Racks {
		cw.Write([]string{r.Name, r.Kind, strconv.Itoa(r.Row + 1), strconv.Itoa(r.Slot + 1), f(r.X), f(r.Y), strconv.Itoa(r.Nodes),
			strconv.Itoa(r.Switches), strconv.Itoa(r.UsedUnits), f(r.PeakKW), f(r.TypicalKW), r.Cooling})
	}
	cw.Flush()
	return cw.Error()
}

// writeLayoutText prints the facility figures and the longest links.
func writeLayoutText(w io.Writer, p *planner.Plan) error {
	h := p.Hall
	f := h.Figures
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Data hall\t%s racks in %s rows, %.0f m x %.0f m = %s m2\n", textfmt.Int(f.Racks), textfmt.Int(f.Rows), h.WidthM, h.LengthM, textfmt.Int(int(f.AreaM2+0.5)))
	for _, k := range []string{hall.RackCompute, hall.RackLeaf, hall.RackSpine, hall.RackCore} {
		if n := f.RacksByKind[k]; n > 0 {
			fmt.Fprintf(tw, "  %s racks\t%s\n", k, textfmt.Int(n))
		}
	}
	fmt.Fprintf(tw, "Nodes per compute rack\t%d\n", f.NodesPerRack)
	fmt.Fprintf(tw, "Rack power\tpeak %.1f kW, typical %.1f kW (budget %g kW); row peak %.0f kW\n", f.RackKWMax, f.RackKWTypicalMax, f.RackKWBudget, f.RowKWMax)
	over := "none"
	if f.RacksOverBudget > 0 {
		over = textfmt.Int(f.RacksOverBudget) + ": " + textfmt.JoinAnd(f.OverBudget)
	}
	fmt.Fprintf(tw, "Racks over budget\t%s\n", over)
	fmt.Fprintf(tw, "Cooling\t%s liquid-cooled, %s air-cooled racks\n", textfmt.Int(f.LiquidRacks), textfmt.Int(f.AirRacks))
	for _, m := range []planner.Medium{planner.DAC, planner.ACC, planner.AOC, planner.Multimode, planner.Optics} {
		if km := f.CableKM[string(m)]; km > 0 {
			fmt.Fprintf(tw, "Cable, %s\t%s km, %s kg\n", m.Label(), textfmt.KM(km), textfmt.Int(int(f.CableKg[string(m)]+0.5)))
		}
	}
	for _, l := range f.Longest {
		fmt.Fprintf(tw, "Longest %s link\t%g m (%.1f m run, %s to %s) on %s, reach %d m\n", strings.ReplaceAll(l.Tier, "_", "-"), l.Metres, l.RunM, l.From, l.To, planner.Medium(l.Medium).Label(), l.ReachM)
	}
	fmt.Fprintf(tw, "Links by length\t")
	prev := 0.0
	var bins []string
	for _, b := range f.Bins {
		if b.Links == 0 {
			prev = b.UpToM
			continue
		}
		if b.UpToM == 0 {
			bins = append(bins, fmt.Sprintf("over %g m: %s", prev, textfmt.Int(b.Links)))
		} else {
			bins = append(bins, fmt.Sprintf("%g-%g m: %s", prev, b.UpToM, textfmt.Int(b.Links)))
		}
		prev = b.UpToM
	}
	fmt.Fprintf(tw, "%s\n", strings.Join(bins, ", "))
	return tw.Flush()
}
