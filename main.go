// Command fabricplan plans the RDMA back-end network of an AI/ML cluster:
// with no arguments it opens the desktop app; with a subcommand it runs
// headless (see cli.go).
package main

import "os"

func main() {
	os.Exit(runCLI(os.Args[1:], os.Stdout, os.Stderr))
}
