package validation

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"fabricplan/internal/datadoc"
	"fabricplan/planner"
)

// PriceCheckFile is the published price points' and whole-cluster
// figures' path in data/.
const PriceCheckFile = "pricecheck.toml"

// Kinds of price-check point.
const (
	// KindPrice is one unit of a catalog part at a published price.
	KindPrice = "price"
	// KindCluster is a published figure of a whole named cluster or
	// reference design: a count, a spend or the network's capex share.
	KindCluster = "cluster"
)

// ClusterTolerance is how far a plan's whole-cluster figure may lie from
// the published one and still count as a hit: 10%, relative (issue #46's
// "within 10%").
const ClusterTolerance = 0.10

// Whole-cluster metrics a point may name.
const (
	MetricSwitches     = "switches"         // back-end switches (tier: one tier's)
	MetricLinks        = "links"            // back-end links (cables)
	MetricTransceivers = "transceivers"     // back-end transceivers, server and switch side
	MetricSwitchesUSD  = "switches_usd"     // back-end switch spend
	MetricOpticsUSD    = "transceivers_usd" // back-end transceiver spend
	MetricFabricUSD    = "fabric_usd"       // back-end switches, transceivers and cables, without NICs
	MetricNetworkShare = "network_share"    // every network's cost over networks plus compute
	MetricSideSwitches = "side_switches"    // one network's switches beside the back end (network)
)

// clusterMetrics are the metrics a whole-cluster point may name, with
// the unit each is shown in.
var clusterMetrics = map[string]string{
	MetricSwitches: "switches", MetricLinks: "links", MetricTransceivers: "transceivers",
	MetricSwitchesUSD: "USD", MetricOpticsUSD: "USD", MetricFabricUSD: "USD",
	MetricNetworkShare: "share", MetricSideSwitches: "switches",
}

// priceBases are the bases a point's source may describe.
var priceBases = []string{planner.BasisStreet, planner.BasisList, planner.BasisVolume}

// PricePoint is one published price point or whole-cluster figure
// (data/pricecheck.toml).
type PricePoint struct {
	ID    string `toml:"id"`
	Split string `toml:"split"` // dev or heldout
	// Batch is the collection the point came in (0 and 1: the first); the
	// split is made within a batch, so a later one never moves a point.
	Batch int    `toml:"batch"`
	Kind  string `toml:"kind"`  // price or cluster
	Title string `toml:"title"` // the source's title; the split sorts by it
	// Part is a price point's catalog key; Metric, Tier and Network what
	// a whole-cluster point measures; Scenario names its cluster.
	Part     string `toml:"part"`
	Metric   string `toml:"metric"`
	Tier     string `toml:"tier"`
	Network  string `toml:"network"`
	Scenario string `toml:"scenario"`
	// Basis is the price basis the source describes (street, list or
	// volume); BasisNote why. A count needs none.
	Basis     string `toml:"basis"`
	BasisNote string `toml:"basis_note"`
	// Figure is the source's low and high (the same twice for one
	// figure), in US dollars, a count or a share.
	Figure   [2]float64 `toml:"figure"`
	Quantity string     `toml:"quantity"`
	Date     string     `toml:"date"` // the source's date, or "undated"
	Said     string     `toml:"said"` // the source's words
	URL      string     `toml:"url"`
	Read     string     `toml:"read"`    // when it was read
	ReadIn   string     `toml:"read_in"` // where, when not at URL
	// CatalogCites says the catalog's price or range for the part names
	// this source already: such a point cannot test the catalog.
	CatalogCites bool `toml:"catalog_cites"`
}

// Published is the figure the check compares: the middle of the
// source's range.
func (p PricePoint) Published() float64 { return (p.Figure[0] + p.Figure[1]) / 2 }

// Unit is the unit of the point's figure.
func (p PricePoint) Unit() string {
	if p.Kind == KindPrice {
		return "USD"
	}
	return clusterMetrics[p.Metric]
}

