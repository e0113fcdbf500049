package validation

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strconv"
	"strings"

	"fabricplan/internal/datadoc"
)

// RatchetFile is the ratchet's path in data/ (and in the source tree).
const RatchetFile = "validation-ratchet.toml"

// Ratchet is data/validation-ratchet.toml: every point's and every
// published run's |error| as last recorded, in percent. Validate fails
// when an error grows past its record by more than EpsilonPP, when a
// point or run has no record, when one cannot be run, or when a record
// names nothing that exists; so a known miss stays visible but cannot
// grow unnoticed.
type Ratchet struct {
	// EpsilonPP is the growth in percentage points an error may show
	// before it counts as worse.
	EpsilonPP float64 `toml:"epsilon_pp"`
	// ErrorPct is the recorded |error|, in percent, by key (PointKey,
	// RunKey).
	ErrorPct map[string]float64 `toml:"error_pct"`
	// NoFigure lists the keys recorded as having no figure (a run the
	// model cannot take yet): held while they still have none.
	NoFigure []string `toml:"no_figure"`
	// Accepted are the records raised on purpose, by key: a sourced
	// change that lowered the errors overall grew these, and
	// validate --update-ratchet --accept KEY --why REASON recorded the
	// growth with its reason. validate prints each one on every run
	// until the error falls back to where it was.
	Accepted map[string]Acceptance `toml:"accepted"`
}

// Acceptance is one recorded growth: the |error| in percent recorded
// before it grew, and why the growth was accepted.
type Acceptance struct {
	FromPct float64 `toml:"from_pct"`
	Why     string  `toml:"why"`
}

// Measure is one point's or run's |error| now, under its ratchet key.
type Measure struct {
	Key string
	// AbsErrorPct is the |error| in percent; ignored when Err is set.
	AbsErrorPct float64
	// Err says why the point or run has no figure; it fails the ratchet.
	Err error
}

// Ratchet verdicts.
const (
	RatchetHeld     = "held"        // within its record (and the epsilon)
	RatchetBetter   = "better"      // below its record by more than the rounding
	RatchetNoFigure = "no figure"   // none, as recorded: held
	RatchetWorse    = "WORSE"       // past its record plus the epsilon: fails
	RatchetNew      = "NEW"         // no record: fails until recorded
	RatchetLost     = "LOST FIGURE" // no figure, where one was recorded: fails
	RatchetStale    = "STALE"       // a record that names nothing: fails
)

// Verdict is a key's standing against the ratchet.
type Verdict struct {
	Key    string
	Status string
	// Now and Recorded are |error| in percent; Recorded is NaN when the
	// key has no record, Now NaN when it has no figure.
	Now, Recorded float64
	// Grew is the key's accepted growth (nil when none): validate says
	// what it grew from and why beside its verdict.
	Grew *Acceptance
}

// Fails says whether the verdict fails validate.
func (v Verdict) Fails() bool {
	return v.Status != RatchetHeld && v.Status != RatchetBetter && v.Status != RatchetNoFigure
}

// PointKey is a validation point's key in the ratchet.
func PointKey(name string) string { return "point: " + name }

// RunKey is a published run's key in the ratchet: its split and id.
func RunKey(split, id string) string { return split + ": " + id }

// LoadRatchet reads data/validation-ratchet.toml from fsys.
func LoadRatchet(fsys fs.FS) (*Ratchet, error) {
	src, err := fs.ReadFile(fsys, RatchetFile)
	if err != nil {
		return nil, fmt.Errorf("read the validation ratchet: %w", err)
	}
	return ParseRatchet(src)
}

// ParseRatchet decodes and checks a ratchet.
func ParseRatchet(src []byte) (*Ratchet, error) {
	var doc struct {
		Schema int `toml:"schema"`
		Ratchet
	}
	if err := datadoc.Decode("validation ratchet", src, &doc, &doc.Schema); err != nil {
		return nil, err
	}
	if !inRange(doc.EpsilonPP, 0, maxEpsilonPP) {
		return nil, fmt.Errorf("validation ratchet: epsilon_pp %g, want 0 to %g", doc.EpsilonPP, float64(maxEpsilonPP))
	}
	for k, v := range doc.ErrorPct {
		if !inRange(v, 0, math.MaxFloat64) {
			return nil, fmt.Errorf("validation ratchet: %q: error %g, want 0 or more", k, v)
		}
	}
	for k, a := range doc.Accepted {
		rec, ok := doc.ErrorPct[k]
		switch {
		case !ok:
			return nil, fmt.Errorf("validation ratchet: accepted %q has no record in error_pct", k)
		case !inRange(a.FromPct, 0, rec) || a.FromPct == rec:
			return nil, fmt.Errorf("validation ratchet: accepted %q: from %g%%, want 0 or more and below its record %g%%", k, a.FromPct, rec)
		case strings.TrimSpace(a.Why) == "":
			return nil, fmt.Errorf("validation ratchet: accepted %q gives no reason (why)", k)
		}
	}
	if doc.ErrorPct == nil {
		doc.ErrorPct = map[string]float64{}
	}
	return &doc.Ratchet, nil
}

