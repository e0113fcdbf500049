// Package cli is Fabric Planner's headless command line: plan, sweep,
// compare, jct, search, export, report and catalog. Each subcommand reads
// a scenario file and flags, and writes text, CSV, JSON or files; errors
// a user can fix exit with status 2, failures with 1.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"syscall"
	"time"

	"fabricplan/data"
	"fabricplan/internal/fielderr"
	"fabricplan/internal/safefile"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/hall"
	"fabricplan/planner/market"
	"fabricplan/planner/scenariofile"
)

// Exit codes: success, failure while doing the work, and bad usage or
// input.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// usageError marks errors the user can fix by changing the command line or
// the scenario; they exit with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// command is one headless subcommand.
type command struct {
	name, args, help string
	run              func(env *cliEnv, args []string) error
}

// cliEnv is what a subcommand runs with.
type cliEnv struct {
	stdout, stderr io.Writer
	cat            *planner.Catalog
	market         *market.Tables
	// inputs are the files the command reads, for checkOutput.
	inputs []string
	// flagSets are the command's flag sets (newFlagSet), whose flags
	// given put its field errors in flag words (flagWords).
	flagSets []*flag.FlagSet
}

// setFlags are the flags given to the command, by name.
func (env *cliEnv) setFlags() map[string]bool {
	set := map[string]bool{}
	for _, fs := range env.flagSets {
		fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	}
	return set
}

func commands() []command {
	return []command{
		{"plan", "[SCENARIO.toml] [plan flags] [--json]", "size the back-end fabric, its BOM, cost, power and JCT", runPlan},
		{"sweep", "[SCENARIO.toml] --gpus FROM:TO|a,b,c [plan flags] [--csv|--json]", "one row per cluster size", runSweep},
		{"compare", "A.toml B.toml [...] [--csv|--json]", "scenarios side by side: cost, ports, step time, JCT, gain", runCompare},
		{"jct", "[SCENARIO.toml] --sweep gpus|nic|fabric [plan flags] [--csv|--json]", "what-if rows of the JCT model", runJCT},
		{"resilience", "[SCENARIO.toml] [plan flags] [--csv|--json]", "failure what-if: what each lost part costs in job time; interruptions and goodput", runResilience},
		{"cables", "[SCENARIO.toml] [plan flags] --csv|--json|--topo [--out FILE]", "the cable map, one row per link, or the expected topology for bring-up", runCables},
		{"phases", "[SCENARIO.toml] [plan flags] [--phases a,b,c | --units a,b,c] [--prebuy] [--csv|--json] [--moves [--out FILE]]", "a phased build-out two ways: for the final size, and growing as you go (what each phase buys and re-cables)", runPhases},
		{"layout", "[SCENARIO.toml] [plan flags] [--csv|--json]", "the data hall: racks, rows, power per rack, cable lengths by medium", runLayout},
		{"search", "[SCENARIO.toml] [--target-days D | --within P%] [--budget USD] [--with-failures] [--all] [--csv|--json]", "the cheapest fabric that meets a job-time target", runSearch},
		{"export", "--chart NAME --out FILE [SCENARIO.toml] [plan flags] [--width --height --dpi --scale 2] | --list", "export a chart as PNG, SVG or PDF (--scale 2: twice the pixels)", runExport},
		{"report", "--out FILE.pdf [SCENARIO.toml] [plan flags]", "a multi-page PDF report of the plan", runReport},
		{"catalog", "[--json]", "the hardware catalog with prices and sources", runCatalog},
		{"validate", "[--json|--markdown] [--update-ratchet PATH [--accept RUN_ID --why REASON]...]", "every published point and run the JCT model is checked against: error, class, ratchet", runValidate},
	}
}

