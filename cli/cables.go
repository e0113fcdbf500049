package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"fabricplan/internal/safefile"
	"fabricplan/planner"
)

// runCables writes the plan's cable map: one row per link (CSV or
// JSON), or the expected topology for bring-up (--topo), to standard
// output or, written whole or not at all, to --out.
func runCables(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "cables", "[SCENARIO.toml] [plan flags] --csv|--json|--topo [--out FILE]")
	pf := addPlanFlags(fs)
	asCSV := fs.Bool("csv", false, "one row per link as CSV")
	asJSON := fs.Bool("json", false, "one object per link as a JSON array")
	asTopo := fs.Bool("topo", false, "the expected topology as an IBDM topology file (ibdiagnet --topo_file); with --out, its IBNL system definitions go in ibnl/ beside it")
	out := fs.String("out", "", "write to this file instead of standard output")
	_, p, err := planArgs(env, fs, pf, args, nil)
	if err != nil {
		return err
	}
	var write func(io.Writer, *planner.Plan) error
	n := 0
	for _, f := range []struct {
		on bool
		w  func(io.Writer, *planner.Plan) error
	}{{*asCSV, planner.WriteCablesCSV}, {*asJSON, planner.WriteCablesJSON}, {*asTopo, planner.WriteTopoFile}} {
		if f.on {
			n, write = n+1, f.w
		}
	}
	if n != 1 {
		return usagef("give one of --csv, --json or --topo")
	}
	if *out == "" {
		return write(env.stdout, p)
	}
	if err := safefile.WriteWith(*out, func(w io.Writer) error { return write(w, p) }); err != nil {
		return err
	}
	fmt.Fprintf(env.stderr, "wrote %s (%s links)\n", *out, planner.FormatInt(p.Links.Total))
	if *asTopo {
		return writeIBNL(env, p, *out)
	}
	return nil
}

// writeIBNL writes the IBNL system definitions a topology file at topo
// needs into the folder ibnl beside it, and says how to check the pair.
func writeIBNL(env *cliEnv, p *planner.Plan, topo string) error {
	dir := filepath.Join(filepath.Dir(topo), "ibnl")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("ibnl folder: %w", err)
	}
	for _, name := range planner.SortedKeys(planner.IBNLFiles(p)) {
		fn := planner.IBNLFiles(p)[name]
		path := filepath.Join(dir, name)
		if err := safefile.WriteWith(path, func(w io.Writer) error { return fn(w, p) }); err != nil {
			return err
		}
		fmt.Fprintf(env.stderr, "wrote %s\n", path)
	}
	fmt.Fprintf(env.stderr, "check with: %s\n", planner.IBDMCheckCommand(dir, topo))
	return nil
}