// What is what the point prices or counts, in a few words.
func (p PricePoint) What() string {
	switch {
	case p.Kind == KindPrice:
		return p.Part
	case p.Tier != "":
		return p.Metric + " (" + p.Tier + ")"
	case p.Network != "":
		return p.Metric + " (" + p.Network + ")"
	}
	return p.Metric
}

// PriceCheckData is data/pricecheck.toml: the points, and the scenario
// text of each named cluster.
type PriceCheckData struct {
	Points    []PricePoint      `toml:"point"`
	Scenarios map[string]string `toml:"scenario"`
}

// LoadPriceCheck reads data/pricecheck.toml from fsys.
func LoadPriceCheck(fsys fs.FS) (*PriceCheckData, error) {
	src, err := fs.ReadFile(fsys, PriceCheckFile)
	if err != nil {
		return nil, fmt.Errorf("read the price check: %w", err)
	}
	return ParsePriceCheck(src)
}

// ParsePriceCheck decodes and checks the price check's points.
func ParsePriceCheck(src []byte) (*PriceCheckData, error) {
	var doc struct {
		Schema int `toml:"schema"`
		PriceCheckData
	}
	if err := datadoc.Decode("price check", src, &doc, &doc.Schema); err != nil {
		return nil, err
	}
	d := &doc.PriceCheckData
	seen := map[string]bool{}
	for _, p := range d.Points {
		if err := d.check(p); err != nil {
			return nil, fmt.Errorf("price check: point %q: %w", p.ID, err)
		}
		if seen[p.ID] {
			return nil, fmt.Errorf("price check: point %q given twice", p.ID)
		}
		seen[p.ID] = true
	}
	return d, nil
}

// check validates one point's fields.
func (d *PriceCheckData) check(p PricePoint) error {
	switch {
	case slices.Contains([]string{p.ID, p.Title, p.Said, p.URL, p.Read, p.Date}, ""):
		return errors.New("needs an id, title, said, url, read and date")
	case p.Split != SplitDev && p.Split != SplitHeldOut:
		return fmt.Errorf("split %q, want %q or %q", p.Split, SplitDev, SplitHeldOut)
	case p.Batch < 0:
		return fmt.Errorf("batch %d, want 1 or more", p.Batch)
	case !(p.Figure[0] > 0 && p.Figure[0] <= p.Figure[1]):
		return fmt.Errorf("figure %v, want 0 < low <= high", p.Figure)
	case p.Basis != "" && !slices.Contains(priceBases, p.Basis):
		return fmt.Errorf("basis %q, want one of %s", p.Basis, strings.Join(priceBases, ", "))
	}
	switch p.Kind {
	case KindPrice:
		if p.Part == "" || p.Basis == "" {
			return errors.New("a price point needs a part and a basis")
		}
	case KindCluster:
		return d.checkCluster(p)
	default:
		return fmt.Errorf("kind %q, want %q or %q", p.Kind, KindPrice, KindCluster)
	}
	return nil
}

// checkCluster validates a whole-cluster point's metric and scenario.
func (d *PriceCheckData) checkCluster(p PricePoint) error {
	unit, ok := clusterMetrics[p.Metric]
	switch {
	case !ok:
		return fmt.Errorf("metric %q is not one the check knows", p.Metric)
	case d.Scenarios[p.Scenario] == "":
		return fmt.Errorf("scenario %q is not in [scenario]", p.Scenario)
	case unit == "USD" && p.Basis == "":
		return fmt.Errorf("a %s figure needs the basis its source describes", p.Metric)
	case (p.Metric == MetricSideSwitches) != (p.Network != ""):
		return errors.New("a side_switches figure, and only one, names its network")
	}
	return nil
}

// PriceResult is one point checked: the catalog's price and range on
// the point's basis (a price point), or the plan's figure (a
// whole-cluster point).
type PriceResult struct {
	Point PricePoint
	// Value is the catalog's price or the plan's figure; Low and High
	// the catalog's range (a price point) or the band that counts as a
	// hit (a whole-cluster point).
	Value, Low, High float64
	// Err says why the point has no figure.
	Err error
}

