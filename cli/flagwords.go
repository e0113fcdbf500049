package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"fabricplan/internal/fielderr"
	"fabricplan/planner"
)

// flagConflicts refuses plan flags that set a figure the scenario's
// catalog system fixes (--nic-gbps 800 on a dgx-h100): the system would
// overwrite it, so the flag would be dropped without a word. A scenario
// file's own keys are checked by scenariofile.SystemConflicts.
func (in *scenarioInput) flagConflicts(cat *planner.Catalog) error {
	s := in.scenario
	errs := s.ConflictsWithSystem(cat, func(key string) bool {
		name, ok := fieldFlag[key]
		return ok && in.set[name]
	})
	if len(errs) == 0 {
		return nil
	}
	for _, fe := range fielderr.FieldErrors(errors.Join(errs...)) {
		name := fieldFlag[fe.Field]
		fe.Field = "--" + name
		fe.Fix = fmt.Sprintf("leave out --%s (the system sets it) or add --system %s", name, planner.CustomSystem)
	}
	return usageError{errors.Join(errs...)}
}

// switchFromDefault reports whether the scenario's switch is the
// embedded default scenario's, one the user neither saw nor set: when the
// user's flags rule it out, the plan picks one (switch = auto).
func (in *scenarioInput) switchFromDefault() bool {
	return in.path == defaultScenarioName && !in.set["switch"]
}

// fabricFromSwitch makes the fabric the one of the switch a flag named
// where the fabric is the embedded default scenario's (InfiniBand), one
// the user neither saw nor set: --switch sn5600 plans Ethernet. It
// changes s and the input alike and returns the note saying so, "" when
// it changed nothing.
func (in *scenarioInput) fabricFromSwitch(s *planner.Scenario, cat *planner.Catalog) string {
	if in.path != defaultScenarioName || !in.set["switch"] || in.set["fabric"] {
		return ""
	}
	sw := cat.Switches[in.scenario.Network.Switch]
	if sw == nil || sw.Fabric == in.scenario.Network.Fabric {
		return ""
	}
	was := in.scenario.Network.Fabric
	in.scenario.Network.Fabric, s.Network.Fabric = sw.Fabric, sw.Fabric
	in.scenario.Name = describeScenario(in.scenario)
	s.Name = in.scenario.Name
	return fmt.Sprintf("fabric %s, the fabric of --switch %s: the default scenario's %s does not run on it; --fabric picks one", sw.Fabric.Name(), sw.Key, was.Name())
}

// switchError is the first field error of err about the leaf switch, nil
// when it has none.
func switchError(err error) *fielderr.FieldError {
	for _, fe := range fielderr.FieldErrors(err) {
		if fe.Field == "network.switch" {
			return fe
		}
	}
	return nil
}

// autoSwitchNote says that the default scenario's switch was replaced by
// the cheapest that fits, and why.
func autoSwitchNote(was string, why *fielderr.FieldError, p *planner.Plan) string {
	return fmt.Sprintf("switch = auto chose %s: the default scenario's switch, %s, does not suit the flags given (%s); --switch KEY picks one",
		p.Switch.Key, was, why.Problem)
}

// flagUserWords rewrites the field errors of err whose field a flag set
// in a flag user's words: the field named as the flag (--tiers), a fix
// that says "tiers = 0" as "--tiers 0", and a switch error offering
// --switch auto. A field the user did not set, blamed for what a flag
// implied (ports_per_nic for --topology dual-plane), is put on that flag.
func (in *scenarioInput) flagUserWords(err error) {
	for _, fe := range fielderr.FieldErrors(err) {
		if fe.Field == "network.ports_per_nic" && in.set["topology"] && !in.set["ports-per-nic"] && in.scenario.Network.Style() == planner.TopoDualPlane {
			fe.Field, fe.Line = "--topology", 0
			fe.Problem = "a " + planner.TopoDualPlane + " design takes 2 ports a NIC, but " + fe.Problem
			fe.Fix = "use another --topology, or a NIC or --system whose NIC has 2 ports"
			continue
		}
		flagName, ok := fieldFlag[fe.Field]
		if !ok || !in.set[flagName] {
			continue
		}
		fe.Fix = flagFix(fe.Fix)
		if fe.Field == "network.switch" {
			fe.Fix = strings.TrimPrefix(fe.Fix+"; or --switch auto for the cheapest that fits", "; ")
		}
		fe.Field, fe.Line = "--"+flagName, 0 // the line is the file's, which the flag overrode
	}
}

// keyAssign matches "key = value" in a fix, the key with or without its
// table and the value with or without quotes.
var keyAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:[a-z]+\.)?([a-z_]+) = "?([A-Za-z0-9:._-]+)"?`)
})

// flagFix is a fix written for a scenario file ("set tiers = 0") in
// flags ("set --tiers 0"); assignments to keys no flag sets stay.
func flagFix(fix string) string {
	short := map[string]string{}
	for key, name := range fieldFlag {
		short[key[strings.LastIndex(key, ".")+1:]] = name
	}
	re := keyAssign()
	return re.ReplaceAllStringFunc(fix, func(m string) string {
		sub := re.FindStringSubmatch(m)
		name, ok := short[sub[1]]
		if !ok {
			return m
		}
		return "--" + name + " " + sub[2]
	})
}
