package planner

import (
	"errors"
	"strings"
	"testing"
)

func TestTooManyTiersSuggests(t *testing.T) {
	cat := testCatalog(t)
	_, err := Build(ibScenario(1_000_000), cat)
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	for _, want := range []string{"three tiers", "planes"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	s := ibScenario(1_000_000)
	s.Network.Fabric, s.Network.Switch = Ethernet, "sn5600"
	// The 400G NICs run 100G lanes: only the 100G-SerDes Tomahawk 6
	// joins them (mutation caught: a suggestion or auto choice of the
	// 200G-SerDes part, whose links could not come up).
	if _, err := Build(s, cat); err == nil || !strings.Contains(err.Error(), "higher-radix switch: tomahawk6-100g") ||
		strings.Contains(err.Error(), "switch: tomahawk6 has") {
		t.Errorf("sn5600 at 1M GPUs: err = %v, want a tomahawk6-100g suggestion only", err)
	}
	s.Network.Switch = Auto
	if p, err := Build(s, cat); err != nil || p.Switch.Key != "tomahawk6-100g" {
		t.Errorf("auto at 1M GPUs: %v", err)
	}
}