// Run runs a subcommand and returns the process exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		printUsage(stdout)
		return ExitOK
	}
	stdout, stderr = &cleanWriter{w: stdout}, &cleanWriter{w: stderr}
	cat, mkt, err := loadData()
	if err != nil {
		fmt.Fprintln(stderr, "fabricplan:", err)
		return ExitFailure
	}
	env := &cliEnv{stdout: stdout, stderr: stderr, cat: cat, market: mkt}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(env, args[1:])
			flagWords(err, env.setFlags())
			return report(stderr, c.name, err)
		}
	}
	fmt.Fprintf(stderr, "fabricplan: unknown command %q\n", args[0])
	printUsage(stderr)
	return ExitUsage
}

func report(stderr io.Writer, name string, err error) int {
	if err == nil {
		return ExitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	prefix := "fabricplan " + name
	if name == "" {
		prefix = "fabricplan"
	}
	if len(fielderr.FieldErrors(err)) > 0 {
		printFieldErrors(stderr, prefix, err)
		return ExitUsage
	}
	fmt.Fprintf(stderr, "%s: %s\n", prefix, textfmt.TerminalText(err.Error()))
	if errors.Is(err, errInterrupted) {
		return ExitInterrupted
	}
	var ue usageError
	if errors.As(err, &ue) || errors.Is(err, planner.ErrTooLarge) || errors.Is(err, safefile.ErrRefused) || errors.Is(err, syscall.ENAMETOOLONG) {
		return ExitUsage
	}
	return ExitFailure
}

// printFieldErrors lists field errors one a line, under the file they
// came from when they came from one. User text in them is made safe for
// the terminal.
func printFieldErrors(w io.Writer, prefix string, err error) {
	files := fielderr.FileErrors(err)
	if len(files) == 0 {
		files = []*fielderr.FileError{{Err: err}}
	}
	for _, f := range files {
		where := prefix
		if f.Path != "" && !allFlags(fielderr.FieldErrors(f.Err)) {
			where += ": " + textfmt.TerminalText(f.Path)
		}
		fmt.Fprintf(w, "%s: invalid input:\n", where)
		for _, fe := range fielderr.FieldErrors(f.Err) {
			fmt.Fprintln(w, "  "+textfmt.TerminalText(fe.Error()))
		}
	}
}

// allFlags says every field error names a flag the user typed
// (flagWords): the file they came with does not hold the problem, so
// it is not named above them.
func allFlags(errs []*fielderr.FieldError) bool {
	for _, fe := range errs {
		if !strings.HasPrefix(fe.Field, "--") {
			return false
		}
	}
	return len(errs) > 0
}

// ExtraUsage lists usage lines of modes a build adds (the screenshot
// build's --screenshot), printed with the app's own.
var ExtraUsage []string

func printUsage(w io.Writer) {
	fmt.Fprintln(w, `Fabric Planner sizes the RDMA back-end network of an AI cluster.

Usage:
  fabricplan                          open the desktop app
  fabricplan [SCENARIO.toml]          open the desktop app on a scenario`)
	for _, l := range ExtraUsage {
		fmt.Fprintln(w, "  "+l)
	}
	fmt.Fprintln(w, `  fabricplan COMMAND [arguments]

Commands:`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n           %s\n", c.name, c.args, c.help)
	}
	fmt.Fprintln(w, `
Plan flags (override the scenario file; without a file the embedded
default scenario is used):
  --system KEY|custom  --gpus N  --gpus-per-server N  --nics-per-server N  --nic-gbps N
  --ports-per-nic N  --planes N  --fabric infiniband|ethernet
  --switch KEY|auto  --oversubscription D:U  --tiers N  --leaf-alignment rack|packed
  --routing static|adaptive  --in-network-reduction true|false  --polarization 0..1
  --price-basis street|list|volume  --quotes FILE.csv|FILE.toml

Run 'fabricplan COMMAND -h' for a command's flags.`)
}

// planFlags are the scenario overrides shared by plan, sweep and jct.
type planFlags struct {
	values map[string]*string
	order  []string
}

var planFlagNames = []struct{ name, usage string }{
	{"system", "catalog system (dgx-h100, gb200-nvl72, ...; 'fabricplan catalog' lists them) or custom"},
	{"gpus", "GPU count"},
	{"gpus-per-server", "GPUs per server"},
	{"nics-per-server", "back-end NICs per server (default: one per GPU)"},
	{"nic-gbps", "NIC speed in Gb/s: 100, 200, 400, 800 or 1600"},
	{"ports-per-nic", "ports each NIC splits into"},
	{"planes", "independent fabric planes"},
	{"fabric", "infiniband or ethernet"},
	{"switch", "switch catalog key or auto"},
	{"spine-switch", "the spines' switch catalog key, e.g. a chassis, or auto (default: the leaf's switch)"},
	{"core-switch", "three tiers: the cores' switch catalog key or auto (default: the spines' switch)"},
	{"oversubscription", "leaf down:up ratio, e.g. 1:1 or 2:1; 1:2 under-subscribes (more uplinks than downlinks)"},
	{"spine-oversubscription", "three-tier spines' down:up ratio toward the cores, e.g. 7:1 (default 1:1)"},
	{"servers-per-tor", "top-of-rack designs: servers one leaf in their rack serves (sets rail_optimized = false)"},
	{"servers-per-leaf", "rail-optimized designs: servers one rail leaf takes a port of, e.g. 32 (default: as many as its ports hold)"},
	{"leaf-pairs", "true: Ethernet top-of-rack leaves in MLAG/ESI-LAG pairs, each server's ports split over its pair (sets rail_optimized = false)"},
	{"peer-link-ports", "with --leaf-pairs: ports each leaf gives the link to its peer, e.g. 2 (default 0: ESI-LAG)"},
	{"min-spines", "the fewest spines a plane (a pod, in three tiers) keeps, e.g. 4 (default: those the links need)"},
	{"storage-nodes", "storage nodes cabled to the back end's compute leaves, e.g. 16"},
	{"storage-node-ports", "with --storage-nodes: back-end ports a storage node, a multiple of the planes (default: one a plane)"},
	{"pod-gpus", "GPUs of one three-tier pod, e.g. 3072"},
	{"uplink-gbps", "switch-to-switch port speed in Gb/s, e.g. 800, or 200 below 400G server ports (default: the server port speed)"},
	{"core-uplink-gbps", "three tiers: spine-to-core port speed in Gb/s, e.g. 800 (default: the uplink speed)"},
	{"topology", "design style: rail-optimized, top-of-rack, rail-only or dual-plane"},
	{"tiers", "switch tiers: 0 (fewest that fit), 1, 2 or 3"},
	{"price-basis", "street (third-party optics, retail prices), list (branded optics at the vendor premium) or volume (hyperscale prices: sourced ASPs, else street less a stated discount)"},
	{"quotes", "vendor quotes file (.csv or .toml) whose prices override the catalog's"},
	{"leaf-alignment", "rack (whole racks of a rail per leaf, the NVL72 reference layout) or packed"},
	{"routing", "static (ECMP hashing, subnet-manager routes) or adaptive, on either fabric"},
	{"in-network-reduction", "true: all-reduces on the InfiniBand switches' SHARP where they have it"},
	{"polarization", "static routing: share 0 to 1 of a spine's uplinks a leaf's flows cannot reach, its hash repeating the leaf's (default: data/jct.toml's estimate)"},
}

// today is the CLI's clock, the day quotes' validity is checked against;
// tests replace it.
var today = time.Now

func addPlanFlags(fs *flag.FlagSet, skip ...string) *planFlags {
	pf := &planFlags{values: map[string]*string{}}
	for _, f := range planFlagNames {
		if contains(skip, f.name) {
			continue
		}
		pf.values[f.name] = fs.String(f.name, "", f.usage)
		pf.order = append(pf.order, f.name)
	}
	return pf
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// apply writes the flags that were set over s. set lists the flags given.
// Every flag but --quotes is an input of the planner's table, read as the
// window reads it (16k, 16,384 and 16_384 GPUs alike).
func (pf *planFlags) apply(s *planner.Scenario, set map[string]bool) error {
	keyOf := map[string]string{}
	for key, name := range fieldFlag {
		keyOf[name] = key
	}
	for _, name := range pf.order {
		if !set[name] {
			continue
		}
		if err := applyFlag(s, name, keyOf[name], flagText(name, *pf.values[name])); err != nil {
			return err
		}
	}
	// The flags apply in one order, and a style other than top-of-rack
	// clears the ToR size: both given must agree, as in a scenario file,
	// or one is dropped without a word.
	if set["servers-per-tor"] && set["topology"] && s.Network.Style() != planner.TopoToR {
		return usagef("--servers-per-tor: a ToR size needs --topology top-of-rack, not %s; leave one of them out", s.Network.Style())
	}
	pairs, _ := planner.ParseToggle(pf.value("leaf-pairs")) // applied above: a bad value returned its error
	return leafFlagsAgree(s, set, strings.ToLower(pf.value("topology")), pairs)
}

// flagText is the text of flag name as its input field reads it:
// trimmed, and --storage-nodes 0 as the field's blank (none, as
// docs/scenario.md allows 0).
func flagText(name, v string) string {
	v = strings.TrimSpace(v)
	if name == "storage-nodes" && v == "0" {
		return ""
	}
	return v
}

// value is the text given to flag name, trimmed ("" when the command
// has no such flag).
func (pf *planFlags) value(name string) string {
	if v := pf.values[name]; v != nil {
		return strings.TrimSpace(*v)
	}
	return ""
}

// leafFlagsAgree refuses leaf-shape flags another flag undid: leaf pairs
// make the design top-of-rack, which clears a rail leaf's size, so
// --servers-per-leaf beside --leaf-pairs or --servers-per-tor, and
// --leaf-pairs beside another --topology, would drop one without a word.
func leafFlagsAgree(s *planner.Scenario, set map[string]bool, topology string, pairs bool) error {
	n := s.Network
	if set["leaf-pairs"] && set["topology"] && pairs && topology != planner.TopoToR {
		return usagef("--leaf-pairs: leaf pairs need --topology top-of-rack, not %s; leave one of them out", topology)
	}
	if set["servers-per-leaf"] && n.ServersPerLeaf == 0 && n.Style() == planner.TopoToR {
		return usagef("--servers-per-leaf: a rail leaf's size, but the design is top-of-rack (--servers-per-tor, --leaf-pairs or --topology); leave one of them out")
	}
	return nil
}

// flagExample is "; write e.g. --gpus 1024" for a number flag, the
// default scenario's value as the example ("" when it has none).
func flagExample(f planner.Field, name string) string {
	if f.Kind != planner.FieldCount && f.Kind != planner.FieldNumber {
		return ""
	}
	d := planner.NewScenario()
	if e := f.Get(&d); e != "" && e != "0" {
		return fmt.Sprintf("; write e.g. --%s %s", name, e)
	}
	return ""
}

// applyFlag sets the input key of flag name to v.
func applyFlag(s *planner.Scenario, name, key, v string) error {
	switch name {
	case "quotes":
		s.Pricing.Quotes = v
		return nil
	case "facility":
		if v != "on" && v != "true" {
			return usagef("--facility: write --facility on")
		}
		if s.Facility == nil {
			s.Facility = &hall.Facility{}
		}
		return nil
	}
	f, ok := planner.FieldByKey(key)
	if !ok {
		return usagef("--%s: not an input", name)
	}
	if f.Kind == planner.FieldChoice && f.Choices != nil || key == "cluster.system" {
		v = strings.ToLower(v)
	}
	if err := f.Set(s, v); err != nil {
		return usagef("--%s: %v%s", name, err, flagExample(f, name))
	}
	if strings.HasPrefix(key, "facility.") && s.Facility == nil {
		s.Facility = &hall.Facility{}
	}
	if name == "system" {
		s.Cluster.ServerPriceUSD = 0 // the file's server price was for its own servers
	}
	return nil
}

// parseWithScenario parses flags that may come before or after one
// positional scenario path, and returns the positionals.
func parseWithScenario(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlagSet(env *cliEnv, name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	env.flagSets = append(env.flagSets, fs)
	fs.SetOutput(env.stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "Usage: fabricplan %s %s\n\nFlags:\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// scenarioInput is a scenario read from a file (or the embedded default)
// with flag overrides applied, and the document it came from for line
// numbers in errors.
type scenarioInput struct {
	scenario  planner.Scenario
	decodeErr error // key and type errors of the file, reported with the catalog checks
	// command is the subcommand planning it, whose memory use per GPU
	// budgetMemory weighs.
	command string
	src     []byte
	path    string
	set     map[string]bool
}

// defaultScenarioName names the embedded default scenario in messages.
const defaultScenarioName = "default scenario"

// loadScenario reads path (empty: the embedded default) and applies the
// set plan flags.
func loadScenario(path string, pf *planFlags, fs *flag.FlagSet) (*scenarioInput, error) {
	in := &scenarioInput{path: path, set: map[string]bool{}, command: "plan"}
	if fs != nil {
		in.command = fs.Name()
	}
	var err error
	if path == "" {
		in.path = defaultScenarioName
		in.src, err = data.FS.ReadFile(data.DefaultScenario)
	} else {
		in.src, err = scenariofile.Read(path)
	}
	if err != nil {
		return nil, usageError{err}
	}
	in.scenario, in.decodeErr = scenariofile.Decode(in.src)
	if scenariofile.Unreadable(in.decodeErr) {
		return nil, &fielderr.FileError{Path: in.path, Err: in.decodeErr}
	}
	if fs != nil {
		fs.Visit(func(f *flag.Flag) { in.set[f.Name] = true })
	}
	if pf != nil {
		if err := pf.apply(&in.scenario, in.set); err != nil {
			return nil, err
		}
		// Say what the flags changed, so a named scenario is not taken for
		// the file as saved.
		var changed []string
		for _, name := range pf.order {
			if in.set[name] {
				changed = append(changed, "--"+name+" "+*pf.values[name])
			}
		}
		switch {
		case len(changed) > 0 && path == "":
			// Flags on the embedded default: title the run by what it
			// plans, not by the default scenario's name.
			in.scenario.Name = describeScenario(in.scenario)
		case len(changed) > 0 && in.scenario.Name != "":
			in.scenario.Name += " (with " + strings.Join(changed, " ") + ")"
		}
	}
	if err := in.loadQuotes(); err != nil {
		return nil, err
	}
	return in, nil
}

// loadQuotes reads the scenario's quotes file: a --quotes path as given,
// a file's pricing.quotes relative to the file's directory.
func (in *scenarioInput) loadQuotes() error {
	if in.scenario.Pricing.Quotes == "" {
		return nil
	}
	base := in.path
	if in.set["quotes"] || in.path == defaultScenarioName {
		base = ""
	}
	if err := scenariofile.ReadQuotes(&in.scenario, base, today()); err != nil {
		if in.set["quotes"] {
			for _, fe := range fielderr.FieldErrors(err) {
				fe.Field = "--quotes"
				if fe.Fix == scenariofile.QuotesPathFix {
					fe.Fix = "check the path"
				}
			}
			return usageError{err}
		}
		return &fielderr.FileError{Path: in.path, Err: err}
	}
	return nil
}

// build plans the scenario; field errors get the file's line numbers
// unless a flag set the field.
func (in *scenarioInput) build(cat *planner.Catalog) (*planner.Plan, error) {
	return in.buildAs(in.scenario, cat)
}

// check is build without laying the scenario out in its hall (each
// tier's links at one length): every error but the hall's, for a
// command that does not use the scenario's own plan.
func (in *scenarioInput) check(cat *planner.Catalog) error {
	_, err := in.buildAs(in.scenario.FlatLinks(), cat)
	return err
}

// buildAs is build of s, the scenario or a variant of it. A switch the
// default scenario gave that the flags rule out is replaced by the
// cheapest that fits, with a note saying so.
func (in *scenarioInput) buildAs(s planner.Scenario, cat *planner.Catalog) (*planner.Plan, error) {
	if err := in.flagConflicts(cat); err != nil {
		return nil, err
	}
	fabricNote := in.fabricFromSwitch(&s, cat)
	p, err := in.buildOnce(s, cat)
	if err == nil && fabricNote != "" {
		p.Notes = append(p.Notes, fabricNote)
	}
	why := switchError(err)
	if why == nil || !in.switchFromDefault() || in.scenario.Network.Switch == planner.Auto {
		return p, in.withLines(err)
	}
	was := in.scenario.Network.Switch
	in.scenario.Network.Switch, s.Network.Switch = planner.Auto, planner.Auto
	in.scenario.Name = describeScenario(in.scenario) // flags on the default: its title names no switch now
	s.Name = in.scenario.Name
	if p, err = in.buildOnce(s, cat); err != nil {
		return nil, in.withLines(err)
	}
	p.Notes = append(p.Notes, autoSwitchNote(was, why, p))
	return p, nil
}

// buildOnce checks and plans s; its field errors are left without lines.
func (in *scenarioInput) buildOnce(s planner.Scenario, cat *planner.Catalog) (*planner.Plan, error) {
	err := scenariofile.CheckDecoded(in.scenario, in.decodeErr, cat, in.src)
	if !in.set["system"] && err == nil {
		err = scenariofile.SystemConflicts(in.scenario, cat, in.src) // a --system flag overrides the file's packaging
	}
	if err == nil {
		err = budgetMemory(in.command, s.Cluster.GPUs)
	}
	if err != nil {
		return nil, err
	}
	return planner.Build(s, cat)
}

// withLines puts err's field errors in the user's words: a field a flag
// set named as the flag, the others with their line in the file.
func (in *scenarioInput) withLines(err error) error {
	if len(fielderr.FieldErrors(err)) == 0 {
		return err
	}
	in.flagUserWords(err)
	return &fielderr.FileError{Path: in.path, Err: scenariofile.WithLines(err, in.src)}
}

var fieldFlag = map[string]string{
	"cluster.system": "system", "cluster.gpus": "gpus", "cluster.gpus_per_server": "gpus-per-server",
	"network.nics_per_server": "nics-per-server", "network.nic_gbps": "nic-gbps",
	"network.ports_per_nic": "ports-per-nic", "network.planes": "planes", "network.fabric": "fabric",
	"network.switch": "switch", "network.oversubscription": "oversubscription", "network.tiers": "tiers",
	"network.spine_oversubscription": "spine-oversubscription", "network.leaf_alignment": "leaf-alignment",
	"network.servers_per_tor": "servers-per-tor", "network.pod_gpus": "pod-gpus", "network.uplink_gbps": "uplink-gbps", "network.topology": "topology",
	"pricing.basis": "price-basis", "pricing.quotes": "quotes", "network.core_uplink_gbps": "core-uplink-gbps",
	"network.routing": "routing", "network.in_network_reduction": "in-network-reduction",
	"workload.polarization": "polarization",
	"network.spine_switch":  "spine-switch", "network.core_switch": "core-switch",
	"network.servers_per_leaf": "servers-per-leaf", "network.leaf_pairs": "leaf-pairs", "network.peer_link_ports": "peer-link-ports",
	"network.min_spines": "min-spines", "network.storage_nodes": "storage-nodes", "network.storage_node_ports": "storage-node-ports",
}

func onePositional(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return "", nil
	case 1:
		return pos[0], nil
	}
	return "", usagef("one scenario file at most, got %d: %s", len(pos), strings.Join(pos, " "))
}

// planArgs parses flags around one optional scenario path, runs check
// (flag combinations), loads the scenario with the plan flags applied and
// plans it. On a planning error it still returns the loaded input.
func planArgs(env *cliEnv, fs *flag.FlagSet, pf *planFlags, args []string, check func() error) (*scenarioInput, *planner.Plan, error) {
	in, err := scenarioArgs(env, fs, pf, args, check)
	if err != nil {
		return nil, nil, err
	}
	p, err := in.build(env.cat)
	return in, p, err
}

// scenarioArgs is planArgs without the plan: the scenario and flags
// read, the flags checked.
func scenarioArgs(env *cliEnv, fs *flag.FlagSet, pf *planFlags, args []string, check func() error) (*scenarioInput, error) {
	pos, err := parseWithScenario(fs, args)
	if err != nil {
		return nil, err
	}
	env.inputs = append(env.inputs, pos...)
	if check != nil {
		if err := check(); err != nil {
			return nil, err
		}
	}
	path, err := onePositional(pos)
	if err != nil {
		return nil, err
	}
	return loadScenario(path, pf, fs)
}

// loadData reads the embedded catalog (with the JCT constants) and the
// market tables, which every command and the window need.
func loadData() (*planner.Catalog, *market.Tables, error) {
	cat, err := planner.LoadCatalog(data.FS)
	if err != nil {
		return nil, nil, err
	}
	mkt, err := market.Load(data.FS)
	if err != nil {
		return nil, nil, err
	}
	return cat, mkt, nil
}

// Report prints err as the subcommands do and returns the exit code it
// calls for (ExitUsage for input the user can fix).
func Report(stderr io.Writer, err error) int { return report(stderr, "", err) }

// Usage marks err as one the user fixes by changing the command line.
func Usage(err error) error { return usageError{err} }

// ScenarioArg parses fs from args, which may hold one scenario file among
// the flags, and returns that file ("" if none).
func ScenarioArg(fs *flag.FlagSet, args []string) (string, error) {
	pos, err := parseWithScenario(fs, args)
	if err != nil {
		return "", err
	}
	return onePositional(pos)
}

// LoadData loads the embedded catalog and market tables.
func LoadData() (*planner.Catalog, *market.Tables, error) { return loadData() }

// describeScenario titles a flag-driven run by what it plans: "513 GPUs
// of dgx-b300, Ethernet, sn5600".
func describeScenario(s planner.Scenario) string {
	parts := []string{textfmt.Plural(s.Cluster.GPUs, "GPU")}
	if sys := s.Cluster.System; sys != "" && sys != planner.CustomSystem {
		parts[0] += " of " + sys
	} else {
		parts[0] += fmt.Sprintf(" in %d-GPU servers, %dG NICs", s.Cluster.GPUsPerServer, s.Network.NICGbps)
	}
	parts = append(parts, s.Network.Fabric.Name())
	if s.Network.Switch != "" && s.Network.Switch != planner.Auto {
		parts = append(parts, s.Network.Switch)
	}
	if s.Network.Planes > 1 {
		parts = append(parts, textfmt.Plural(s.Network.Planes, "plane"))
	}
	if r := s.Network.Oversubscription; r != "" && r != "1:1" {
		parts = append(parts, r)
	}
	if r := s.Network.SpineRatio(); r != "1:1" {
		parts = append(parts, "spines "+r)
	}
	if t := s.Network.Topology; t != "" {
		parts = append(parts, t)
	}
	if s.Network.Tiers > 0 {
		parts = append(parts, textfmt.Plural(s.Network.Tiers, "tier"))
	}
	if a := s.Network.LeafAlignment; a != "" {
		parts = append(parts, a+" leaves")
	}
	return strings.Join(parts, ", ")
}
