package charts

import (
	"bytes"
	"io/fs"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/explore"
	"fabricplan/planner/scenariofile"
)

// shownNumber is a figure read back from a page: its value in base
// units (ports, US$, W) and half its last shown digit, the most its
// rounding moved it.
type shownNumber struct{ v, half float64 }

// readShown reads "6,735", "$49.22M", "$0.135M", "807.5 kW" or "850 W".
func readShown(t *testing.T, s string) shownNumber {
	t.Helper()
	m := regexp.MustCompile(`^\$?([\d,]+)(?:\.(\d+))?\s*(k|M|B|W|kW|MW)?$`).FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		t.Fatalf("cannot read %q as a figure", s)
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", "")+"."+m[2]+"0", 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	scale := map[string]float64{"": 1, "W": 1, "k": 1e3, "kW": 1e3, "M": 1e6, "MW": 1e6, "B": 1e9}[m[3]]
	return shownNumber{v * scale, 0.5 * math.Pow(10, -float64(len(m[2]))) * scale}
}

// Report page 1 shows the back end's switches, transceivers and NIC
// ports in its answer, its cost and power on their own lines, and on
// "The back end adds" line what the back end adds to the whole cluster.
// Every figure of that line must equal the back end's own, or the line
// must say in the same breath how much of it is in the other networks
// that serve the back end: adds = own + that, within the rounding of the
// three figures as shown. Checked on an off-grid NDR cluster (finding
// 15's 6,152 GPUs: 502 vs 490 switches), an Ethernet one and the GB300
// NVL72 example (92 switches both, 10,088 vs 10,080 transceivers).
// Mutation caught: the line without its "(... of them in the other
// networks that serve it)" (the old code: $49.22M beside $49.09M).
func TestReportPageOneAddsSaysWhy(t *testing.T) {
	ndr := planner.NewScenario()
	ndr.Cluster.GPUs = 6152
	eth := planner.NewScenario()
	eth.Cluster.GPUs, eth.Network.Fabric, eth.Network.Switch = 3001, planner.Ethernet, "sn5600"
	src, err := fs.ReadFile(data.FS, "scenarios/gb300-nvl72-4k.toml")
	if err != nil {
		t.Fatal(err)
	}
	gb300, err := scenariofile.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	adds := regexp.MustCompile(`The back end adds ([\d,]+) ports, ([\d,]+) switches, ([\d,]+) transceivers, (\$[\d,.]+[kMB]?) \(\d+% of the network spend\), ([\d,.]+ k?W)( \((.*?) of them in the other networks that serve it\))?`)
	for name, s := range map[string]planner.Scenario{"ndr 6152": ndr, "ethernet 3001": eth, "gb300 example": gb300} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteReport(&buf, input(t, s, explore.ScaleSizes(s.Cluster.GPUs)), catalog(t), nil); err != nil {
				t.Fatal(err)
			}
			page := squash(pdfPages(t, buf.Bytes())[0])
			own := map[string]string{}
			for key, re := range map[string]string{
				"switches":     `need ([\d,]+) `,
				"ports":        `([\d,]+) NIC ports`,
				"transceivers": `([\d,]+) transceivers\.`,
				"cost":         `Cost \(estimate\) (\$[\d,.]+[kMB]?)`,
				"power":        `Power \(estimate\) ([\d,.]+ k?W)`,
			} {
				m := regexp.MustCompile(re).FindStringSubmatch(page)
				if m == nil {
					t.Fatalf("page 1 lacks the back end's %s (%s):\n%s", key, re, page)
				}
				own[key] = m[1]
			}
			m := adds.FindStringSubmatch(page)
			if m == nil {
				t.Fatalf("page 1 lacks the back end adds line:\n%s", page)
			}
			beside := map[string]string{}
			if m[7] != "" {
				for _, part := range regexp.MustCompile(`, | and `).Split(m[7], -1) {
					switch f := strings.Fields(part); {
					case strings.HasPrefix(part, "$"):
						beside["cost"] = part
					case strings.HasSuffix(part, "W"):
						beside["power"] = part
					case len(f) == 2:
						beside[f[1]] = f[0]
					default:
						t.Errorf("cannot read %q in %q", part, m[7])
					}
				}
			}
			for i, key := range []string{"ports", "switches", "transceivers", "cost", "power"} {
				a, o := readShown(t, m[i+1]), readShown(t, own[key])
				var b shownNumber
				if beside[key] != "" {
					b = readShown(t, beside[key])
				}
				if math.Abs(a.v-(o.v+b.v)) > a.half+o.half+b.half+1e-9 {
					t.Errorf("%s: the back end adds %s, is %s itself and says %q of them are elsewhere", key, m[i+1], own[key], beside[key])
				}
			}
		})
	}
}
