package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"fabricplan/charts"
	"fabricplan/internal/textfmt"
)

// The Topology tab draws the plan's diagram, and picking a pod or
// clicking the summaries expands another one: at 16,384 GPUs on 64-port
// NDR switches (pods of 32 leaves: 4 SUs of 8 rails; 2,048 servers in
// 64 SUs, so 16 pods) pod 2 is drawn after it is picked, and a click on
// "× more SUs" steps to its SU 2, the plane's SU 6, and one on "× more
// pods" to pod 3. Mutations caught: the selects ignored, a tap mapped to
// the wrong summary or acting anywhere on the right, targets recorded
// upside down, the focus kept past the plan's pods after an edit that
// shrinks the fabric.
func TestTopologyTab(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "16384")
	u.WaitIdle()
	u.SelectTab(TabTopology)
	u.WaitIdle()
	tp := u.topo
	if tp.view.fig == nil || tp.view.fig.Name != "topology" {
		t.Fatalf("no diagram: %s", tp.view.message.Text)
	}
	if len(tp.pod.Options) != 16 || len(tp.unit.Options) != 4 {
		t.Fatalf("%d pods, %d SUs offered, want 16 and 4", len(tp.pod.Options), len(tp.unit.Options))
	}
	tp.pod.SetSelected("2")
	u.WaitIdle()
	if tp.focus.Pod != 2 || !svgHas(t, tp, "pod 2 of 16") {
		t.Errorf("pod 2 picked: focus %+v", tp.focus)
	}
	tapTarget(t, tp, charts.TargetNextUnit)
	u.WaitIdle()
	if tp.focus.Unit != 2 || tp.unit.Selected != "2" || !svgHas(t, tp, "SU 6:") {
		t.Errorf("after a tap on the SUs: focus %+v, select %q", tp.focus, tp.unit.Selected)
	}
	at, shown := tp.view.imageRect()
	// The drawing itself (a third across, half down: the leaves) and the
	// right-hand margin between the summaries: nothing.
	for _, f := range [][2]float32{{0.3, 0.5}, {0.85, 0.3}} {
		tp.tapped(at.Add(fyne.NewPos(shown.Width*f[0], shown.Height*f[1])))
		if tp.focus.Unit != 2 || tp.focus.Pod != 2 {
			t.Errorf("a tap at %v changed the focus: %+v", f, tp.focus)
		}
	}
	tapTarget(t, tp, charts.TargetNextPod)
	u.WaitIdle()
	if tp.focus.Pod != 3 || tp.focus.Unit != 1 || !svgHas(t, tp, "pod 3 of 16") {
		t.Errorf("after a tap on the pods: focus %+v", tp.focus)
	}
	typeIn(u, "cluster.gpus", "1024")
	u.WaitIdle()
	if tp.focus.Pod != 1 || len(tp.pod.Options) != 1 {
		t.Errorf("after shrinking to one pod: focus %+v, %d pods offered", tp.focus, len(tp.pod.Options))
	}
	tp.setZoom(5)
	if tp.zoomText.Text != "300%" {
		t.Errorf("zoom past the last step: %s", tp.zoomText.Text)
	}
}

// tapTarget taps the middle of the named target, checking first that it
// lies where the diagram draws its summaries: the right-hand third, the
// pods above the SUs.
func tapTarget(t *testing.T, tp *topologyTab, name string) {
	t.Helper()
	var pod, unit charts.Target
	for _, g := range tp.view.targets {
		switch g.Name {
		case charts.TargetNextPod:
			pod = g
		case charts.TargetNextUnit:
			unit = g
		}
	}
	if pod.X0 < 0.6 || unit.X0 < 0.6 || pod.Y1 > unit.Y0 || pod.X1 > 1 || unit.Y1 > 1 {
		t.Fatalf("targets %+v and %+v are not the summaries on the right, pods above SUs", pod, unit)
	}
	g := unit
	if name == charts.TargetNextPod {
		g = pod
	}
	at, shown := tp.view.imageRect()
	tp.tapped(at.Add(fyne.NewPos(shown.Width*float32(g.X0+g.X1)/2, shown.Height*float32(g.Y0+g.Y1)/2)))
}

