// Package assets bundles Fabric Planner's GUI resources: the app icon.
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the application icon (a two-tier fat-tree), 512 x 512 PNG.
var Icon = fyne.NewStaticResource("icon.png", iconPNG)
