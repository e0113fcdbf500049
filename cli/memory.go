package cli

import (
	"fmt"
	"os"
	"runtime/debug"

	"fabricplan/internal/memguard"
	"fabricplan/internal/textfmt"
)

// residentPerGPU is the resident memory a command adds per GPU planned,
// bytes: measured with /usr/bin/time -f %M on a 1,000,000-GPU, two-plane
// XDR plan on Q3400 (`--gpus 1000000 --nic-gbps 800 --switch q3400
// --planes 2`, 2026-11-29, the window's build, with the collector kept
// under heapFloor; export: its largest chart, styles), less the 35 MB a
// run that plans nothing holds. A command not listed holds about what
// plan holds.
var residentPerGPU = map[string]float64{
	"plan":   40,
	"cables": 57,
	"layout": 42,
	"search": 71,
	"phases": 67,
	"report": 77,
	"export": 73,
}

// hostMemory is the machine commands check their memory against (a test
// puts a fake in its place).
var hostMemory = memguard.Host

// budgetMemory refuses, before any work starts, a command whose plan of
// gpus GPUs would not fit in the memory the machine lets the process
// have: a clear exit 1 in place of the runtime's "out of memory" halfway
// through (issue 48). A command that fits gets its heap limit
// (limitHeap) from the same need.
func budgetMemory(command string, gpus int) error {
	per, ok := residentPerGPU[command]
	if !ok {
		per = residentPerGPU["plan"]
	}
	need := uint64(per * float64(max(gpus, 0)))
	if err := hostMemory().Check(fmt.Sprintf("fabricplan %s for %s GPUs", command, textfmt.Int(gpus)), need); err != nil {
		return err
	}
	limitHeap(need)
	return nil
}

// heapFloor is the Go heap a command asks the collector to stay under
// when it needs less: without a limit the collector lets the heap grow
// to twice what is live, and a 1,000,000-GPU report, whose plans' walks
// hold some 60 MB live at once, peaked at 161-188 MiB resident
// (issue 48's bound is 128 MiB). The collector works harder only near
// the limit, so a command far under it runs as before.
const heapFloor = 80 << 20

// limitHeap asks the collector to keep the Go heap under the larger of
// heapFloor and need, the bytes the command is measured to need; a
// GOMEMLIMIT the user set wins. The limit is soft: a command that needs
// more runs on, its collector working harder.
func limitHeap(need uint64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(int64(max(need, heapFloor)))
}
