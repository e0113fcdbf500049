//go:build !nocharts

package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"fabricplan/charts"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
)

// errListed ends a command that only listed something.
var errListed = errors.New("listed")

// glyphNote tells on stderr which characters of the scenario's name the
// chart font cannot draw, so they are never dropped without a word.
func glyphNote(env *cliEnv, cmd, name string) {
	if w := charts.GlyphWarning(name); w != "" {
		fmt.Fprintf(env.stderr, "fabricplan %s: note: %s\n", cmd, textfmt.TerminalText(w))
	}
}

type sizeFlags struct{ w, h, dpi, scale *int }

func addSizeFlags(fs *flag.FlagSet) sizeFlags {
	d := charts.DefaultSize
	return sizeFlags{countFlag(fs, "width", d.WidthPx, 0, maxFlagCount, "width in pixels"), countFlag(fs, "height", d.HeightPx, 0, maxFlagCount, "height in pixels"),
		countFlag(fs, "dpi", d.DPI, 0, maxFlagCount, "dots per inch (SVG and PDF size = pixels / dpi inches)"),
		countFlag(fs, "scale", 1, 0, maxFlagCount, "pixel density: 2 doubles width, height and dpi (the same chart, sharper, for high-DPI slides)")}
}

func (f sizeFlags) size() (charts.Size, error) {
	if *f.scale < 1 || *f.scale > 4 {
		return charts.Size{}, usagef("--scale %d: use 1, 2, 3 or 4", *f.scale)
	}
	s := charts.Size{WidthPx: *f.w, HeightPx: *f.h, DPI: *f.dpi}.Scaled(*f.scale)
	if err := s.Validate(); err != nil {
		return s, usagef("%v", err)
	}
	return s, nil
}

// chartBytes draws chart for the scenario s, with the market year and
// search options the flags gave (and the floor plan's tier runs and
// rack), as format at size.
func chartBytes(env *cliEnv, s planner.Scenario, chart charts.Chart, year int, opt explore.SearchOptions, floor floorFlags, format string, size charts.Size) ([]byte, error) {
	// Only what this chart draws (the window's PartsOf path); a search
	// runs with the flags' options below.
	input, err := charts.NewInputWith(s, env.cat, env.market, year, charts.PartsOf(chart.Name)&^charts.PartSearch)
	if err != nil {
		return nil, err
	}
	input.Tier, input.Rack = floor.tier, strings.ToUpper(floor.rack)
	if input.Search, err = searchForChart(chart.Name, s, env.cat, opt); err != nil {
		return nil, err
	}
	fig, err := chart.Build(input)
	if err != nil {
		if errors.Is(err, charts.ErrMissingInput) {
			return nil, usageError{err}
		}
		return nil, err
	}
	return fig.Bytes(format, size)
}

// searchForChart runs the design search the search chart draws.
func searchForChart(chart string, s planner.Scenario, cat *planner.Catalog, opt explore.SearchOptions) (*explore.SearchResult, error) {
	if chart != "search" {
		return nil, nil
	}
	res, err := explore.Search(context.Background(), s, cat, opt)
	if err != nil {
		return nil, usageError{err}
	}
	return res, nil
}

// floorFlags are export's floor plan options: a link tier's runs and
// a rack to ring with its links.
type floorFlags struct{ tier, rack string }

// checkRunsTier checks export's --tier: a link tier, with the floor
// plan only ("" passes); and --rack, with the floor plan only.
func checkRunsTier(tier, rack, chart string) error {
	if rack != "" && chart != "floorplan" {
		return usagef("--rack rings a rack on the floorplan chart only, not %s", chart)
	}
	if tier == "" {
		return nil
	}
	if chart != "floorplan" {
		return usagef("--tier draws runs on the floorplan chart only, not %s", chart)
	}
	if _, ok := planner.TierKey(tier); !ok {
		return usagef("--tier %q: write server-leaf, leaf-spine or spine-core", tier)
	}
	return nil
}

