package cli

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
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
	}
	flagWords(err, in.set)
}

// flagWords puts the field errors of err whose key a flag in set wrote
// in that flag's words: the field named as the flag the user typed
// (--recable-min, not growth.recable_min; no line, which is the file's
// and the flag overrode it), the item of a list it names ("phase 2"),
// and the fix in flags (flagFix), with --switch auto offered for a
// switch. Every command's errors pass through it (Run), and the plan's
// with their lines (withLines). Fields already a flag's are left.
func flagWords(err error, set map[string]bool) {
	for _, fe := range fielderr.FieldErrors(err) {
		if strings.HasPrefix(fe.Field, "--") {
			continue
		}
		flagName, item := flagOfField(fe.Field, set)
		if flagName == "" {
			continue
		}
		fe.Fix = flagFix(fe.Fix)
		if fe.Field == "network.switch" {
			fe.Fix = strings.TrimPrefix(fe.Fix+"; or --switch auto for the cheapest that fits", "; ")
		}
		if item != "" {
			fe.Problem = item + ": " + fe.Problem
		}
		fe.Field, fe.Line = "--"+flagName, 0
	}
}

// commandFlagKeys maps the scenario keys a command's own flags set (the
// plan flags are fieldFlag's) to those flags, "phase[]" standing for
// every phase: phases' --crews and --recable-min write [growth], and
// --phases or --units the [[phase]] list. With fieldFlag it is the one
// map from a key to the flag a user typed for it, which every command's
// field errors are put in flag words by (flagUserWords), and by which a
// flag for a key leaves the key's range to the key's own check (one
// range a flag: keyedFlag).
var commandFlagKeys = map[string][]string{
	"growth.recable_min": {"recable-min"}, "growth.recable_crews": {"crews"},
	"phase[].gpus": {"phases", "units"}, "phase[].units": {"units"},
}

// phaseKey matches a phase's key with its index: "phase[2].gpus".
var phaseKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^phase\[(\d+)\]\.`) })

// flagOfField is the flag in set (the flags given) that wrote scenario
// key field, "" when none did, and for a key of one of a list's items
// which item ("phase 2" for phase[2].gpus under --phases).
func flagOfField(field string, set map[string]bool) (flagName, item string) {
	if name, ok := fieldFlag[field]; ok && set[name] {
		return name, ""
	}
	key := field
	if m := phaseKey().FindStringSubmatch(field); m != nil {
		key, item = phaseKey().ReplaceAllString(field, "phase[]."), "phase "+m[1]
	}
	for _, name := range commandFlagKeys[key] {
		if set[name] {
			return name, item
		}
	}
	return "", ""
}

// keyedFlag says flag name sets a scenario key (commandFlagKeys), so
// the key's own check, not the flag's parser, states its range.
func keyedFlag(name string) bool {
	for _, names := range commandFlagKeys {
		if slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// keyAssign matches "key = value" in a fix, the key with or without its
// table and the value with or without quotes.
var keyAssign = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:[a-z]+\.)?([a-z_]+) = "?([A-Za-z0-9:._-]+)"?`)
})

// keyMention matches a scenario key named whole in a fix: "cluster.gpus".
var keyMention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[a-z]+\.[a-z_]+\b`) })

// flagFix is a fix written for a scenario file ("set tiers = 0", "raise
// cluster.gpus") in flags ("set --tiers 0", "raise --gpus"); assignments
// to and mentions of keys no flag sets stay.
func flagFix(fix string) string {
	short := map[string]string{}
	for key, name := range fieldFlag {
		short[key[strings.LastIndex(key, ".")+1:]] = name
	}
	re := keyAssign()
	fix = re.ReplaceAllStringFunc(fix, func(m string) string {
		sub := re.FindStringSubmatch(m)
		name, ok := short[sub[1]]
		if !ok {
			return m
		}
		return "--" + name + " " + sub[2]
	})
	return keyMention().ReplaceAllStringFunc(fix, func(m string) string {
		if name, ok := fieldFlag[m]; ok {
			return "--" + name
		}
		return m
	})
}
