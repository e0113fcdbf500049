//go:build ignore

// icon_gen draws assets/icon.png: a two-tier fat-tree (two spines over
// four leaves over eight servers) on a rounded square. Run: go run icon_gen.go
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const size = 512

func main() {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	bg := color.RGBA{0x10, 0x2a, 0x43, 0xff}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			if inRounded(x, y, 24, 96) {
				img.Set(x, y, bg)
			}
		}
	}
	blue := color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	orange := color.RGBA{0xE6, 0x9F, 0x00, 0xff}
	white := color.RGBA{0xf2, 0xf2, 0xf2, 0xff}
	spines := []float64{192, 320}
	leaves := []float64{112, 208, 304, 400}
	servers := []float64{80, 144, 176, 240, 272, 336, 368, 432}
	for _, s := range spines {
		for _, l := range leaves {
			line(img, s, 150, l, 270, 7, blue)
		}
	}
	for i, sv := range servers {
		line(img, leaves[i/2], 270, sv, 390, 6, orange)
	}
	for _, s := range spines {
		box(img, s, 150, 38, 22, white)
	}
	for _, l := range leaves {
		box(img, l, 270, 30, 20, white)
	}
	for _, sv := range servers {
		box(img, sv, 398, 11, 18, orange)
	}
	f, err := os.Create("icon.png")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
}

func inRounded(x, y, margin, r int) bool {
	lo, hi := margin, size-margin
	if x < lo || x >= hi || y < lo || y >= hi {
		return false
	}
	cx := min(max(x, lo+r), hi-r)
	cy := min(max(y, lo+r), hi-r)
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}

func box(img *image.RGBA, cx, cy, hw, hh float64, c color.Color) {
	for y := int(cy - hh); y <= int(cy+hh); y++ {
		for x := int(cx - hw); x <= int(cx+hw); x++ {
			img.Set(x, y, c)
		}
	}
}

func line(img *image.RGBA, x0, y0, x1, y1, w float64, c color.Color) {
	n := int(math.Hypot(x1-x0, y1-y0))
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := x0+(x1-x0)*t, y0+(y1-y0)*t
		for dy := -w / 2; dy <= w/2; dy++ {
			for dx := -w / 2; dx <= w/2; dx++ {
				img.Set(int(x+dx), int(y+dy), c)
			}
		}
	}
}