// maxEpsilonPP bounds the epsilon: a ratchet that lets an error grow by
// more than this many percentage points no longer holds anything.
const maxEpsilonPP = 2

// recorded is v rounded up to the tenth of a percent the file keeps.
func recorded(v float64) float64 { return max(0, math.Ceil(v*10-1e-9)/10) }

// Check is each measure's verdict, then a STALE one for every record
// no measure has.
func (r *Ratchet) Check(ms []Measure) []Verdict {
	out := make([]Verdict, 0, len(ms))
	seen := map[string]bool{}
	for _, m := range ms {
		seen[m.Key] = true
		out = append(out, r.verdict(m))
	}
	return append(out, r.stale(seen)...)
}

// verdict is one measure's standing against its record.
func (r *Ratchet) verdict(m Measure) Verdict {
	rec, ok := r.ErrorPct[m.Key]
	v := Verdict{Key: m.Key, Now: m.AbsErrorPct, Recorded: rec}
	if a, grew := r.Accepted[m.Key]; grew {
		v.Grew = &a
	}
	if !ok {
		v.Recorded = math.NaN()
	}
	switch {
	case m.Err != nil && !ok && slices.Contains(r.NoFigure, m.Key):
		v.Status, v.Now = RatchetNoFigure, math.NaN()
	case m.Err != nil && !ok:
		v.Status, v.Now = RatchetNew, math.NaN() // new, and without a figure: nothing was lost
	case m.Err != nil:
		v.Status, v.Now = RatchetLost, math.NaN()
	case !ok:
		v.Status = RatchetNew
	case m.AbsErrorPct > rec+r.EpsilonPP:
		v.Status = RatchetWorse
	case recorded(m.AbsErrorPct) < rec:
		v.Status = RatchetBetter
	default:
		v.Status = RatchetHeld
	}
	return v
}

// stale is a STALE verdict for every record not seen, sorted.
func (r *Ratchet) stale(seen map[string]bool) []Verdict {
	var keys []string
	for k := range r.ErrorPct {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	for _, k := range r.NoFigure {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]Verdict, 0, len(keys))
	for _, k := range keys {
		rec, ok := r.ErrorPct[k]
		if !ok {
			rec = math.NaN()
		}
		out = append(out, Verdict{Key: k, Status: RatchetStale, Now: math.NaN(), Recorded: rec})
	}
	return out
}

// Updated is the ratchet with every error that fell lowered to its new
// value, every new key added (a new one without a figure to NoFigure)
// and every stale record dropped. It refuses while any error is worse
// than recorded or a recorded figure is lost: the ratchet only moves
// down, but for the keys of accept (key: reason), whose growth is
// recorded with its reason in Accepted; each must name a key that grew.
// An accepted growth stays listed until its error falls back to what
// was recorded before it.
func (r *Ratchet) Updated(ms []Measure, accept map[string]string) (*Ratchet, error) {
	out := &Ratchet{EpsilonPP: r.EpsilonPP, ErrorPct: map[string]float64{}, Accepted: map[string]Acceptance{}}
	var bad []string
	for _, m := range ms {
		if refused := r.update(out, m, accept); refused != "" {
			bad = append(bad, refused)
		}
	}
	for k := range accept {
		if !slices.ContainsFunc(ms, func(m Measure) bool { return m.Key == k }) {
			bad = append(bad, k+" (accepted, but no point or run has that key)")
		}
	}
	slices.Sort(out.NoFigure)
	slices.Sort(bad)
	if len(bad) > 0 {
		return nil, fmt.Errorf("the ratchet only moves down, but for a growth accepted with its reason; worse or without a figure: %s", strings.Join(bad, "; "))
	}
	return out, nil
}

