package cli

import (
	"fabricplan/internal/textfmt"
	"flag"
	"math"
	"strconv"
)

// Numeric flags read their text in the planner's one grammar of numbers
// (planner.ParseInt, planner.ParseNumber): --width 1,920, --crews 1_000
// and --gpus 16k mean what they do in the window and in sweep ranges.

// countValue is an int flag from lo to hi.
type countValue struct {
	p      *int
	lo, hi int
}

// String is the flag's value; the zero Value (flag's check for a
// default worth printing) reads "0", so a default of 0 is not printed as
// "(default 0)".
func (v countValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v countValue) Set(text string) error {
	n, err := textfmt.ParseInt(text, v.lo, v.hi)
	if err != nil {
		return err
	}
	*v.p = n
	return nil
}

// numberValue is a float64 flag from lo to hi.
type numberValue struct {
	p      *float64
	lo, hi float64
}

// String is the flag's value; the zero Value reads "0" (see
// countValue.String).
func (v numberValue) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v numberValue) Set(text string) error {
	x, err := textfmt.ParseNumber(text, v.lo, v.hi)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

// maxFlagCount bounds counts given on the command line that have no
// limit of their own (pixels, crews): far above any real value.
const maxFlagCount = 1 << 20

// countFlag defines an int flag read in the count grammar. A flag that
// sets a scenario key (keyedFlag) is read in the grammar alone: the
// key's check states its range, under the flag's name, so the flag has
// one range and not the parser's too.
func countFlag(fs *flag.FlagSet, name string, def, lo, hi int, usage string) *int {
	p := new(int)
	*p = def
	if keyedFlag(name) {
		lo, hi = math.MinInt, math.MaxInt
	}
	fs.Var(countValue{p, lo, hi}, name, usage)
	return p
}

// numberFlag defines a float64 flag read in the number grammar; a flag
// that sets a scenario key in the grammar alone (see countFlag).
func numberFlag(fs *flag.FlagSet, name string, def, lo, hi float64, usage string) *float64 {
	p := new(float64)
	*p = def
	if keyedFlag(name) {
		lo, hi = -math.MaxFloat64, math.MaxFloat64
	}
	fs.Var(numberValue{p, lo, hi}, name, usage)
	return p
}
