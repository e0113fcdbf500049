package charts

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/plot/vg"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/scenariofile"
)

// textSlack is how far, in points, two text boxes may meet (or one pass
// the page edge) before it counts: a quarter of a point is invisible.
const textSlack = vg.Length(0.25)

// fitSizes are the sizes every chart must set its text in without a
// clash: the export default, and the smallest layout the window draws (a
// smaller view draws this layout at a lower DPI).
var fitSizes = []Size{DefaultSize, {760, 460, 96}}

var (
	oddOnce   sync.Once
	oddInputs map[string]Input
)

// oddScenarios are every example scenario plus the odd ones: 8 GPUs, a
// very long name, and the names of the examples kept.
func textFitInputs(t *testing.T) map[string]Input {
	t.Helper()
	oddOnce.Do(func() {
		oddInputs = map[string]Input{}
		cat := catalog(t)
		paths, err := fs.Glob(data.FS, "scenarios/*.toml")
		if err != nil || len(paths) == 0 {
			t.Fatalf("no example scenarios: %v", err)
		}
		for _, p := range paths {
			src, err := fs.ReadFile(data.FS, p)
			if err != nil {
				t.Fatal(err)
			}
			s, err := scenariofile.Parse(src)
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			oddInputs[p] = input(t, s, explore.ScaleSizes(s.Cluster.GPUs))
		}
		small := planner.NewScenario()
		small.Cluster.GPUs = 8
		oddInputs["8 GPUs"] = input(t, small, explore.ScaleSizes(8))
		long := planner.NewScenario()
		long.Name = "Production training cluster for the frontier model programme, building 7 hall B, phase two expansion with spares"
		long.Cluster.GPUs = 3000
		oddInputs["long name, 3,000 GPUs"] = input(t, long, explore.ScaleSizes(3000))
		_ = cat
	})
	return oddInputs
}

// clashes lists every text box outside the w x h page and every pair of
// boxes that overlap.
func clashes(boxes []TextBox, w, h vg.Length) []string {
	var out []string
	for i, b := range boxes {
		if !b.Inside(w, h, textSlack) {
			out = append(out, fmt.Sprintf("%q leaves the %.0fx%.0f pt page (box %.1f,%.1f to %.1f,%.1f)",
				b.Text, w, h, b.Min.X, b.Min.Y, b.Max.X, b.Max.Y))
		}
		for _, o := range boxes[i+1:] {
			if b.Overlaps(o, textSlack) {
				out = append(out, fmt.Sprintf("%q overlaps %q", b.Text, o.Text))
			}
		}
	}
	return out
}

// Every chart, for every example scenario and the odd ones, in every
// format and at the export and the window's smallest size, sets its text
// inside the page with no two strings overlapping. Mutations caught: a
// title drawn at its full width however narrow the panel (the NVL72
// ports chart lost "GB"), tick labels drawn at every tick however dense
// ("0%5%10%"), a summary line longer than the topology's box, search
// labels placed over each other.
func TestChartTextFits(t *testing.T) {
	for _, fd := range fitDrawings(t) {
		if fd.size == fitSizes[0] && fd.format == Formats[0] {
			dumpChart(t, fd.scenario, fd.chart, fd.fig)
		}
		if len(fd.d.Text) == 0 {
			t.Errorf("%s: no text recorded", fd)
		}
		for _, msg := range clashes(fd.d.Text, fd.d.W, fd.d.H) {
			t.Errorf("%s: %s", fd, msg)
		}
	}
}

// fitDrawing is one chart of one scenario (every example and the odd
// ones) drawn in one format at one of fitSizes and recorded: the text,
// mark and scale checks read the same drawing instead of drawing it
// again each.
type fitDrawing struct {
	scenario, chart, format string
	size                    Size
	fig                     *Figure        // as built, after this drawing
	d                       Drawing        // what it drew
	panels                  []vg.Rectangle // where this drawing put each panel
}

func (fd fitDrawing) String() string {
	return fmt.Sprintf("%s/%s/%s %dx%d", fd.scenario, fd.chart, fd.format, fd.size.WidthPx, fd.size.HeightPx)
}

var (
	fitDrawingsOnce sync.Once
	fitDrawingsAll  []fitDrawing
	fitDrawingsErrs []string
)

// fitDrawings draws every chart of textFitInputs in every format at
// every fit size, once per test binary. Charts that lack an input (8
// GPUs: no JCT) are left out; a chart that fails to build or draw fails
// the test that asks.
func fitDrawings(t *testing.T) []fitDrawing {
	t.Helper()
	ins := textFitInputs(t)
	fitDrawingsOnce.Do(func() {
		names := make([]string, 0, len(ins))
		for n := range ins {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			for _, c := range All() {
				fig, err := c.Build(ins[name])
				if errors.Is(err, ErrMissingInput) {
					continue // e.g. 8 GPUs: the workload does not fit, no JCT
				}
				if err != nil {
					fitDrawingsErrs = append(fitDrawingsErrs, fmt.Sprintf("%s/%s: %v", name, c.Name, err))
					continue
				}
				for _, format := range Formats {
					for _, size := range fitSizes {
						fd := fitDrawing{scenario: name, chart: c.Name, format: format, size: size, fig: fig}
						fd.d, err = fig.Record(format, size)
						if err != nil {
							fitDrawingsErrs = append(fitDrawingsErrs, fmt.Sprintf("%s: %v", fd, err))
							continue
						}
						fd.panels = append([]vg.Rectangle(nil), fig.panelRects...)
						fitDrawingsAll = append(fitDrawingsAll, fd)
					}
				}
			}
		}
	})
	for _, e := range fitDrawingsErrs {
		t.Error(e)
	}
	return fitDrawingsAll
}

// The check itself: a deliberately long title, left unwrapped, is
// reported as leaving the page; a title of the same words through the
// charts' own fitting is not. Mutation caught: a clash test that never
// fails (boxes not recorded, or recorded untransformed).
func TestTextCheckCatchesALongTitle(t *testing.T) {
	in := textFitInputs(t)["scenarios/ib-ndr-1k.toml"]
	fig, err := Ports(in)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("An overlong title that no panel can hold on one line ", 4)
	fig.Panels[0][0].Title.Text = long
	fig.noFit = true // the mutation: draw titles as given
	boxes, w, h, err := fig.TextBoxes("png", DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	if len(clashes(boxes, w, h)) == 0 {
		t.Fatal("a title wider than the page passed the text check")
	}
	fig.noFit = false
	boxes, w, h, err = fig.TextBoxes("png", DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	if msgs := clashes(boxes, w, h); len(msgs) > 0 {
		t.Errorf("the long title, fitted, still clashes: %v", msgs)
	}
}

// dumpChart writes the chart's PNGs at every fit size into
// $FABRICPLAN_CHART_DIR, when set, to look at.
func dumpChart(t *testing.T, scenario, chart string, fig *Figure) {
	dir := os.Getenv("FABRICPLAN_CHART_DIR")
	if dir == "" {
		return
	}
	base := strings.NewReplacer("scenarios/", "", ".toml", "", " ", "_", ",", "").Replace(scenario)
	for _, size := range fitSizes {
		b, err := fig.Bytes("png", size)
		if err != nil {
			t.Error(err)
			continue
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%s-%dx%d.png", base, chart, size.WidthPx, size.HeightPx))
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Error(err)
		}
	}
}
