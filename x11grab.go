//go:build screenshot && !nogui

package main

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// grabX11 reads a w x h region at the top-left of the X screen with
// GetImage: what the X server shows, the real window's pixels. Fyne's own
// Capture reads the GL front buffer, which Mesa's software renderer under
// Xvfb leaves blank.
func grabX11(w, h int) (image.Image, error) {
	if os.Getenv("DISPLAY") == "" {
		return nil, errors.New("no X display")
	}
	conn, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("connect to X: %w", err)
	}
	defer conn.Close()
	screen := xproto.Setup(conn).DefaultScreen(conn)
	w = min(w, int(screen.WidthInPixels))
	h = min(h, int(screen.HeightInPixels))
	reply, err := xproto.GetImage(conn, xproto.ImageFormatZPixmap, xproto.Drawable(screen.Root),
		0, 0, uint16(w), uint16(h), 0xffffffff).Reply()
	if err != nil {
		return nil, fmt.Errorf("read the X screen: %w", err)
	}
	if screen.RootDepth != 24 && screen.RootDepth != 32 || len(reply.Data) < w*h*4 {
		return nil, fmt.Errorf("unsupported X screen depth %d", screen.RootDepth)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := 4 * (y*w + x) // BGRX, little-endian
			img.SetRGBA(x, y, color.RGBA{reply.Data[i+2], reply.Data[i+1], reply.Data[i], 0xff})
		}
	}
	return img, nil
}

// blank reports whether img is one colour (a window that never drew).
func blank(img image.Image) bool {
	b := img.Bounds()
	first := color.RGBAModel.Convert(img.At(b.Min.X, b.Min.Y))
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			if color.RGBAModel.Convert(img.At(x, y)) != first {
				return false
			}
		}
	}
	return true
}
