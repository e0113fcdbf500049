package charts

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/cmpimg"
	"rsc.io/pdf"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/hall"
	"fabricplan/planner/market"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

func catalog(t testing.TB) *planner.Catalog {
	t.Helper()
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// input plans s with alternatives, the market, a design search and a
// sweep over sizes.
func input(t testing.TB, s planner.Scenario, sizes []int) Input {
	t.Helper()
	cat := catalog(t)
	m, err := market.Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	in, err := NewInput(s, cat, m, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	in.Sweep = explore.SweepWith(s, cat, sizes, explore.SweepOptions{Failures: true, Known: in.Plan}) // as AddParts sweeps
	in.TierSteps = explore.TierSteps(s, cat, in.Sweep)
	return in
}

func inputs(t testing.TB) map[string]Input {
	small := planner.NewScenario()
	small.Cluster.GPUs = 8
	large := planner.NewScenario()
	large.Cluster.GPUs, large.Network.NICGbps, large.Network.Switch = 100_000, 800, "q3400"
	mid := planner.NewScenario()
	// flat is the default scenario priced at one length per tier
	// (layout = "flat"): no hall, so no hall charts.
	flat := planner.NewScenario()
	flat.Facility = &hall.Facility{Layout: hall.LayoutFlat}
	return map[string]Input{
		"flat":         input(t, flat, explore.ScaleSizes(1024)),
		"small":        input(t, small, []int{8}),
		"large":        input(t, large, explore.ScaleSizes(100_000)),
		"single-point": input(t, mid, []int{1024}),
		"default":      input(t, mid, explore.ScaleSizes(1024)),
	}
}

func TestEveryChartRenders(t *testing.T) {
	for name, in := range inputs(t) {
		for _, c := range All() {
			fig, err := c.Build(in)
			if errors.Is(err, ErrMissingInput) {
				if name == "small" && (c.Name == "jct" || c.Name == "search" || c.Name == "resilience") {
					continue // 8 GPUs: the default workload does not fit, so no JCT
				}
				if hallCharts[c.Name] && in.Plan.Hall == nil {
					continue // no [facility] table: TestHallCharts draws these
				}
				if servingCharts[c.Name] && in.Plan.Inference == nil {
					continue // a training scenario: TestTokensChart draws it
				}
				t.Errorf("%s/%s: %v", name, c.Name, err)
				continue
			}
			if err != nil {
				t.Fatalf("%s/%s: %v", name, c.Name, err)
			}
			for _, format := range Formats {
				b, err := fig.Bytes(format, DefaultSize)
				if err != nil {
					t.Fatalf("%s/%s.%s: %v", name, c.Name, format, err)
				}
				if len(b) < 1000 {
					t.Errorf("%s/%s.%s: only %d bytes", name, c.Name, format, len(b))
				}
				if format == "png" {
					img, err := png.Decode(bytes.NewReader(b))
					if err != nil {
						t.Fatal(err)
					}
					if r := img.Bounds(); r.Dx() != 1200 || r.Dy() != 800 {
						t.Errorf("%s/%s.png is %v, want 1200x800", name, c.Name, r)
					}
				}
			}
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestChartsPlotThePlan checks what the charts draw against figures
// worked out by hand for the default scenario (1,024 H100s, 8 per server,
// 400G InfiniBand, 1:1, rail-optimized), with catalog prices and watts
// quoted from data/catalog.toml and research/prices.md (cx7-400: $1,894,
// the midpoint of NADDOD $1,599 and FS.com $2,188, 25 W; qm9700: $36,000
// FS.com street, 750 W, 64 x 400G):
//
//	servers    1,024 / 8 = 128; NIC ports 1,024 (one per GPU)
//	leaves     1,024 ports / 32 down = 32; spines 32 x 32 up / 64 = 16
//	switches   48; switch ports 48 x 64 = 3,072
//	NICs       1,024 x $1,894 = $1,939,456;  1,024 x 25 W = 25,600 W
//	switches   48 x $36,000 = $1,728,000;    48 x 750 W = 36,000 W
//
// Mutations caught: drawing switch power as NIC power (or any component
// in another's place), per-GPU bars not divided by 1,024, the ports chart
// counting switch ports as NIC ports, and the scale chart's switch count.
func TestChartsPlotThePlan(t *testing.T) {
	in := inputs(t)["default"]
	const gpus = 1024
	cost, err := Cost(in)
	if err != nil {
		t.Fatal(err)
	}
	power, err := Power(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		fig        *Figure
		series     string
		want       float64 // for this plan (the first bar)
		perGPUName string
	}{
		{cost, "Back-end fabric cost: NICs", 1_939_456, "Cost per GPU: NICs"},
		{cost, "Back-end fabric cost: switches", 1_728_000, "Cost per GPU: switches"},
		{power, "Back-end fabric power: NICs", 25.6, "Power per GPU: NICs"},         // kW
		{power, "Back-end fabric power: switches", 36.0, "Power per GPU: switches"}, // kW
	} {
		s, ok := c.fig.Series(c.series)
		if !ok || !near(s.Values[0], c.want) {
			t.Errorf("%s: drew %v, want %v", c.series, s.Values, c.want)
			continue
		}
		per, _ := c.fig.Series(c.perGPUName)
		want := c.want / gpus
		if c.fig == power {
			want = c.want * 1000 / gpus // watts per GPU
		}
		if !near(per.Values[0], want) {
			t.Errorf("%s: drew %v, want %v", c.perGPUName, per.Values[0], want)
		}
	}
	ports, err := Ports(in)
	if err != nil {
		t.Fatal(err)
	}
	down, _ := ports.Series("ports toward servers or tier below")
	if down.Values[0] != 1024 || down.Values[1] != 1024 { // NIC ports; leaf ports down to servers
		t.Errorf("ports down: drew %v, want 1,024 NIC ports and 1,024 leaf down-ports", down.Values)
	}
	perServer, _ := ports.Series("ports per server")
	if perServer.Values[1]-perServer.Values[0] != 8 { // eight 400G back-end ports per server
		t.Errorf("ports per server: drew %v, want the back-end to add 8", perServer.Values)
	}
	scale, err := Scale(in)
	if err != nil {
		t.Fatal(err)
	}
	sw, _ := scale.Series("switches")
	found := false
	for i, l := range sw.Labels {
		if l == "1,024" || l == "1024" {
			found = true
			if sw.Values[i] != 48 {
				t.Errorf("scale at 1,024 GPUs: drew %v switches, want 48", sw.Values[i])
			}
		}
	}
	if !found {
		t.Errorf("scale chart has no 1,024-GPU point: %v", sw.Labels)
	}
	jct, err := JCT(in)
	if err != nil {
		t.Fatal(err)
	}
	gain, _ := jct.Series("gain")
	if !near(gain.Values[0], in.Plan.JCT.Gain) || gain.Values[0] <= 1 {
		t.Errorf("jct gain: drew %v, plan %v (RDMA must beat TCP/IP)", gain.Values[0], in.Plan.JCT.Gain)
	}
	market, err := MarketChart(in)
	if err != nil {
		t.Fatal(err)
	}
	eth, _ := market.Series("revenue: Ethernet (RoCE)")
	want := []float64{0.2, 0.3, 0.9, 2.1, 6.1, 8.7, 12.0, 13.7} // Table 1 as printed
	for k := range want {
		if eth.Values[k] != want[k] {
			t.Errorf("Ethernet %s: drew %v, report %v", eth.Labels[k], eth.Values[k], want[k])
		}
	}
	share, _ := market.Series("NIC share %")
	// The market's 2026 NIC share (Table 2: $3.5B of $14.5B) and this
	// plan's: $1,939,456 / ($1,939,456 + $1,728,000) = 52.88%.
	if !near(share.Values[0], 100*3.5/14.5) || math.Abs(share.Values[1]-52.883) > 0.01 {
		t.Errorf("NIC share: drew %v, want 24.1%% and 52.88%%", share.Values)
	}
}

// The scale chart marks the exact sizes where tiers change, worked out by
// hand for 64 x 400G switches, 8 ports per server: one switch holds 64
// GPUs, so 65 need two tiers; 2,049 GPUs need three
// tiers (two reach 64²/2 = 2,048 ports) and 65,537 do not plan (three
// reach 64³/4 = 65,536). Mutation caught: marking the first sampled size
// past the change ("3 tiers from 2,353").
func TestScaleMarksExactTierSteps(t *testing.T) {
	fig, err := Scale(inputs(t)["default"])
	if err != nil {
		t.Fatal(err)
	}
	steps, ok := fig.Series("tier steps")
	if !ok || len(steps.Values) != 3 || steps.Values[0] != 65 || steps.Values[1] != 2049 || steps.Values[2] != 65537 {
		t.Fatalf("tier steps drawn at %v, want 65, 2,049 and 65,537", steps.Values)
	}
	if steps.Labels[0] != "2 tiers" || steps.Labels[1] != "3 tiers" || steps.Labels[2] != "over 3 tiers" {
		t.Errorf("labels %v", steps.Labels)
	}
}

// On XDR (Quantum-X800 Q3400, 144 x 800G, one port per GPU) two tiers
// reach 144²/2 = 10,368 ports, so 10,369 GPUs need three; three reach
// 144³/4 = 746,496. The chart must mark 10,369 for a sweep to 100,000
// whose samples skip it, and its markers must be the planner's steps.
// Mutation caught: "3 tiers from 12,126", the first sample past the step.
func TestScaleMarksXDRStep(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.GPUs, s.Network.NICGbps, s.Network.Switch = 100_000, 800, "q3400"
	in := input(t, s, explore.ScaleSizes(100_000))
	fig, err := Scale(in)
	if err != nil {
		t.Fatal(err)
	}
	steps, _ := fig.Series("tier steps")
	found := false
	for i, v := range steps.Values {
		if v == 10_369 && steps.Labels[i] == "3 tiers" {
			found = true
		}
		if int(v) != in.TierSteps[i].GPUs {
			t.Errorf("marker %d at %v, planner step at %d", i, v, in.TierSteps[i].GPUs)
		}
	}
	if !found {
		t.Errorf("markers %v %v, want 3 tiers from 10,369", steps.Labels, steps.Values)
	}
	for _, size := range explore.ScaleSizes(100_000) {
		if size == 10_369 {
			t.Fatal("the sweep samples 10,369 itself: the test would not catch a first-sample marker")
		}
	}
}

func TestMarketYearOutOfRange(t *testing.T) {
	in := inputs(t)["default"]
	in.MarketYear = 2035
	if _, err := MarketChart(in); err == nil || !strings.Contains(err.Error(), "2021 to 2028") {
		t.Errorf("err = %v", err)
	}
}

// TestGoldenImages compares every chart, and the window's compare chart,
// with its golden image (go test ./charts -update rewrites them after a
// change has been looked at). A chart that differs is written next to
// its golden as NAME_failed.png (git-ignored) for inspection. Nothing in
// a chart depends on the clock: the report's time stamp is Input.Generated.
func TestGoldenImages(t *testing.T) {
	in := inputs(t)["default"]
	builds := map[string]func(Input) (*Figure, error){"compare": PortsCompare}
	for _, c := range All() {
		if !hallCharts[c.Name] && !servingCharts[c.Name] { // TestHallCharts and TestTokensChart have their goldens
			builds[c.Name] = c.Build
		}
	}
	for name, build := range builds {
		fig, err := build(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := fig.Bytes("png", Size{900, 600, 96})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name, got)
	}
}

// checkGolden compares a PNG with testdata/NAME_golden.png, or with
// -update rewrites it. A PNG that differs is written beside it as
// NAME_failed.png (git-ignored) for inspection.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+"_golden.png")
	failed := filepath.Join("testdata", name+"_failed.png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		os.Remove(failed)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./charts -update to create it)", err)
	}
	ok, err := cmpimg.EqualApprox("png", got, want, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		if err := os.WriteFile(failed, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s differs from %s: see %s", name, path, failed)
	} else {
		os.Remove(failed)
	}
}

// The report opens with a one-page executive summary, then the charts,
// the BOM, the inputs and the sources. The summary's answer is worked out
// by hand for the default plan (1,024 GPUs, 8 per server, qm9700 64 x
// 400G, 1:1): 128 servers; 32 leaves + 16 spines = 48 switches in 2
// tiers; 1,024 NIC ports; 1,024 server-leaf + 1,024 leaf-spine = 2,048
// cables; 1,024 single-port OSFPs at the NICs and 3,072 switch ports in
// twin-port OSFPs, 1,536, so 2,560 transceivers.
//
// Mutations caught: the summary left off or not first, the BOM before the
// charts, a count or unit wrong in the answer, the cost range or the top
// cost driver missing; the summary's notes moved to a page of their own
// when they all fit on page 1 with room kept for a line saying where
// moved notes went (allNotesFit dropped: 18 pages once page 1 says what
// of the back end's figures is in the other networks).
//
// The hand count is at the flat per-tier lengths (the "flat" input): a
// hall puts some links on copper and picks multimode where it is
// cheaper, which TestHallCharts and the planner's hall tests cover.
func TestReport(t *testing.T) {
	in := inputs(t)["flat"]
	var buf bytes.Buffer
	var calls int
	if err := WriteReport(&buf, in, catalog(t), func(done, total int) { calls++ }); err != nil {
		t.Fatal(err)
	}
	r, err := pdf.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	charts := len(All()) - len(hallCharts) - len(servingCharts) // laid out flat: no hall charts; training: no serving charts
	if got, want := r.NumPage(), 1+charts+3; got != want {
		t.Errorf("%d pages, want %d (summary, %d charts, BOM, inputs, sources)", got, want, charts)
	}
	if calls != r.NumPage() {
		t.Errorf("progress called %d times for %d pages", calls, r.NumPage())
	}
	page := func(n int) string { return squash(pdfPage(t, buf.Bytes(), n)) }
	first := page(1)
	for _, want := range []string{"Fabric Planner report", "The answer",
		"1,024 GPUs in 128 servers on a 400G InfiniBand back-end network need 48 NVIDIA Quantum-2 QM9700 (NDR) switches in 2 tiers", "1,024 NIC ports, 2,048 cables and 2,560 transceivers.",
		"Cost range", "x faster (Llama 3 70B training 1T tokens)", "What drives cost", "1. 2x400G OSFP DR8 twin-port", "(1,536 of them)"} {
		if !strings.Contains(first, want) {
			t.Errorf("summary page lacks %q:\n%s", want, first)
		}
	}
	if !strings.Contains(page(2), "back-end ports in 2 switch tiers") {
		t.Errorf("page 2 is not the first chart:\n%s", page(2))
	}
	if bom := page(charts + 2); !strings.Contains(bom, "Bill of materials") || !strings.Contains(bom, "NVIDIA Quantum-2 QM9700") {
		t.Errorf("page %d is not the BOM with part names:\n%s", charts+2, bom)
	}
	if inputs := page(charts + 3); !strings.Contains(inputs, "Inputs and assumptions") || !strings.Contains(inputs, "1T tokens") {
		t.Errorf("page %d is not the inputs:\n%s", charts+3, inputs)
	}
	text := pdfText(t, buf.Bytes())
	for _, want := range []string{"Cost and power by component", "back-end ports in 2 switch tiers", "Ethernet passes InfiniBand", "Sources", "650 Group"} {
		if !strings.Contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
}

// TestReportGolden compares the report's first two pages (the summary
// and the first chart), rasterised by pdftoppm at 60 DPI, with golden
// images (-update rewrites them after they have been looked at).
// Mutations caught: a summary page that lays out differently (a table
// overprinting the answer, lines lost off the page), a chart drawn at
// the wrong size on its page.
func TestReportGolden(t *testing.T) {
	if _, err := exec.LookPath("pdftoppm"); err != nil {
		t.Fatal("pdftoppm not installed: run scripts/deps.sh")
	}
	in := inputs(t)["default"]
	in.Generated = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	if err := WriteReport(&buf, in, catalog(t), nil); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	doc := filepath.Join(dir, "r.pdf")
	if err := os.WriteFile(doc, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "2", doc, filepath.Join(dir, "page")).CombinedOutput(); err != nil {
		t.Fatalf("pdftoppm: %v %s", err, out)
	}
	for n := 1; n <= 2; n++ {
		got, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("page-%02d.png", n)))
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, fmt.Sprintf("report_page%d", n), got)
	}
}

// pdfPage extracts one page's text (1-based) with pdftotext.
func pdfPage(t *testing.T, b []byte, n int) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "doc.pdf")
	os.WriteFile(f, b, 0o644)
	out, err := exec.Command("pdftotext", "-f", fmt.Sprint(n), "-l", fmt.Sprint(n), "-layout", f, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// pdfText extracts a PDF's text with pdftotext (poppler-utils, which
// scripts/deps.sh installs).
func pdfText(t *testing.T, b []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext not installed: run scripts/deps.sh")
	}
	f := filepath.Join(t.TempDir(), "doc.pdf")
	os.WriteFile(f, b, 0o644)
	out, err := exec.Command("pdftotext", "-layout", f, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Mutations caught: UTF-8 passed to vgpdf as bytes of its Windows-1252
// font ("RÃ©seau ZÃ¼rich", "â€”" for an em dash); a newline in a name
// drawn as is, over the next line.
func TestPDFTextIsUTF8(t *testing.T) {
	s := planner.NewScenario()
	s.Name = "Réseau Zürich — Σ-plan ✓\nsecond line\x1b[31m"
	in := input(t, s, []int{1024})
	var rep bytes.Buffer
	if err := WriteReport(&rep, in, catalog(t), nil); err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, rep.Bytes())
	for _, want := range []string{"Réseau Zürich — ", "second line", " back-end ports in "} {
		if !strings.Contains(text, want) {
			t.Errorf("report text lacks %q", want)
		}
	}
	for _, bad := range []string{"Ã", "â€", "\x1b"} {
		if strings.Contains(text, bad) {
			t.Errorf("report text has mojibake or a control character %q", bad)
		}
	}
	f, err := ByName("ports")
	if err != nil {
		t.Fatal(err)
	}
	fig, err := f.Build(in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := fig.Bytes("pdf", DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	if text := pdfText(t, b); !strings.Contains(text, "Réseau Zürich") || !strings.Contains(text, "— 4,096 back-end ports") {
		t.Errorf("chart PDF text:\n%s", text)
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]string{"a.png": "png", "B.SVG": "svg", "dir/c.pdf": "pdf", "x.jpg": "", "noext": ""} {
		got, err := FormatOf(path)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("FormatOf(%q) = %q, %v", path, got, err)
		}
	}
}

func BenchmarkRender(b *testing.B) {
	in := inputs(b)["default"]
	for _, c := range All() {
		fig, err := c.Build(in)
		if err != nil {
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				f, _ := c.Build(in)
				if _, err := f.Bytes("png", DefaultSize); err != nil {
					b.Fatal(err)
				}
			}
			_ = fig
		})
	}
}

func BenchmarkReport(b *testing.B) {
	in := inputs(b)["default"]
	cat := catalog(b)
	for i := 0; i < b.N; i++ {
		var buf bytes.Buffer
		if err := WriteReport(&buf, in, cat, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Every chart's SVG is well-formed XML whose colours are #RRGGBB.
// Mutation caught: a transparent grid colour, which vgsvg writes as
// "stroke:#-8000000000000000…" (alpha 0 divides by zero) and which other
// tools reject.
func TestSVGValid(t *testing.T) {
	in := inputs(t)["default"]
	colourRE := regexp.MustCompile(`(?:fill|stroke):(#[^;"]*)`)
	valid := regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	for _, c := range All() {
		fig, err := c.Build(in)
		if err != nil {
			continue // charts whose input is missing
		}
		b, err := fig.Bytes("svg", DefaultSize)
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(bytes.NewReader(b))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: SVG does not parse: %v", c.Name, err)
			}
		}
		for _, m := range colourRE.FindAllStringSubmatch(string(b), -1) {
			if !valid.MatchString(m[1]) {
				t.Fatalf("%s: invalid colour %q", c.Name, m[1])
			}
		}
	}
}

// At 100,000 GPUs the 400G InfiniBand what-if does not plan: 64-port
// qm9700s reach 64³/4 = 65,536 ports in three tiers. The cost, power and
// JCT charts leave it out and say why in their footnotes; nothing draws
// it as a zero bar. Mutations caught: a failed variant drawn as $0, or
// dropped without a word.
func TestUnplannedVariantsAreNoted(t *testing.T) {
	in := inputs(t)["large"]
	for _, build := range []func(Input) (*Figure, error){Cost, Power, JCT} {
		fig, err := build(in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(fig.Footnote, "Not drawn, they do not plan: IB 400G (fabric needs more than three tiers)") {
			t.Errorf("%s footnote: %q", fig.Name, fig.Footnote)
		}
		for _, s := range fig.Data {
			for i, l := range s.Labels {
				if strings.Contains(l, "IB 400G") {
					t.Errorf("%s: %s draws IB 400G at %v", fig.Name, s.Name, s.Values[i])
				}
			}
		}
	}
}

// The resilience chart of the default plan: losing a leaf idles 256 of
// 1,024 GPUs on restart (its rail of a 32-server unit takes those servers
// out), leaving 24 of 32 data-parallel replicas to do the same global
// batch, so the step grows by about 32/24 - 1 = 33%; that is the worst
// single failure and the title says so. A spine loss continues at under
// 1% slower. Mutations caught: bars in the wrong rows (the first case
// must be on top), a restart drawn as continuing, the plan's goodput not
// the one marked.
func TestResilienceChart(t *testing.T) {
	in := inputs(t)["default"]
	fig, err := Resilience(in)
	if err != nil {
		t.Fatal(err)
	}
	if title := fig.Panels[0][0].Title.Text; !strings.HasPrefix(title, "Worst single failure: leaf switch,\njob restarts 3") {
		t.Errorf("title %q", title)
	}
	s, ok := fig.Series("slowdown %")
	if !ok {
		t.Fatal("no slowdown series")
	}
	n := len(s.Labels)
	if !strings.HasPrefix(s.Labels[n-1], "GPU\n×1,024") {
		t.Errorf("top row %q, want the GPU case", s.Labels[n-1])
	}
	for i, l := range s.Labels {
		switch {
		case strings.HasPrefix(l, "leaf switch"):
			if math.Abs(s.Values[i]-33.3) > 2 {
				t.Errorf("leaf loss: %.1f%% slower, want about 33%%", s.Values[i])
			}
		case strings.HasPrefix(l, "spine switch"):
			if s.Values[i] < 0 || s.Values[i] > 1 {
				t.Errorf("spine loss: %.2f%% slower, want under 1%%", s.Values[i])
			}
		}
	}
	e, ok := fig.Series("ettr %")
	if !ok {
		t.Fatal("no goodput series")
	}
	for i, l := range e.Labels {
		if l == "1024" && math.Abs(e.Values[i]-100*in.Plan.Resilience.Goodput.ETTRAtOptimum) > 1e-9 {
			t.Errorf("sweep ETTR at 1,024 %.3f, plan %.3f", e.Values[i], 100*in.Plan.Resilience.Goodput.ETTRAtOptimum)
		}
	}
}
