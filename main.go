// Command fabricplan plans the RDMA back-end network of an AI/ML cluster:
// with no arguments (or a scenario file) it opens the desktop app; with a
// subcommand it runs headless (package cli). Built with the nogui tag it
// is the headless commands alone: no GUI package is linked or
// initialised, for scripts and servers that start it many times. With
// nocharts as well, no chart package is either (gonum/plot, the PDF
// writer): export and report then say how to get them.
package main

import (
	"os"
	"strings"

	"fabricplan/cli"
)

func main() {
	args := os.Args[1:]
	if isGUIArgs(args) {
		os.Exit(runGUI(args, os.Stderr))
	}
	os.Exit(cli.Run(args, os.Stdout, os.Stderr))
}

// isGUIArgs says whether the arguments ask for the window: none, a
// scenario file, or the window flags.
func isGUIArgs(args []string) bool {
	if len(args) == 0 {
		return true
	}
	a := args[0]
	return strings.HasSuffix(strings.ToLower(a), ".toml") ||
		strings.HasPrefix(a, "--screenshot") || strings.HasPrefix(a, "-screenshot") ||
		strings.HasPrefix(a, "--tab") || strings.HasPrefix(a, "--size") || strings.HasPrefix(a, "-size")
}
