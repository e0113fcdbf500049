package cli

import (
	"strings"
	"testing"
)

// search checks its scenario without laying it out, and a scenario
// whose hall cannot be laid out is still refused naming the field and
// its fix (the tray below the 42U rack top, 1.87 m), before or after
// the search; a scenario that plans searches. Mutations caught: the
// search's own "no buildable design" reported instead of the
// scenario's hall error, the hall error lost when the flat check
// passes.
func TestSearchChecksScenario(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"search", "--tray-height-m", "1"}, 2, "--tray-height-m: the tray at 1 m runs through 42U racks; raise the tray above the 1.87 m rack top"},
		{[]string{"search", "--gpus", "256"}, 0, "Pareto front"},
	} {
		out, errOut, code := runArgs(t, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d naming %q", c.args, code, out, errOut, c.code, c.want)
		}
	}
}
