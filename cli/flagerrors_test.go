package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ib6152 is finding 11's scenario: data/scenarios/ib-ndr-1k.toml at
// 6,152 GPUs, with no [growth] table and no [[phase]] list.
const ib6152 = `schema = 1
name = "ib 6152"

[cluster]
gpus = 6152
gpus_per_server = 8

[network]
fabric = "infiniband"
nic_gbps = 400
switch = "qm9700"
oversubscription = "1:1"
rail_optimized = true
`

// A flag's error names the flag the user typed, never the scenario key
// it writes (growth.recable_min, phase[1].gpus) nor a file or line that
// does not hold the problem, gives one range (the key's: 0 to 10,080
// minutes, 1 to 1,000 crews; never the parser's 1.048576e+06), and says
// the fix in flags (--gpus, not cluster.gpus). Mutation caught: Run
// without its flagWords pass (the old code: phases' own flags came back
// as growth.recable_min under "ib6152.toml: invalid input").
func TestFlagErrorsNameTheFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ib6152.toml")
	if err := os.WriteFile(path, []byte(ib6152), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want []string // in order, on stderr
	}{
		{[]string{"phases", path, "--recable-min", "20000"}, []string{"--recable-min: 20000 minutes; give minutes from 0 to 10080"}},
		{[]string{"phases", path, "--recable-min", "-3"}, []string{"--recable-min"}},
		{[]string{"phases", path, "--crews", "5000"}, []string{"--crews: 5000 crews; give 1 to 1000 crews"}},
		{[]string{"phases", path, "--phases", "4096,2048"}, []string{"--phases: phase 1: 4096 GPUs; give 1 to --gpus (2048), or raise --gpus",
			"--phases: phase 2: 2048 GPUs"}},
		{[]string{"phases", path, "--units", "1,40"}, []string{"--units: phase 2: 10,240 GPUs", "give at most 6,152 GPUs (--gpus, the final size), or raise --gpus"}},
	} {
		t.Run(strings.Join(tc.args[2:], " "), func(t *testing.T) {
			_, errOut, code := runArgs(t, tc.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			at := 0
			for _, w := range tc.want {
				i := strings.Index(errOut[at:], w)
				if i < 0 {
					t.Fatalf("stderr lacks %q (after byte %d):\n%s", w, at, errOut)
				}
				at += i + len(w)
			}
			for _, bad := range []*regexp.Regexp{
				regexp.MustCompile(`growth\.|phase\[|cluster\.gpus|\(line \d+\)`),
				regexp.MustCompile(`ib6152\.toml`),
				regexp.MustCompile(`\de[+-]\d`),
			} {
				if m := bad.FindString(errOut); m != "" {
					t.Errorf("stderr says %q, which the user did not type:\n%s", m, errOut)
				}
			}
			ranges := regexp.MustCompile(`from \d[\d,]* to \d[\d,]*|\d[\d,]* to \d[\d,]* crews`).FindAllString(errOut, -1)
			if len(ranges) > 1 {
				t.Errorf("%d ranges for one flag: %q", len(ranges), ranges)
			}
		})
	}
}
