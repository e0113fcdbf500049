package scenariofile

import (
	"strings"
	"testing"
)

// A file that sets what its system fixes is an error naming the key.
func TestSystemConflicts(t *testing.T) {
	cat := testCatalog(t)
	src := "schema = 1\n[cluster]\nsystem = \"gb200-nvl72\"\ngpus = 576\ngpus_per_server = 8\n[network]\nnic_gbps = 800\n"
	_, err := Check([]byte(src), cat)
	for _, want := range []string{"cluster.gpus_per_server (line 5)", "network.nic_gbps (line 7)"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	ok := "schema = 1\n[cluster]\nsystem = \"gb200-nvl72\"\ngpus = 576\n"
	if _, err := Check([]byte(ok), cat); err != nil {
		t.Errorf("plain system scenario: %v", err)
	}
	if _, err := Check([]byte("schema = 1\n[cluster]\nsystem = \"gb9000\"\n"), cat); !namesField(err, "cluster.system") {
		t.Errorf("unknown system: %v", err)
	}
}
