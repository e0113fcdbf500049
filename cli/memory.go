package cli

import (
	"fmt"

	"fabricplan/internal/memguard"
	"fabricplan/internal/textfmt"
)

// residentPerGPU is the resident memory a command adds per GPU planned,
// bytes: measured with /usr/bin/time -f %M on a 1,000,000-GPU, two-plane
// XDR plan on Q3400 (`--gpus 1000000 --nic-gbps 800 --switch q3400
// --planes 2`, 2026-11-29, the larger of two runs; export: its largest
// chart, styles), less the 35 MB a run that plans nothing holds. A
// command not listed holds about what plan holds.
var residentPerGPU = map[string]float64{
	"plan":   40,
	"cables": 60,
	"layout": 42,
	"search": 118,
	"phases": 88,
	"report": 268,
	"export": 129,
}

// hostMemory is the machine commands check their memory against (a test
// puts a fake in its place).
var hostMemory = memguard.Host

// checkMemory refuses, before any work starts, a command whose plan of
// gpus GPUs would not fit in the memory the machine lets the process
// have: a clear exit 1 in place of the runtime's "out of memory" halfway
// through (issue 48).
func checkMemory(command string, gpus int) error {
	per, ok := residentPerGPU[command]
	if !ok {
		per = residentPerGPU["plan"]
	}
	need := uint64(per * float64(max(gpus, 0)))
	return hostMemory().Check(fmt.Sprintf("fabricplan %s for %s GPUs", command, textfmt.Int(gpus)), need)
}
