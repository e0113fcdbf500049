package scenariofile

import (
	"fabricplan/internal/fielderr"
	"strings"
	"testing"
)

// TestPhaseDecode reads [[phase]] tables strictly, naming a bad key by
// its phase and line. Catches the array decoded without the unknown-key
// check, or every phase's key reported at the first phase's line.
func TestPhaseDecode(t *testing.T) {
	src := "schema = 1\n[cluster]\ngpus = 1024\n\n[[phase]]\ngpus = 256\n\n[[phase]]\ngpux = 512\n\n[growth]\nprebuy_ports = true\nrecable_crews = 3\n"
	_, err := Parse([]byte(src))
	fes := fielderr.FieldErrors(err)
	if len(fes) != 1 || fes[0].Field != "phase[2].gpux" || fes[0].Line != 9 {
		t.Fatalf("err = %v, want phase[2].gpux on line 9", err)
	}
	s, err := Parse([]byte(strings.Replace(src, "gpux", "gpus", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Phases) != 2 || s.Phases[1].GPUs != 512 || s.Growth == nil || !s.Growth.PrebuyPorts || s.Growth.RecableCrews != 3 {
		t.Fatalf("decoded %+v %+v", s.Phases, s.Growth)
	}
	out, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out)
	if err != nil || !back.Equal(s) {
		t.Errorf("round trip: %v\n%s", err, out)
	}
	c := s.Clone()
	c.Phases[0].GPUs, c.Growth.RecableCrews = 1, 9
	if s.Phases[0].GPUs != 256 || s.Growth.RecableCrews != 3 {
		t.Error("Clone shares phases or growth with the original")
	}
	if _, err := Parse([]byte("schema = 1\nphase = 3\n")); err == nil || !strings.Contains(err.Error(), "[[phase]]") {
		t.Errorf("phase = 3: err = %v, want the array form", err)
	}
}
