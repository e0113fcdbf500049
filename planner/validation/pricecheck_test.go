package validation

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"fabricplan/data"
	"fabricplan/planner"
)

// shippedPriceCheck is data/pricecheck.toml.
func shippedPriceCheck(t testing.TB) *PriceCheckData {
	t.Helper()
	d, err := LoadPriceCheck(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The split is the rule data/pricecheck.toml states, fixed before any
// point was compared: within a batch, sorted by (title, id), every third
// held out. It holds at least 24 points, each with a figure on the
// shipped catalog. Mutations caught: a point moved from held-out to dev
// (or back) after its miss was seen, a point added without its place in
// the rule, a point that names a part or metric the check cannot take.
func TestPriceCheckSplit(t *testing.T) {
	d := shippedPriceCheck(t)
	if len(d.Points) < 24 {
		t.Errorf("%d points, want at least 24", len(d.Points))
	}
	ps := slices.Clone(d.Points)
	batch := func(p PricePoint) int { return max(p.Batch, 1) }
	slices.SortFunc(ps, func(a, b PricePoint) int {
		if c := batch(a) - batch(b); c != 0 {
			return c
		}
		if c := strings.Compare(a.Title, b.Title); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	i := 0
	for j, p := range ps {
		if j > 0 && batch(p) != batch(ps[j-1]) {
			i = 0 // a new batch is split within itself
		}
		want := SplitDev
		if i%3 == 2 {
			want = SplitHeldOut
		}
		if p.Split != want {
			t.Errorf("%s (batch %d, place %d by title and id): split %q, the rule says %q", p.ID, batch(p), i+1, p.Split, want)
		}
		i++
	}
	for _, r := range CheckPricePoints(d, testCatalog(t)) {
		if r.Err != nil {
			t.Errorf("%s: no figure: %v", r.Point.ID, r.Err)
		}
	}
}

// A point's verdict, by hand. Price points compare the middle of the
// source's range with the catalog's range: LuxOptx's $1,100-1,400 (mid
// 1,250) against $350-450 misses by (450 - 1,250) / 1,250 = -64%; a
// $199,000 list price against $238,800-375,000 by +39,800 / 199,000 =
// +20%; $400-1,000 (mid 700) against $350-450 by -250 / 700 = -35.7%,
// though its low end lies inside. Whole-cluster points: 41 switches against 56 is -26.79%, a miss;
// 50 against 48 is +4.17%, a hit; $1.65M against a source's $1.2-1.6M
// (mid 1.4M, 10% band 1.26-1.54M, widened to the source's range) is
// +17.86%, a miss, and $1.58M a hit inside the source's own range.
// Mutations caught: the miss's sign flipped, the low end compared in
// place of the middle, the 10% tolerance widened or applied to price
// points, a source's range not honoured.
func TestPriceResultVerdicts(t *testing.T) {
	price := func(lo, hi float64) PricePoint { return PricePoint{Kind: KindPrice, Figure: [2]float64{lo, hi}} }
	cluster := func(lo, hi float64) PricePoint { return PricePoint{Kind: KindCluster, Figure: [2]float64{lo, hi}} }
	for _, c := range []struct {
		name            string
		p               PricePoint
		value, low, hi  float64
		wantMiss        float64
		wantIn          bool
		clusterBandSets bool
	}{
		{"volume optics below the source", price(1100, 1400), 380, 350, 450, -0.64, false, false},
		{"list system above the source", price(199000, 199000), 329580, 238800, 375000, 0.2, false, false},
		{"inside the range", price(2000, 3000), 3053, 2000, 4686, 0, true, false},
		{"low end inside, middle outside", price(400, 1000), 380, 350, 450, -250.0 / 700, false, false},
		{"on the range's edge", price(515000, 515000), 379273, 379273, 515000, 0, true, false},
		{"switch count short", cluster(56, 56), 41, 0, 0, -15.0 / 56, false, true},
		{"switch count within 10%", cluster(48, 48), 50, 0, 0, 2.0 / 48, true, true},
		{"spend past the band and the source's range", cluster(1.2e6, 1.6e6), 1.65e6, 0, 0, 0.25 / 1.4, false, true},
		{"spend inside the source's range", cluster(1.2e6, 1.6e6), 1.58e6, 0, 0, 0.18 / 1.4, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := PriceResult{Point: c.p, Value: c.value, Low: c.low, High: c.hi}
			if c.clusterBandSets {
				r.Low, r.High = clusterBand(c.p)
			}
			if got := r.Miss(); math.Abs(got-c.wantMiss) > 1e-9 {
				t.Errorf("miss %.6f, want %.6f", got, c.wantMiss)
			}
			if got := r.Within(); got != c.wantIn {
				t.Errorf("within %v, want %v", got, c.wantIn)
			}
		})
	}
}

// withPrice is cat with switch key's price and range scaled by f, the
// map copied so the shipped catalog is left alone: a catalog drifted
// away from the published prices on purpose.
func withPrice(cat *planner.Catalog, key string, f float64) *planner.Catalog {
	c := *cat
	c.Switches = maps.Clone(cat.Switches)
	sw := *c.Switches[key]
	sw.PriceUSD *= f
	sw.PriceRangeUSD = [2]float64{sw.PriceRangeUSD[0] * f, sw.PriceRangeUSD[1] * f}
	c.Switches[key] = &sw
	return &c
}

// The check fails when the catalog drifts from published prices: a
// QM9700 at three times its price ($105k-150k street, $73.5k-135k on the
// volume rule) leaves infra-economics' $35k avg (volume) outside its range
// by (73,500 - 35,000) / 35,000 = 110%, which the shipped ratchet (0%)
// calls WORSE; the same catalog's 1,024-GPU switch spend grows past its
// record too. The shipped catalog holds every record.
// Mutation caught: "the QM9700 priced at three times its sourced price"
// passing validate.
func TestPriceCheckRatchetCatchesDrift(t *testing.T) {
	d := shippedPriceCheck(t)
	r, err := LoadRatchet(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range r.Check(PriceMeasures(CheckPricePoints(d, testCatalog(t)))) {
		if v.Fails() && strings.HasPrefix(v.Key, PriceKey("")) {
			t.Errorf("shipped catalog: %s %s", v.Key, v.Status)
		}
	}
	drifted := CheckPricePoints(d, withPrice(testCatalog(t), "qm9700", 3))
	worse := map[string]float64{}
	for _, v := range r.Check(PriceMeasures(drifted)) {
		if v.Status == RatchetWorse {
			worse[v.Key] = v.Now
		}
	}
	if got := worse[PriceKey("infra-economics-qm9700")]; math.Abs(got-110) > 1e-6 {
		t.Errorf("QM9700 at 3x: infra-economics-qm9700 miss %.4f%% (worse: %v), want 110%% and WORSE", got, worse)
	}
	if _, ok := worse[PriceKey("yobitel-ndr-1024-switch-bom")]; !ok {
		t.Errorf("QM9700 at 3x: the 1,024-GPU switch spend did not grow past its record (worse: %v)", worse)
	}
}

// A price point is priced with the plan's own pricing: on the volume
// basis the part's volume price (the 800G DR8's $350-450), on the list
// basis the branded premium on third-party optics and nothing on a
// switch, on the street basis the catalog's figure; every basis prices
// a transceiver as a plan's bill does. Mutations caught: a second price
// table, the basis ignored, the list premium applied to a switch.
func TestPriceOnIsThePlansPrice(t *testing.T) {
	cat := testCatalog(t)
	street, _ := cat.PriceOn("qm9700", planner.BasisStreet)
	list, _ := cat.PriceOn("qm9700", planner.BasisList)
	if street != list {
		t.Errorf("a switch on the list basis %+v, want its street price %+v", list, street)
	}
	vol, err := cat.PriceOn("osfp-800x1-dr8", planner.BasisVolume)
	if err != nil || vol.LowUSD != 350 || vol.HighUSD != 450 {
		t.Errorf("800G DR8 on the volume basis %+v (%v), want $350-450 (data/prices.toml, txrjy 2026-02)", vol, err)
	}
	for _, basis := range []string{planner.BasisStreet, planner.BasisList, planner.BasisVolume} {
		s, err := planner.ScenarioFromData([]byte("schema = 1\n[cluster]\nsystem = \"hgx-h100\"\ngpus = 1016\n[network]\nfabric = \"infiniband\"\nswitch = \"qm9700\"\n[pricing]\nbasis = \"" + basis + "\"\n"))
		if err != nil {
			t.Fatal(err)
		}
		pl, err := planner.Build(s.WithSystem(cat), cat)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range pl.BOM {
			if line.Category != planner.CatTransceiver && line.Category != planner.CatSwitch {
				continue
			}
			pp, err := cat.PriceOn(line.Key, basis)
			if err != nil || math.Abs(pp.USD-line.UnitUSD) > 1e-6 || math.Abs(pp.LowUSD-line.UnitLowUSD) > 1e-6 || math.Abs(pp.HighUSD-line.UnitHighUSD) > 1e-6 {
				t.Errorf("%s %s: PriceOn %+v (%v), the plan's bill $%g ($%g-%g)", basis, line.Key, pp, err, line.UnitUSD, line.UnitLowUSD, line.UnitHighUSD)
			}
		}
	}
	if _, err := cat.PriceOn("qm9700", "wholesale"); err == nil {
		t.Error("an unknown basis priced")
	}
	if _, err := cat.PriceOn("no-such-part", planner.BasisStreet); err == nil {
		t.Error("an unknown part priced")
	}
}

// A point the check cannot take is refused with the reason. Mutations
// caught: each check below removed.
func TestParsePriceCheckRefuses(t *testing.T) {
	const head = "schema = 1\n[scenario]\nc = \"schema = 1\"\n[[point]]\nid = \"p\"\ntitle = \"T\"\nsaid = \"s\"\nurl = \"u\"\nread = \"2026-11-29\"\ndate = \"undated\"\n"
	ok := map[string]string{"price": "split = \"dev\"\nkind = \"price\"\npart = \"qm9700\"\nbasis = \"street\"\nfigure = [1, 2]\n",
		"cluster": "split = \"dev\"\nkind = \"cluster\"\nmetric = \"switches\"\nscenario = \"c\"\nfigure = [48, 48]\n"}
	for name, body := range ok {
		if _, err := ParsePriceCheck([]byte(head + body)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, c := range []struct{ name, body, want string }{
		{"split", strings.Replace(ok["price"], "dev", "train", 1), "split"},
		{"figure", strings.Replace(ok["price"], "[1, 2]", "[2, 1]", 1), "figure"},
		{"basis", strings.Replace(ok["price"], "street", "wholesale", 1), "basis"},
		{"price without basis", strings.Replace(ok["price"], "basis = \"street\"\n", "", 1), "part and a basis"},
		{"kind", strings.Replace(ok["price"], "kind = \"price\"", "kind = \"quote\"", 1), "kind"},
		{"metric", strings.Replace(ok["cluster"], "\"switches\"", "\"racks\"", 1), "metric"},
		{"scenario", strings.Replace(ok["cluster"], "\"c\"", "\"d\"", 1), "scenario"},
		{"spend without basis", strings.Replace(ok["cluster"], "\"switches\"", "\"switches_usd\"", 1), "basis"},
		{"side switches without network", strings.Replace(ok["cluster"], "\"switches\"", "\"side_switches\"", 1), "network"},
		{"twice", ok["price"] + "[[point]]\n" + strings.TrimPrefix(head, "schema = 1\n[scenario]\nc = \"schema = 1\"\n[[point]]\n") + ok["price"], "twice"},
		{"unknown key", ok["price"] + "price = 3\n", "unknown key"},
	} {
		_, err := ParsePriceCheck([]byte(head + c.body))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

// The check end to end on a small file: LuxOptx's 800G DR8 at "$1,100-1,400
// (volume pricing for 1000+ units)" against the volume basis's $350-450
// (txrjy expert-call notes, 2026-02) misses by (450 - 1,250) / 1,250 =
// 64.0%, the range below; yobitel's BlueField-3 street $2,000-3,000 lies
// inside $2,000-4,686; 1,024 H100 on QM9700 plan yobitel's 48 switches
// (32 leaves, 16 spines), so a published 56 is missed by -8 / 56 =
// -14.3%; a network the plan does not have gives no figure. The text
// shows each verdict, the hit rates count them by split and kind, and
// the ratchet measures are the misses in percent.
// Mutations caught: the text without a miss's direction, the hit rates
// mixing the splits, a point without a figure counted as a miss, the
// measures in fractions.
func TestPriceCheckReport(t *testing.T) {
	const pt = "[[point]]\ntitle = \"T\"\nsaid = \"s\"\nurl = \"u\"\nread = \"2026-11-29\"\ndate = \"undated\"\n"
	doc := "schema = 1\n" +
		pt + "id = \"dr8\"\nsplit = \"dev\"\nkind = \"price\"\npart = \"osfp-800x1-dr8\"\nbasis = \"volume\"\nfigure = [1100, 1400]\n" +
		pt + "id = \"bf3\"\nsplit = \"heldout\"\nkind = \"price\"\npart = \"bf3-400\"\nbasis = \"street\"\nfigure = [2000, 3000]\ncatalog_cites = true\n" +
		pt + "id = \"count\"\nsplit = \"dev\"\nkind = \"cluster\"\nmetric = \"switches\"\nscenario = \"c\"\nfigure = [56, 56]\n" +
		pt + "id = \"none\"\nsplit = \"heldout\"\nkind = \"cluster\"\nmetric = \"side_switches\"\nnetwork = \"no such network\"\nscenario = \"c\"\nfigure = [8, 8]\n" +
		"[scenario]\nc = \"\"\"\nschema = 1\n[cluster]\nsystem = \"hgx-h100\"\ngpus = 1024\n[network]\nfabric = \"infiniband\"\nswitch = \"qm9700\"\n\"\"\"\n"
	pc, err := CheckPrices(fstest.MapFS{PriceCheckFile: {Data: []byte(doc)}}, testCatalog(t))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := pc.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MISS: catalog range 64.0% below", "$350-$450", "hit", "MISS: plan -14.3%", "48 switches",
		"none: no figure: the plan has no network \"no such network\""} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	type hits struct{ points, within, noFigure int }
	want := map[string]hits{"dev price": {1, 0, 0}, "dev whole cluster": {1, 0, 0}, "heldout price": {1, 1, 0},
		"heldout price, source not cited by the catalog": {0, 0, 0}, "heldout whole cluster": {0, 0, 1}}
	for _, a := range pc.Accuracy {
		if w, ok := want[a.Group]; ok && (hits{a.Count, a.Within, a.NoFigure} != w) {
			t.Errorf("%s: %d with a figure, %d hits, %d without, want %+v", a.Group, a.Count, a.Within, a.NoFigure, w)
		}
	}
	for _, m := range pc.Measures() {
		wantPct := map[string]float64{"dr8": 64, "bf3": 0, "count": 800.0 / 56}[strings.TrimPrefix(m.Key, PriceKey(""))]
		if (m.Err == nil) != (m.Key != PriceKey("none")) || (m.Err == nil && math.Abs(m.AbsErrorPct-wantPct) > 1e-9) {
			t.Errorf("%s: %.4f%% (%v), want %.4f%%", m.Key, m.AbsErrorPct, m.Err, wantPct)
		}
	}
}
