package market

import (
	"strings"
	"testing"
	"testing/fstest"

	"fabricplan/data"
)

// The shipped tables are the report's: Table 2's 2025 device split is
// $3.5 B of NICs and $11.0 B of switching, its 2028 total $22.5 B
// (seeds/002, Table 2), and a year the report does not have is said.
// Mutations caught: the split read from the wrong row or column (Table
// 1's technology rows, or the next year), a missing year answered with
// zeros and ok, the citation without its publisher or date.
func TestLoadShipped(t *testing.T) {
	m, err := Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		year            int
		nics, switching float64
		ok              bool
	}{{2025, 3.5, 11.0, true}, {2021, 0.4, 0.6, true}, {2028, 3.9, 18.6, true}, {2030, 0, 0, false}} {
		nics, sw, ok := m.DeviceSplit(tc.year)
		if nics != tc.nics || sw != tc.switching || ok != tc.ok {
			t.Errorf("%d: NICs %g, switching %g, ok %v; want %g, %g, %v", tc.year, nics, sw, ok, tc.nics, tc.switching, tc.ok)
		}
	}
	if got := m.Device.Total[len(m.Device.Total)-1]; got != 22.5 {
		t.Errorf("2028 total %g, want 22.5", got)
	}
	if got, want := m.Citation(), `650 Group, "RDMA Networking and AI" (2024-06-24)`; got != want {
		t.Errorf("citation %q, want %q", got, want)
	}
}

// Broken tables are refused with what is wrong. Mutations caught: a
// series shorter than its years accepted (the charts would index past
// it), no front-end ports per server accepted (the ports chart divides
// by it), unknown keys ignored.
func TestLoadErrors(t *testing.T) {
	good := `[technology]
years = [2024, 2025]
ethernet = [1, 2]
infiniband = [1, 2]
total = [2, 4]
[device]
years = [2024, 2025]
nics = [1, 1]
switching = [1, 3]
total = [2, 4]
[servers]
front_end_ports_per_server = 2
`
	for _, tc := range []struct{ name, src, want string }{
		{"good", good, ""},
		{"short technology series", strings.Replace(good, "ethernet = [1, 2]", "ethernet = [1]", 1), "technology series of 1 values for 2 years"},
		{"short device series", strings.Replace(good, "nics = [1, 1]", "nics = [1, 1, 1]", 1), "device series of 3 values for 2 years"},
		{"no front-end ports", strings.Replace(good, "front_end_ports_per_server = 2", "front_end_ports_per_server = 0", 1), "needs device years and front_end_ports_per_server"},
		{"unknown key", good + "colour = 1\n", `market data: unknown key "servers.colour"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"market.toml": {Data: []byte(tc.src)}})
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
	if _, err := Load(fstest.MapFS{}); err == nil || !strings.HasPrefix(err.Error(), "read market data: ") {
		t.Errorf("no file: error %v", err)
	}
}
