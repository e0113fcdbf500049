package cli

import (
	"strings"
	"testing"
)

// The plan's header counts one GPU and one server in the singular.
// Expected: 1 GPU in 1 server of 8 (the default server of 8 GPUs);
// 1,024 GPUs in 128 servers. Mutation caught: the counts written with
// a fixed plural ("1 GPUs in 1 servers").
func TestPlanHeaderSingular(t *testing.T) {
	for _, tc := range []struct {
		gpus, want string
	}{
		{"1", "  1 GPU in 1 server of 8;"},
		{"1024", "  1,024 GPUs in 128 servers of 8;"},
	} {
		out, errOut, code := runArgs(t, "plan", "--system", "custom", "--gpus", tc.gpus)
		if code != ExitOK || !strings.Contains(out, tc.want) {
			t.Errorf("--gpus %s: exit %d, %s; want a line starting %q in:\n%s", tc.gpus, code, errOut, tc.want, out)
		}
	}
}
