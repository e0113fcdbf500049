package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"fabricplan/internal/textfmt"
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
	var write func(io.Writer, *planner.Plan) error
	_, p, err := planArgs(env, fs, pf, args, func() error {
		n, ext := 0, ""
		for _, f := range []struct {
			on  bool
			w   func(io.Writer, *planner.Plan) error
			ext string
		}{{*asCSV, planner.WriteCablesCSV, ".csv"}, {*asJSON, planner.WriteCablesJSON, ".json"}, {*asTopo, planner.WriteTopoFile, ".topo"}} {
			if f.on {
				n, write, ext = n+1, f.w, f.ext
			}
		}
		if n != 1 {
			return usagef("give one of --csv, --json or --topo")
		}
		if *out == "" {
			return nil
		}
		return checkOutput(*out, env.inputs, ext)
	})
	if err != nil {
		return err
	}
	if *out == "" {
		return write(env.stdout, p)
	}
	if err := writeOut(*out, func(w io.Writer) error { return write(w, p) }); err != nil {
		return err
	}
	links := p.Links.Total // the storage and peer links too (planner.WalkCableMap)
	if *asTopo {
		links = p.Links.Fabric() // the fabric's links only (planner.WriteTopoFile)
	}
	wrote(env, *out, textfmt.Int(links)+" links")
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
		if err := writeOut(path, func(w io.Writer) error { return fn(w, p) }); err != nil {
			return err
		}
		wrote(env, path, "")
	}
	fmt.Fprintf(env.stderr, "check with: %s\n", textfmt.TerminalText(planner.IBDMCheckCommand(dir, topo)))
	return nil
}
