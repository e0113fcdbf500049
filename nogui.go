//go:build nogui

package main

import (
	"fmt"
	"io"

	"fabricplan/cli"
)

// runGUI, in a build without the window, says how to get one.
func runGUI(_ []string, stderr io.Writer) int {
	fmt.Fprintln(stderr, "fabricplan: this build has no window (built with -tags nogui): run a subcommand (fabricplan help), or build without nogui for the desktop app")
	return cli.ExitFailure
}
