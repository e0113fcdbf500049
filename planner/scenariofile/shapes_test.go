package scenariofile

import (
	"strings"
	"testing"

	"fabricplan/internal/fielderr"
)

// TestOneErrorPerMistake: each document has one mistake (or, for the
// last rows, two independent ones) and Check reports exactly
// those fields, with a fix. Mutations caught: a value where a table
// belongs decoded as the defaults (issue 26: `cluster = 5`, `[[cluster]]`,
// `workload = "llama3-405b"`, `network = "ethernet"` planned and exited
// 0); a decoder failure followed by the checks of the half-decoded,
// empty scenario (schema version 0, 0 GPUs, empty fabric); an unknown
// fabric hiding a wrong nic_gbps.
func TestOneErrorPerMistake(t *testing.T) {
	cat := testCatalog(t)
	for _, tc := range []struct {
		name   string
		src    string
		fields []string // the fields reported, in order
		says   string   // part of the first problem or fix
	}{
		{"cluster = 5", "schema = 1\ncluster = 5\n", []string{"cluster"}, "got a whole number"},
		{"[[cluster]]", "schema = 1\n[[cluster]]\ngpus = 64\n", []string{"cluster"}, "array of tables"},
		{"workload string", "schema = 1\nworkload = \"llama3-405b\"\n", []string{"workload"}, "got a string"},
		{"network string", "schema = 1\nnetwork = \"ethernet\"\n", []string{"network"}, "got a string"},
		{"media number", "schema = 1\n[network]\nmedia = 3\n", []string{"network.media"}, "expected a table"},
		{"reliability array", "schema = 1\nreliability = [1]\n", []string{"reliability"}, "an array"},
		{"prices string", "schema = 1\nprices = \"cheap\"\n", []string{"prices"}, "got a string"},
		{"inline table is a table", "schema = 1\ncluster = { gpus = 64 }\n", nil, ""},
		{"dotted keys make a table", "schema = 1\ncluster.gpus = 64\n", nil, ""},
		{"past int64", "schema = 1\n[cluster]\ngpus = 99999999999999999999\n", []string{"cluster.gpus"}, "int64"},
		{"past float64", "schema = 1\n[cluster]\nserver_price_usd = 1e400\n", []string{"cluster.server_price_usd"}, "float64"},
		{"Latin-1 byte", "schema = 1\nname = \"caf\xe9\"\n", []string{"file"}, "save it as UTF-8"},
		{"NUL byte", "schema = 1\nname = \"a\x00b\"\n", []string{"file"}, "NUL"},
		{"CR-only line ends", "schema = 1\r[cluster]\rgpus = 64\r", []string{"file"}, "CR only"},
		{"unknown fabric, wrong speed", "schema = 1\n[network]\nfabric = \"fc\"\nnic_gbps = 123\n",
			[]string{"network.fabric", "network.nic_gbps"}, "unknown fabric"},
		{"unknown fabric, a speed some fabric has", "schema = 1\n[network]\nfabric = \"fc\"\nnic_gbps = 800\n",
			[]string{"network.fabric"}, "unknown fabric"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check([]byte(tc.src), cat)
			fes := fielderr.FieldErrors(err)
			var got []string
			for _, fe := range fes {
				got = append(got, fe.Field)
			}
			if strings.Join(got, ",") != strings.Join(tc.fields, ",") {
				t.Fatalf("fields %v, want %v: %v", got, tc.fields, err)
			}
			if len(fes) > 0 && (fes[0].Fix == "" || !strings.Contains(fes[0].Problem+fes[0].Fix, tc.says)) {
				t.Errorf("first error %q lacks %q or a fix", fes[0].Error(), tc.says)
			}
		})
	}
}