func runExport(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "export", "--chart NAME --out FILE [SCENARIO.toml] [plan flags] [--width --height --dpi --scale 2] [--year Y] | --list")
	pf := addPlanFlags(fs)
	name := fs.String("chart", "", "chart name (see --list)")
	out := fs.String("out", "", "output file: .png, .svg or .pdf")
	list := fs.Bool("list", false, "list the charts")
	year := countFlag(fs, "year", charts.DefaultMarketYear, 0, maxFlagCount, "market year for the NIC/switching split (2021-2028)")
	target := numberFlag(fs, "target-days", 0, 0, maxFlagCount, "search chart: JCT target in days")
	within := fs.String("within", "", "search chart: cheapest design within P% of the fastest")
	budget := fs.String("budget", "", "search chart: budget in US$")
	tier := fs.String("tier", "", "floorplan chart: draw one link tier's runs over the racks (server-leaf, leaf-spine or spine-core)")
	rack := fs.String("rack", "", "floorplan chart: ring one rack (e.g. R1-08) and draw lines to the racks its links reach")
	sf := addSizeFlags(fs)
	var (
		chart  charts.Chart
		format string
		size   charts.Size
		opt    explore.SearchOptions
	)
	in, _, err := planArgs(env, fs, pf, args, func() (err error) {
		if *list {
			for _, c := range charts.All() {
				fmt.Fprintf(env.stdout, "%-8s %s\n", c.Name, c.Title)
			}
			return errListed
		}
		if *name == "" || *out == "" {
			return usagef("export needs --chart NAME and --out FILE (--list names the charts)")
		}
		if chart, err = charts.ByName(*name); err != nil {
			return usageError{err}
		}
		if err := checkRunsTier(*tier, *rack, chart.Name); err != nil {
			return err
		}
		if format, err = charts.FormatOf(*out); err != nil {
			return usageError{err}
		}
		if err := checkOutput(*out, env.inputs, "."+format); err != nil {
			return err
		}
		if size, err = sf.size(); err != nil {
			return err
		}
		if err := checkMarketYear(env, *year); err != nil {
			return err
		}
		opt, err = searchOptions(*target, *within, *budget)
		return err
	})
	if errors.Is(err, errListed) {
		return nil
	}
	if err != nil {
		return err
	}
	b, err := chartBytes(env, in.scenario, chart, *year, opt, floorFlags{*tier, *rack}, format, size)
	if err != nil {
		return err
	}
	if err := writeOut(*out, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return err
	}
	wrote(env, *out, chart.Name+" chart, "+format)
	glyphNote(env, "export", in.scenario.Name)
	return nil
}

// checkMarketYear refuses, before any work, a --year the market tables
// have no device split for: the export failed after planning (exit 1)
// and the report took it without a word. 0 means the default year.
func checkMarketYear(env *cliEnv, year int) error {
	if year == 0 {
		return nil
	}
	if _, _, ok := env.market.DeviceSplit(year); !ok {
		ys := env.market.Device.Years
		return usagef("--year %d: the market tables split device spend for %d to %d only; choose one of those years", year, ys[0], ys[len(ys)-1])
	}
	return nil
}

func runReport(env *cliEnv, args []string) error {
	fs := newFlagSet(env, "report", "--out FILE.pdf [SCENARIO.toml] [plan flags] [--year Y]")
	pf := addPlanFlags(fs)
	out := fs.String("out", "", "output PDF file")
	year := countFlag(fs, "year", charts.DefaultMarketYear, 0, maxFlagCount, "market year for the NIC/switching split (2021-2028)")
	in, _, err := planArgs(env, fs, pf, args, func() error {
		if *out == "" {
			return usagef("report needs --out FILE.pdf")
		}
		if err := checkMarketYear(env, *year); err != nil {
			return err
		}
		return checkOutput(*out, env.inputs, ".pdf")
	})
	if err != nil {
		return err
	}
	input, err := charts.NewInput(in.scenario, env.cat, env.market, *year, true)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := charts.WriteReport(&buf, input, env.cat, nil); err != nil {
		return err
	}
	if err := writeOut(*out, func(w io.Writer) error { _, err := buf.WriteTo(w); return err }); err != nil {
		return err
	}
	wrote(env, *out, "")
	glyphNote(env, "report", in.scenario.Name)
	return nil
}
