package cli

import (
	"regexp"
	"strings"
	"testing"
)

// The serving example (kind = "inference", 112 prefill GPUs in
// instances of tp 8, 144 decode GPUs in instances of EP 72) shows no
// training job time, and its what-if, by hand: a lost server's 8 GPUs
// take one of the two 72-GPU decode instances out (50% of the pool
// left), nothing restarts and nothing checkpoints (issue #45 finding
// 23). A training plan's job-time block shows the JCT counting failures
// under the JCT gain (finding 18). Mutations caught: the JOB TIME block
// printed for a serving plan, the training what-if's goodput and
// checkpoint line printed for it, the counting-failures row dropped.
func TestServingAndFailuresText(t *testing.T) {
	const serving = "../data/scenarios/inference-deepseek-h100.toml"
	out, errOut, code := runArgs(t, "plan", serving)
	if code != 0 || strings.Contains(out, "JOB TIME") || !strings.Contains(out, "INFERENCE (model)") {
		t.Errorf("plan of a serving scenario (exit %d, %s):\n%s", code, errOut, out)
	}
	out, errOut, code = runArgs(t, "resilience", serving)
	if code != 0 || !strings.Contains(out, "Serving failure what-if") || strings.Contains(out, "Goodput (ETTR)") || strings.Contains(out, "each save stalls") ||
		!regexpMatch(`(?m)^\s+server\s+32\s+8\s+72\s.*serves on\s+decode\s+1\s+50\.0%`, out) {
		t.Errorf("resilience of a serving scenario (exit %d, %s):\n%s", code, errOut, out)
	}
	out, _, code = runArgs(t, "plan", "../data/scenarios/ib-ndr-1k.toml")
	if code != 0 || !regexpMatch(`(?m)^  JCT gain .*\n  JCT counting failures\s+[0-9.]+ days\s+planned [0-9.]+ days; goodput`, out) {
		t.Errorf("plan of a training scenario: no JCT counting failures under the gain:\n%s", out)
	}
}

// regexpMatch reports whether pattern matches s.
func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