// Within says whether the published figure falls inside the catalog's
// range (a price point), or the plan's figure within ClusterTolerance
// of the published one or inside the source's own range.
func (r PriceResult) Within() bool {
	if r.Err != nil {
		return false
	}
	if r.Point.Kind == KindPrice {
		return inRange(r.Point.Published(), r.Low, r.High)
	}
	return inRange(r.Value, r.Low, r.High)
}

// Miss is the signed miss, relative to the published figure: for a price
// point how far the catalog's range lies from it (positive: the range is
// above the published price), 0 inside; for a whole-cluster point the
// plan's error (positive: the plan's figure is higher), whether within
// the tolerance or not.
func (r PriceResult) Miss() float64 {
	pub := r.Point.Published()
	switch {
	case r.Err != nil:
		return 0
	case r.Point.Kind == KindCluster:
		return (r.Value - pub) / pub
	case pub < r.Low:
		return (r.Low - pub) / pub
	case pub > r.High:
		return (r.High - pub) / pub
	}
	return 0
}

// CheckPricePoints checks every point on cat: a price point priced with
// the catalog on its basis (planner.Catalog.PriceOn, the plan's own
// pricing), a whole-cluster point by building its scenario with its
// networks, once for each scenario and basis.
func CheckPricePoints(d *PriceCheckData, cat *planner.Catalog) []PriceResult {
	plans := map[[2]string]*planned{}
	out := make([]PriceResult, len(d.Points))
	for i, p := range d.Points {
		r := PriceResult{Point: p}
		if p.Kind == KindPrice {
			pp, err := cat.PriceOn(p.Part, p.Basis)
			r.Value, r.Low, r.High, r.Err = pp.USD, pp.LowUSD, pp.HighUSD, err
		} else {
			key := [2]string{p.Scenario, p.Basis}
			if plans[key] == nil {
				pl, err := buildCluster(d.Scenarios[p.Scenario], p.Basis, cat)
				plans[key] = &planned{pl, err}
			}
			r.Value, r.Err = plans[key].metric(p)
			r.Low, r.High = clusterBand(p)
		}
		out[i] = r
	}
	return out
}

// clusterBand is the band a plan's figure for a whole-cluster point
// must fall in: within ClusterTolerance of the published figure, or
// inside the source's own range where that is wider.
func clusterBand(p PricePoint) (lo, hi float64) {
	return min(p.Figure[0], p.Published()*(1-ClusterTolerance)), max(p.Figure[1], p.Published()*(1+ClusterTolerance))
}

// planned is a cluster's plan, or why it has none.
type planned struct {
	plan *planner.Plan
	err  error
}

// buildCluster builds a whole-cluster point's scenario, with its
// networks, priced on basis (the catalog's default when "").
func buildCluster(text, basis string, cat *planner.Catalog) (*planner.Plan, error) {
	s, err := planner.ScenarioFromData([]byte(text))
	if err == nil {
		s.Pricing.Basis = basis
		err = s.Validate(cat)
	}
	if err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	return planner.BuildWith(s.WithSystem(cat), cat, planner.BuildOptions{Networks: true})
}

// metric is the plan's figure for p's metric.
func (c *planned) metric(p PricePoint) (float64, error) {
	if c.err != nil {
		return 0, c.err
	}
	pl := c.plan
	switch p.Metric {
	case MetricSwitches:
		if p.Tier != "" {
			return float64(pl.Switches(p.Tier)), nil
		}
		return float64(pl.TotalSwitches()), nil
	case MetricLinks:
		return float64(pl.Links.Sum()), nil
	case MetricTransceivers:
		return float64(pl.ServerTransceivers + pl.SwitchTransceivers), nil
	case MetricSwitchesUSD:
		return pl.Cost.Switches, nil
	case MetricOpticsUSD:
		return pl.Cost.Transceivers, nil
	case MetricFabricUSD:
		return pl.Cost.Switches + pl.Cost.Transceivers + pl.Cost.Cables, nil
	}
	return sideMetric(pl, p)
}