func svgHas(t *testing.T, tp *topologyTab, s string) bool {
	t.Helper()
	b, err := tp.view.fig.Bytes("svg", charts.DefaultSize)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), s)
}

// Export cable map writes the format its name asks for and refuses
// others without touching the file. Mutations caught: JSON written as
// CSV, an unknown extension written as CSV over the user's file.
func TestExportCables(t *testing.T) {
	u := newTestUI(t)
	u.WaitIdle()
	p := u.m.Plan()
	dir := t.TempDir()
	if err := ExportCables(p, filepath.Join(dir, "c.json")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "c.json"))
	var links []any
	if err := json.Unmarshal(b, &links); err != nil || len(links) != p.Links.Total {
		t.Errorf("JSON: %d links (%v), want %d", len(links), err, p.Links.Total)
	}
	if err := ExportCables(p, filepath.Join(dir, "c.topo")); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "c.topo"))
	if strings.Count(string(b), " -> ") != p.Links.Total {
		t.Errorf("topo file: %d port lines, want %d", strings.Count(string(b), " -> "), p.Links.Total)
	}
	keep := filepath.Join(dir, "notes.txt")
	os.WriteFile(keep, []byte("mine"), 0o644)
	if err := ExportCables(p, keep); err == nil || !strings.Contains(err.Error(), ".csv, .json or .topo") {
		t.Errorf("a .txt name: %v", err)
	}
	if b, _ := os.ReadFile(keep); string(b) != "mine" {
		t.Error("the refused file was overwritten")
	}
}

// The Summary's per-SU table follows the plan: at 1,000 GPUs (three full
// SUs of 32 servers and one of 29) the SU column holds 8 leaves and 256
// server links, the cluster 32 and 1,000, and the group name shows on a
// group's first row only; the hall's lines by length add up to those
// links. Mutations caught: the table kept from the first plan after an
// edit; cluster counts taken as SUs x one SU (1,024 server links).
func TestSummaryPerSUTable(t *testing.T) {
	u := newTestUI(t)
	typeIn(u, "cluster.gpus", "1000")
	u.WaitIdle()
	s := u.summary
	find := func(item string) int {
		for i, r := range s.unitBill.Rows {
			if strings.HasPrefix(r.Item, item) {
				return i
			}
		}
		t.Fatalf("no row %q", item)
		return -1
	}
	// The hall splits the server-leaf links by length sold: the rows
	// add up to the SU's and the cluster's links.
	serverLinks := func() (unit float64, cluster int) {
		for i, r := range s.unitBill.Rows {
			if strings.HasPrefix(r.Item, "server-leaf") {
				unit += r.Unit
				cluster += r.Cluster
				if s.unitCell(i, 3) != textfmt.Int(r.Cluster) {
					t.Errorf("row %q shows %s, holds %d", r.Item, s.unitCell(i, 3), r.Cluster)
				}
			}
		}
		return unit, cluster
	}
	leaf := find("leaf")
	if got := [2]string{s.unitCell(leaf, 2), s.unitCell(leaf, 3)}; got != [2]string{"8", "32"} {
		t.Errorf("leaf row %v", got)
	}
	if unit, cluster := serverLinks(); unit != 256 || cluster != 1000 {
		t.Errorf("server-leaf rows add up to %g in the SU, %d in the cluster; want 256 and 1,000", unit, cluster)
	}
	if s.unitCell(leaf, 0) != "Switches" || s.unitCell(leaf+1, 0) != "" {
		t.Errorf("group column %q, %q", s.unitCell(leaf, 0), s.unitCell(leaf+1, 0))
	}
	if !strings.Contains(s.suHeading.Text, "4 SUs, the last partial") {
		t.Errorf("heading %q", s.suHeading.Text)
	}
	typeIn(u, "cluster.gpus", "2048")
	u.WaitIdle()
	if _, cluster := serverLinks(); cluster != 2048 {
		t.Errorf("after 2,048 GPUs the table says %d server links", cluster)
	}
}
