package planner

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/textfmt"
)

// Phase is one step of a phased build-out: the GPUs online once it is
// built, given as GPUs or as the final plan's scalable units (one of
// the two; Plan.UnitsGPUs), and an optional date label.
type Phase struct {
	GPUs  int    `toml:"gpus,omitempty,omitzero"`
	Units int    `toml:"units,omitempty,omitzero"`
	Date  string `toml:"date,omitempty,omitzero"`
}

// Growth holds the options of a phased plan. Zero values take the
// defaults: optics bought as links land, the data file's re-cabling
// minutes, one crew.
type Growth struct {
	// PrebuyPorts buys, with the first phase, every spine and core switch
	// of the final size and the optics of all their ports the final size
	// uses (strategy "build for the final size").
	PrebuyPorts bool `toml:"prebuy_ports,omitempty,omitzero"`
	// RecableMin is the minutes one crew takes to move one link
	// (default: data/reliability.toml recovery.recable_min).
	RecableMin float64 `toml:"recable_min,omitempty,omitzero"`
	// RecableCrews is how many crews move links at once (default 1).
	RecableCrews int `toml:"recable_crews,omitempty,omitzero"`
}

// MaxPhases bounds the [[phase]] list.
const MaxPhases = 64

// maxCrews bounds growth.recable_crews: more crews than that is a typo.
const maxCrews = 1000

// phaseDateRE accepts 2026, 2026-03, 2026-03-31 and 2026-Q3; compiled on
// first use, so a start that plans no phases does not pay for it.
var phaseDateRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?|-Q[1-4])?$`)
})

// validatePhases checks the [[phase]] list and [growth]: each phase gives
// GPUs or units (not both), sizes only grow and never pass cluster.gpus.
func (s *Scenario) validatePhases() []error {
	var errs []error
	if len(s.Phases) > MaxPhases {
		errs = append(errs, fielderr.New("phase", fmt.Sprintf("give at most %d phases", MaxPhases), "%d phases", len(s.Phases)))
	}
	prev, prevDate := 0, -1
	for i, ph := range s.Phases[:min(len(s.Phases), MaxPhases)] {
		errs = append(errs, s.checkPhase(i, ph, prev)...)
		if ph.GPUs > 0 {
			prev = ph.GPUs
		}
		if ph.Date == "" {
			continue
		}
		if err := s.checkPhaseDate(i, prevDate); err != nil {
			errs = append(errs, err)
		} else {
			prevDate = i
		}
	}
	if g := s.Growth; g != nil {
		errs = append(errs, g.validate()...)
	}
	return errs
}

// checkPhase checks phase i (from 0) of the list: one size, GPUs or
// units, in range and above prev, the GPUs of the phase before; and its
// date.
func (s *Scenario) checkPhase(i int, ph Phase, prev int) []error {
	var errs []error
	key := fmt.Sprintf("phase[%d]", i+1)
	switch {
	case ph.GPUs != 0 && ph.Units != 0:
		errs = append(errs, fielderr.New(key+".units", "give gpus or units, not both", "phase %d gives both", i+1))
	case ph.GPUs == 0 && ph.Units == 0:
		errs = append(errs, fielderr.New(key+".gpus", "give gpus = N (or units = N scalable units)", "phase %d gives no size", i+1))
	case ph.GPUs < 0 || ph.GPUs > s.Cluster.GPUs:
		errs = append(errs, fielderr.New(key+".gpus", fmt.Sprintf("give 1 to cluster.gpus (%d), or raise cluster.gpus: the last phase is the final size", s.Cluster.GPUs),
			"%d GPUs", ph.GPUs))
	case ph.Units < 0 || ph.Units > MaxGPUs:
		errs = append(errs, fielderr.New(key+".units", "give a whole number of scalable units, 1 or more", "%d units", ph.Units))
	case ph.GPUs != 0 && ph.GPUs <= prev:
		errs = append(errs, fielderr.New(key+".gpus", fmt.Sprintf("give more than the phase before (%d): phases list the GPUs online after each, growing", prev),
			"%d GPUs", ph.GPUs))
	}
	return errs
}

// phaseDateFix is the fix for a phase date that is not one.
const phaseDateFix = `write a date as "2026", "2026-03", "2026-03-31" or "2026-Q3"`

// phaseSpan is the days a phase date covers, from its first to the day
// after its last: a year, a month, a quarter or a day. ok is false for
// text that is not such a date, or a day the calendar lacks (2026-02-30).
func phaseSpan(date string) (from, to time.Time, ok bool) {
	if !phaseDateRE().MatchString(date) {
		return from, to, false
	}
	year, _ := strconv.Atoi(date[:4])
	switch rest := date[4:]; {
	case rest == "":
		from = time.Date(year, time.January, 1, 0, 0, 0, 0, time.UTC)
		return from, from.AddDate(1, 0, 0), true
	case strings.HasPrefix(rest, "-Q"):
		q := int(rest[2] - '0')
		from = time.Date(year, time.Month(3*q-2), 1, 0, 0, 0, 0, time.UTC)
		return from, from.AddDate(0, 3, 0), true
	case len(rest) == len("-03"):
		month, _ := strconv.Atoi(rest[1:])
		from = time.Date(year, time.Month(month), 1, 0, 0, 0, 0, time.UTC)
		return from, from.AddDate(0, 1, 0), true
	}
	day, err := time.Parse(time.DateOnly, date) // refuses 2026-02-30, which the pattern lets by
	if err != nil {
		return from, to, false
	}
	return day, day.AddDate(0, 0, 1), true
}

// checkPhaseDate checks the date of phase i (from 0): a real date, not
// wholly before that of phase prev, the last dated phase before it (-1:
// none). Dates of different lengths overlap as the spans they name, so
// "2026-Q3" may follow "2026-08-15" (the same quarter) but not "2026-10".
func (s *Scenario) checkPhaseDate(i int, prev int) error {
	key := fmt.Sprintf("phase[%d].date", i+1)
	date := s.Phases[i].Date
	_, to, ok := phaseSpan(date)
	if !ok {
		return fielderr.New(key, phaseDateFix, "%q is not a date", textfmt.DisplayName(date))
	}
	if prev < 0 {
		return nil
	}
	if from, _, _ := phaseSpan(s.Phases[prev].Date); !to.After(from) {
		return fielderr.New(key, fmt.Sprintf("give a date from phase %d's (%s) on: phases are listed in the order they are built", prev+1, s.Phases[prev].Date),
			"%s is before phase %d's date %s", date, prev+1, s.Phases[prev].Date)
	}
	return nil
}

// validate checks the [growth] table: recabling minutes and crews.
func (g *Growth) validate() []error {
	var errs []error
	if !inRange(g.RecableMin, 0, maxMinutes) {
		errs = append(errs, fielderr.New("growth.recable_min", fmt.Sprintf("give minutes from 0 to %d, or leave it out for the data file's estimate", maxMinutes), "%g minutes", g.RecableMin))
	}
	if g.RecableCrews < 0 || g.RecableCrews > maxCrews {
		errs = append(errs, fielderr.New("growth.recable_crews", fmt.Sprintf("give 1 to %d crews, or leave it out for one", maxCrews), "%d crews", g.RecableCrews))
	}
	return errs
}