// sideMetric is a figure of the networks beside the back end.
func sideMetric(pl *planner.Plan, p PricePoint) (float64, error) {
	if pl.Networks == nil {
		return 0, errors.New("the plan sizes no networks beside the back end")
	}
	if p.Metric == MetricSideSwitches {
		n := pl.Networks.Net(p.Network)
		if n == nil {
			return 0, fmt.Errorf("the plan has no network %q", p.Network)
		}
		return float64(n.Switches), nil
	}
	nets, compute := pl.Networks.Total.CostUSD, pl.Cost.ComputeUSD
	if !(compute > 0) {
		return 0, errors.New("the plan prices no compute, so it has no capex share")
	}
	return nets / (nets + compute), nil
}

// PriceKey is a price-check point's key in the ratchet.
func PriceKey(id string) string { return "price check: " + id }

// PriceMeasures are the results as the ratchet records them: a price
// point's miss outside the catalog's range and a whole-cluster point's
// |error|, in percent.
func PriceMeasures(rs []PriceResult) []Measure {
	out := make([]Measure, len(rs))
	for i, r := range rs {
		out[i] = Measure{Key: PriceKey(r.Point.ID), AbsErrorPct: 100 * math.Abs(r.Miss()), Err: r.Err}
	}
	return out
}

// PriceAccuracy is the hit rate by split and kind (dev first), and
// among the price points whose source the catalog does not cite: a
// group's Within is its hits, its errors the misses.
func PriceAccuracy(rs []PriceResult) []Accuracy {
	var out []Accuracy
	for _, split := range []string{SplitDev, SplitHeldOut} {
		for _, g := range []struct {
			name string
			in   func(p PricePoint) bool
		}{
			{"price", func(p PricePoint) bool { return p.Kind == KindPrice }},
			{"price, source not cited by the catalog", func(p PricePoint) bool { return p.Kind == KindPrice && !p.CatalogCites }},
			{"whole cluster", func(p PricePoint) bool { return p.Kind == KindCluster }},
		} {
			a := Accuracy{Group: split + " " + g.name}
			for _, r := range rs {
				if r.Point.Split == split && g.in(r.Point) {
					a.add(r.Point.ID, r.Miss(), r.Within(), r.Err)
				}
			}
			out = append(out, a)
		}
	}
	return out
}

// PriceCheckRow is one checked point as validate --json lists it.
type PriceCheckRow struct {
	ID           string  `json:"id"`
	Split        string  `json:"split"`
	Kind         string  `json:"kind"`
	What         string  `json:"what"` // the part, or the metric
	Basis        string  `json:"basis,omitempty"`
	Published    float64 `json:"published"`
	Unit         string  `json:"unit"`
	Value        float64 `json:"value"` // the catalog's price or the plan's figure
	Low          float64 `json:"low"`
	High         float64 `json:"high"`
	Within       bool    `json:"within"`
	MissPct      float64 `json:"miss_pct"` // signed, relative to the published figure
	CatalogCites bool    `json:"catalog_cites"`
	Date         string  `json:"date"`
	Source       string  `json:"source"`
	URL          string  `json:"url"`
	Problem      string  `json:"problem,omitempty"`
}

// PriceCheck is the price check as validate shows it: every point, the
// hit rates, and the tolerance.
type PriceCheck struct {
	ClusterTolerance float64         `json:"cluster_tolerance"`
	Points           []PriceCheckRow `json:"points"`
	Accuracy         []Accuracy      `json:"accuracy"`
	results          []PriceResult
}