// update records m in out, as Updated does; it returns why m is
// refused ("" when it is not).
func (r *Ratchet) update(out *Ratchet, m Measure, accept map[string]string) (refused string) {
	rec, ok := r.ErrorPct[m.Key]
	why, accepting := accept[m.Key]
	worse := ok && m.Err == nil && m.AbsErrorPct > rec+r.EpsilonPP
	switch {
	case accepting && !worse:
		return m.Key + " (accepted, but it did not grow past its record)"
	case m.Err != nil && ok:
		return m.Key + " (no figure: " + m.Err.Error() + ")"
	case m.Err != nil:
		out.NoFigure = append(out.NoFigure, m.Key)
	case worse && accepting:
		from := rec
		if a, was := r.Accepted[m.Key]; was {
			from = a.FromPct // growth on growth: still measured from the first record
		}
		out.ErrorPct[m.Key] = recorded(m.AbsErrorPct)
		out.Accepted[m.Key] = Acceptance{FromPct: from, Why: why}
	case worse:
		return fmt.Sprintf("%s (%.1f%%, recorded %.1f%%)", m.Key, m.AbsErrorPct, rec)
	case ok:
		out.ErrorPct[m.Key] = min(rec, recorded(m.AbsErrorPct))
		r.keepAcceptance(out, m.Key)
	default:
		out.ErrorPct[m.Key] = recorded(m.AbsErrorPct)
	}
	return ""
}

// keepAcceptance carries key's accepted growth into out while its new
// record stays above the record before the growth.
func (r *Ratchet) keepAcceptance(out *Ratchet, key string) {
	if a, was := r.Accepted[key]; was && out.ErrorPct[key] > a.FromPct {
		out.Accepted[key] = a
	}
}

// AcceptKey is the ratchet key --accept id names among ms: the key
// itself, or a run's id (under either split) or a point's name; an
// error when it names none or more than one.
func AcceptKey(ms []Measure, id string) (string, error) {
	var found []string
	for _, m := range ms {
		if m.Key == id || m.Key == RunKey(SplitDev, id) || m.Key == RunKey(SplitHeldOut, id) || m.Key == PointKey(id) {
			found = append(found, m.Key)
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("--accept %q names no run, point or ratchet key", id)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("--accept %q names %d keys (%s): give the whole key", id, len(found), strings.Join(found, ", "))
}

// ratchetHeader opens the file Marshal writes.
const ratchetHeader = `# The validation ratchet (planner/validation, issue #47): every
# validation point's and published run's |error| against what was
# published, in percent, as last recorded. ` + "`fabricplan validate`" + ` exits 1
# when an error grows past its record by more than epsilon_pp, when a
# point or run has no record, when one loses the figure it had, or when
# a record names nothing that exists. Misses stay listed with their error: the ratchet
# keeps them from growing, it does not hide them.
#
# Rewrite it with ` + "`fabricplan validate --update-ratchet data/validation-ratchet.toml`" + `,
# which lowers errors that fell, adds new points and runs, drops records
# of removed ones, and refuses while any error is worse; with
# --accept KEY --why REASON it records that key's growth, and why, in
# [accepted] (from_pct: its record before), and validate prints it on
# every run. Written by the program; do not edit by hand.
#
# epsilon_pp: an error may grow by half a percentage point before it
# fails (float noise and refactors that move a figure slightly; errors
# are kept rounded up to the tenth) [project rule, issue #47].
`

// Marshal is the ratchet as the file holds it: sorted keys, one tenth
// of a percent.
func (r *Ratchet) Marshal() []byte {
	var b bytes.Buffer
	b.WriteString(ratchetHeader)
	fmt.Fprintf(&b, "\nschema = 1\nepsilon_pp = %s\n", strconv.FormatFloat(r.EpsilonPP, 'f', -1, 64))
	keys := make([]string, 0, len(r.ErrorPct))
	for k := range r.ErrorPct {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if len(r.NoFigure) > 0 {
		b.WriteString("\n# Points and runs the model gives no figure for yet; each gains a\n# record once it has one.\nno_figure = [\n")
		for _, k := range r.NoFigure {
			fmt.Fprintf(&b, "  %s,\n", strconv.Quote(k))
		}
		b.WriteString("]\n")
	}
	b.WriteString("\n[error_pct]\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "%s = %.1f", strconv.Quote(k), r.ErrorPct[k])
		if a, ok := r.Accepted[k]; ok {
			fmt.Fprintf(&b, " # grew from %.1f%%: accepted, see [accepted]", a.FromPct)
		}
		b.WriteString("\n")
	}
	if len(r.Accepted) > 0 {
		b.WriteString("\n# Growth recorded on purpose (validate --update-ratchet --accept KEY --why\n# REASON): the record before it, and why.\n[accepted]\n")
		for _, k := range keys {
			if a, ok := r.Accepted[k]; ok {
				fmt.Fprintf(&b, "%s = { from_pct = %.1f, why = %s }\n", strconv.Quote(k), a.FromPct, strconv.Quote(a.Why))
			}
		}
	}
	return b.Bytes()
}
