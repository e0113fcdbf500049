package planner

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// ibdmchk reads a topology file and its IBNL system definitions in
// design mode and returns its report. ibdmchk (Debian ibutils 1.5.7)
// crashes after its checks, while writing its link-coverage plan, so its
// exit status is not used: the report's lines are.
func ibdmchk(t *testing.T, p *Plan) string {
	t.Helper()
	if _, err := exec.LookPath("ibdmchk"); err != nil {
		t.Fatalf("ibdmchk not installed: run scripts/deps.sh (Debian package ibutils)")
	}
	dir := t.TempDir()
	ibnl := filepath.Join(dir, "ibnl")
	if err := os.Mkdir(ibnl, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path string, w func(*bytes.Buffer) error) {
		var b bytes.Buffer
		if err := w(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	topo := filepath.Join(dir, "fabric.topo")
	write(topo, func(b *bytes.Buffer) error { return WriteTopoFile(b, p) })
	for name, fn := range IBNLFiles(p) {
		write(filepath.Join(ibnl, name), func(b *bytes.Buffer) error { return fn(b, p) })
	}
	cmd := exec.Command("ibdmchk", "-t", topo, "-n", "su1-node1/U1", "-p", "1")
	cmd.Env = append(os.Environ(), "IBDM_IBNL_PATH="+ibnl)
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	return string(out)
}

var (
	definedRe = regexp.MustCompile(`Defined (\d+)/(\d+) systems/nodes`)
	hopsRe    = regexp.MustCompile(`(?s)MIN HOP HISTOGRAM.*?HOPS NUM-CA-CA-PAIRS\n(.*?)\n-----`)
)

// The expected topology and its IBNL files pass ibdmchk in design mode:
// it parses every file, defines every system and node, and finds the CA
// to CA hop counts the tiers imply. Worked by hand:
//   - 2 tiers, 256 GPUs of DGX H100 on QM9700: 32 servers, 8 leaves of
//     32 CAs, 4 spines: 44 systems, 256 + 12 = 268 nodes; CA pairs on
//     one leaf are 2 hops apart (8 x 32 x 31 = 7,936), all others 4
//     (256 x 255 - 7,936 = 57,344).
//   - 3 tiers, 800 GPUs of 8-GPU servers on HDR QM8700 (40 ports, 20
//     down): 100 servers in 5 SUs of 20, 40 leaves of 20 CAs, pods of 2,
//     2 and 1 SUs (320, 320 and 160 CAs), 50 spines and 20 cores (the
//     spines' 400 uplinks over 20 ports a core, no per-group padding): 210
//     systems, 800 + 110 = 910 nodes; 2 hops 40 x 20 x 19 = 15,200; 4
//     hops 2 x 320 x 319 + 160 x 159 - 15,200 = 214,400; 6 hops 800 x
//     799 - 229,600 = 409,600.
//
// Catches: a type with no IBNL definition (the refusal the issue
// quotes), server types named after the NIC, ports named differently
// in the IBNL and the topology file, a hyphen in an IBNL name, a link
// written twice or to the wrong switch.
func TestTopoPassesIBDMCheck(t *testing.T) {
	two := ibScenario(256)
	two.Cluster.System = "dgx-h100"
	three := ibScenario(800)
	three.Network.NICGbps, three.Network.Switch, three.Network.Tiers = 200, "qm8700", 3
	cases := []struct {
		name           string
		s              Scenario
		systems, nodes int
		hops           map[int]int
	}{
		{"2 tiers", two, 44, 268, map[int]int{2: 7936, 4: 57344}},
		{"3 tiers", three, 210, 910, map[int]int{2: 15200, 4: 214400, 6: 409600}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Build(tc.s, testCatalog(t))
			if err != nil {
				t.Fatal(err)
			}
			out := ibdmchk(t, p)
			if strings.Contains(out, "-E-") {
				t.Fatalf("ibdmchk reports errors:\n%s", out)
			}
			m := definedRe.FindStringSubmatch(out)
			if m == nil || m[1] != strconv.Itoa(tc.systems) || m[2] != strconv.Itoa(tc.nodes) {
				t.Fatalf("defined %v, want %d/%d systems/nodes:\n%s", m, tc.systems, tc.nodes, out)
			}
			h := hopsRe.FindStringSubmatch(out)
			if h == nil {
				t.Fatalf("no min-hop histogram:\n%s", out)
			}
			got := map[int]int{}
			for _, line := range strings.Split(strings.TrimSpace(h[1]), "\n") {
				f := strings.Fields(line)
				hops, _ := strconv.Atoi(f[0])
				n, _ := strconv.Atoi(f[1])
				got[hops] = n
			}
			if len(got) != len(tc.hops) {
				t.Fatalf("hops %v, want %v", got, tc.hops)
			}
			for k, v := range tc.hops {
				if got[k] != v {
					t.Errorf("%d hops: %d CA pairs, want %d", k, got[k], v)
				}
			}
		})
	}
}

// The IBNL files name their systems after the switch model and the
// server, never the NIC, in the format's alphabet (no hyphens).
// Catches: the NIC's key as the server type (the complaint), a
// rack-scale tray named after its rack, names the IBNL lexer refuses.
func TestIBNLNames(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct{ system, sw, node string }{
		{"dgx-h100", "QM9700", "DGX_H100"},
		{"gb200-nvl72", "QM9700", "GB200_NVL72_TRAY"},
		{"custom", "QM9700", "SERVER_8GPU"},
	} {
		s := ibScenario(576)
		s.Cluster.System = tc.system
		p, err := Build(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		if IBNLSwitchType(p) != tc.sw || IBNLNodeType(p) != tc.node {
			t.Errorf("%s: types %s, %s; want %s, %s", tc.system, IBNLSwitchType(p), IBNLNodeType(p), tc.sw, tc.node)
		}
	}
}