// CheckPrices loads data/pricecheck.toml from fsys and checks every
// point on cat.
func CheckPrices(fsys fs.FS, cat *planner.Catalog) (*PriceCheck, error) {
	d, err := LoadPriceCheck(fsys)
	if err != nil {
		return nil, err
	}
	rs := CheckPricePoints(d, cat)
	pc := &PriceCheck{ClusterTolerance: ClusterTolerance, Accuracy: PriceAccuracy(rs), results: rs}
	for _, r := range rs {
		p := r.Point
		row := PriceCheckRow{ID: p.ID, Split: p.Split, Kind: p.Kind, What: p.What(), Basis: p.Basis, Published: p.Published(), Unit: p.Unit(),
			Value: r.Value, Low: r.Low, High: r.High, Within: r.Within(), MissPct: 100 * r.Miss(), CatalogCites: p.CatalogCites,
			Date: p.Date, Source: p.Title, URL: p.URL}
		if r.Err != nil {
			row.Problem = r.Err.Error()
		}
		pc.Points = append(pc.Points, row)
	}
	return pc, nil
}

// Measures are the check's results as the ratchet records them.
func (pc *PriceCheck) Measures() []Measure { return PriceMeasures(pc.results) }

// WriteText prints the check as validate's text section: each point
// with its verdict, each miss with its size and direction, and the hit
// rates.
func (pc *PriceCheck) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "\nPUBLISHED PRICES AND WHOLE-CLUSTER FIGURES (data/%s: price points priced on the basis their source describes, "+
		"a hit inside the catalog's range; whole-cluster figures a hit within %.0f%%; dev and held-out, nothing tuned on held-out)\n",
		PriceCheckFile, 100*pc.ClusterTolerance)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "POINT\tSPLIT\tWHAT\tBASIS\tPUBLISHED\tCATALOG OR PLAN\tVERDICT\t")
	for _, r := range pc.Points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.ID, r.Split, r.What, dash(r.Basis), figureText(r.Published, r.Unit),
			valueText(r), verdictText(r))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range pc.Points {
		if r.Problem != "" {
			fmt.Fprintf(w, "  %s: no figure: %s\n", r.ID, r.Problem)
		}
	}
	fmt.Fprintln(w, "\nHIT RATE (a price point's error is its miss outside the catalog's range; catalog-cited sources cannot test the catalog)")
	writeAccuracyTable(w, pc.Accuracy)
	return nil
}

// writeAccuracyTable prints hit rates by group.
func writeAccuracyTable(w io.Writer, acc []Accuracy) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "GROUP\tPOINTS\tHITS\tMEAN MISS\tWORST\tNO FIGURE\t")
	for _, a := range acc {
		worst := "–"
		if a.Count > 0 {
			worst = fmt.Sprintf("%.1f%% (%s)", 100*a.WorstAbsError, a.Worst)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d of %d\t%.1f%%\t%s\t%d\t\n", a.Group, a.Count+a.NoFigure, a.Within, a.Count, 100*a.MeanAbsError, worst, a.NoFigure)
	}
	_ = tw.Flush()
}

// dash is s, or "–" when empty.
func dash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// figureText is a figure in its unit.
func figureText(v float64, unit string) string {
	switch unit {
	case "USD":
		return fmt.Sprintf("$%.0f", v)
	case "share":
		return fmt.Sprintf("%.1f%%", 100*v)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

// valueText is the catalog's range (a price point) or the plan's figure.
func valueText(r PriceCheckRow) string {
	switch {
	case r.Problem != "":
		return "–"
	case r.Kind == KindPrice:
		return figureText(r.Low, r.Unit) + "-" + figureText(r.High, r.Unit)
	}
	return figureText(r.Value, r.Unit)
}

// verdictText is a point's verdict: hit, or the miss with its size and
// direction, or why it has no figure.
func verdictText(r PriceCheckRow) string {
	switch {
	case r.Problem != "":
		return "no figure (below)"
	case r.Kind == KindCluster && r.Within:
		return fmt.Sprintf("hit (%+.1f%%)", r.MissPct)
	case r.Within:
		return "hit"
	case r.Kind == KindPrice && r.MissPct > 0:
		return fmt.Sprintf("MISS: catalog range %.1f%% above", r.MissPct)
	case r.Kind == KindPrice:
		return fmt.Sprintf("MISS: catalog range %.1f%% below", -r.MissPct)
	}
	return fmt.Sprintf("MISS: plan %+.1f%%", r.MissPct)
}
