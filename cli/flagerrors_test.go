package cli

import (
	"fmt"
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
		// 6,152 GPUs in units of 256: 24 whole and a partial one, 25.
		{[]string{"phases", path, "--units", "1,40"}, []string{"--units: phase 2: 40 scalable units", "give at most 25 (the final plan's scalable units), or raise --gpus"}},
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

// An error names what the user typed and its fix, followed, builds
// (finding 13: uplink_gbps = 800 on a 400G ConnectX-7 blamed the switch
// auto picked, and its fix "use qm9700" led to "qm9700 has no 800G
// ports"; finding 5: --nic-gbps 1600 on a qm9700 file blamed the file's
// switch line with "pick one with 1600G ports: (none in the
// catalog)"). Each case's fix is read from stderr and run. Mutations
// caught: validateLinkSpeed counting switches the NIC cannot join (the
// Q3400 at 400G: the uplink passes, the build fails on network.switch),
// validateSwitch blaming the switch when no switch has the ports.
func TestErrorFixFollowedBuilds(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	uplink := "schema = 1\n[cluster]\ngpus = 1000\n[network]\nuplink_gbps = %s\n"
	bad := write("bad.toml", strings.Replace(uplink, "%s", "800", 1))
	ib := write("ib6152.toml", ib6152)

	_, errOut, code := runArgs(t, "plan", bad)
	if code != ExitUsage || !strings.Contains(errOut, "network.uplink_gbps (line 5): ") || strings.Contains(errOut, "network.switch") {
		t.Fatalf("uplink_gbps = 800: exit %d, want the error on uplink_gbps (line 5):\n%s", code, errOut)
	}
	m := regexp.MustCompile(`leave it out, or give a speed they offer: ((?:\d+G(?:, )?)+)`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("no fix with speeds to follow:\n%s", errOut)
	}
	follow := []string{write("out.toml", "schema = 1\n[cluster]\ngpus = 1000\n")}
	for i, g := range strings.Split(m[1], ", ") {
		follow = append(follow, write(fmt.Sprintf("up%d.toml", i), strings.Replace(uplink, "%s", strings.TrimSuffix(g, "G"), 1)))
	}
	for _, f := range follow {
		if _, errOut, code := runArgs(t, "plan", f); code != 0 {
			t.Errorf("following the fix (%s) exits %d:\n%s", filepath.Base(f), code, errOut)
		}
	}

	_, errOut, code = runArgs(t, "plan", ib, "--nic-gbps", "1600")
	if code != ExitUsage || !strings.Contains(errOut, "--nic-gbps: no infiniband switch in the catalog has 1600G ports") || strings.Contains(errOut, "network.switch") {
		t.Fatalf("--nic-gbps 1600: exit %d, want the error on --nic-gbps:\n%s", code, errOut)
	}
	m = regexp.MustCompile(`--ports-per-nic (\d+) with --switch ([a-z0-9-]+)`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("--nic-gbps 1600: no split to follow:\n%s", errOut)
	}
	if _, errOut, code := runArgs(t, "plan", ib, "--nic-gbps", "1600", "--ports-per-nic", m[1], "--switch", m[2]); code != 0 {
		t.Errorf("following the fix (--ports-per-nic %s --switch %s) exits %d:\n%s", m[1], m[2], code, errOut)
	}
	// jct --sweep nic: the 1600G column's "–" has its reason and the
	// same split in the text.
	out, _, _ := runArgs(t, "jct", ib, "--sweep", "nic")
	if !regexp.MustCompile(`1600G: not planned: .*ports_per_nic = ` + m[1] + ` with switch = "` + m[2] + `"`).MatchString(out) {
		t.Errorf("jct --sweep nic does not say why 1600G is not planned, with the split:\n%s", out)
	}
}
