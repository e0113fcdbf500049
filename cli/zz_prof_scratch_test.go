package cli

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
)

func TestScratchProfile(t *testing.T) {
	args := strings.Fields(os.Getenv("PROF_ARGS"))
	if len(args) == 0 {
		t.Skip()
	}
	runtime.MemProfileRate = 64 << 10
	var cw countW
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	code := Run(args, &cw, io.Discard)
	runtime.ReadMemStats(&m1)
	t.Logf("out %d bytes, total alloc %d MB, heap sys %d MB", cw.n, (m1.TotalAlloc-m0.TotalAlloc)>>20, m1.HeapSys>>20)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	runtime.GC()
	runtime.GC()
	f, _ := os.Create(os.Getenv("PROF_OUT"))
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
}

type countW struct{ n int }

func (c *countW) Write(b []byte) (int, error) { c.n += len(b); return len(b), nil }
