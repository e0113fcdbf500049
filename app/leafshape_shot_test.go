//go:build screenshot

package app

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"fabricplan/app/model"
)

// TestLeafShapeFormShots renders the form with "Media and more" open and
// scrolled to the leaf-shape inputs, at 1024x640 and 1600x1000, for the
// default scenario and an Ethernet leaf-pairs one, into $LEAFSHOT_DIR
// (skipped without it), for a person to look at.
func TestLeafShapeFormShots(t *testing.T) {
	dir := os.Getenv("LEAFSHOT_DIR")
	if dir == "" {
		t.Skip("LEAFSHOT_DIR not set")
	}
	u := newTestUI(t)
	scroll := u.inputs.content.(*container.Scroll)
	var acc *widget.Accordion
	for _, o := range scroll.Content.(*fyne.Container).Objects {
		if a, ok := o.(*widget.Accordion); ok {
			acc = a
		}
	}
	acc.Open(0)
	shoot := func(name string) {
		for _, size := range []fyne.Size{{Width: 1024, Height: 640}, {Width: 1600, Height: 1000}} {
			u.win.Resize(size)
			u.WaitIdle()
			d := fyne.CurrentApp().Driver()
			target := u.inputs.byKey["network.servers_per_tor"].widget
			y := d.AbsolutePositionForObject(target).Y - d.AbsolutePositionForObject(scroll).Y + scroll.Offset.Y - 40
			scroll.ScrollToOffset(fyne.NewPos(0, y))
			u.WaitIdle()
			img := u.win.Canvas().Capture()
			f, err := os.Create(filepath.Join(dir, name+"-"+sizeName(size)+".png"))
			if err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(f, img); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
	shoot("default")
	typeIn(u, "cluster.gpus", "968")
	pick(u, "network.fabric", model.FabricEthernet)
	for _, o := range choice(u, "network.switch").Options {
		if len(o) > 7 && o[:7] == "sn5600 " {
			pick(u, "network.switch", o)
		}
	}
	tick(u, "network.leaf_pairs", true)
	typeIn(u, "network.peer_link_ports", "4")
	if lp := u.Plan().LeafPairs; lp == nil || lp.PeerLinks != 36 {
		t.Fatalf("no leaf pairs planned: %+v", u.State().Problems)
	}
	shoot("leafpairs")
}

func sizeName(s fyne.Size) string {
	return map[float32]string{1024: "1024x640", 1600: "1600x1000"}[s.Width]
}
