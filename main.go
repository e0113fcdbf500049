// Command fabricplan plans the RDMA back-end network of an AI/ML cluster:
// with no arguments (or a scenario file) it opens the desktop app; with a
// subcommand it runs headless (package cli).
package main

import (
	"os"

	"fabricplan/cli"
)

func main() {
	args := os.Args[1:]
	if isGUIArgs(args) {
		os.Exit(runGUI(args, os.Stderr))
	}
	os.Exit(cli.Run(args, os.Stdout, os.Stderr))
}
