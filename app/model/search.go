package model

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/explore"
)

// SearchColumns are the columns of the designs table, in order; the
// sort column is an index into them.
var SearchColumns = []string{"Design", "Switches", "Cost", "Power", "Step", "JCT", "Pick / cost vs pick", "Why tried"}

// Sort columns of the designs table.
const (
	SortByLabel = iota
	SortBySwitches
	SortByCost
	SortByPower
	SortByStep
	SortByJCT
	SortByPick
	SortByReason
)

// ErrSearchStale refuses a design of a search run on other inputs.
var ErrSearchStale = errors.New("these results are for other inputs: search again before using a design")

// searchState is the design search of one window: the run counter, the
// results of the last run that finished with the inputs it ran on, and
// the table's rows, sort and selection.
type searchState struct {
	runs     uint64            // searches started
	pending  bool              // the latest has not finished
	base     planner.Scenario  // the inputs of run runs
	searched *planner.Scenario // the inputs of the results held
	result   *explore.SearchResult
	err      error
	rows     []*explore.Design
	showAll  bool
	sortCol  int
	selected int
}

// StartSearch starts a search of the current inputs: it returns the run
// (SearchDone takes only the latest) and the snapshot to search.
func (m *Model) StartSearch() (run uint64, base planner.Scenario) {
	m.search.runs++
	m.search.pending = true
	m.search.base = m.scenario.Clone()
	return m.search.runs, m.search.base.Clone()
}

// SearchRunning says whether the latest search started has not finished.
func (m *Model) SearchRunning() bool { return m.search.pending }

// SearchDone takes the outcome of search run in; a run replaced by a
// newer one is dropped (false). Results belong to the inputs the run
// started on, whatever has been edited since. A failed or cancelled run
// records its error and leaves the results of the run before (with the
// inputs they were for) in place.
func (m *Model) SearchDone(run uint64, res *explore.SearchResult, err error) bool {
	if run != m.search.runs {
		return false
	}
	s := &m.search
	s.pending, s.err = false, err
	if err != nil || res == nil {
		return true // the results of an earlier run stay, with their inputs
	}
	b := s.base.Clone()
	s.result, s.searched = res, &b
	m.fillSearchRows()
	return true
}

// SearchResult is the last search's results (nil without any) and its
// error.
func (m *Model) SearchResult() (*explore.SearchResult, error) { return m.search.result, m.search.err }

// SearchRows are the designs the table lists, sorted.
func (m *Model) SearchRows() []*explore.Design { return m.search.rows }

// SetShowAll lists every design (true) or only the Pareto front; the
// selection is cleared.
func (m *Model) SetShowAll(all bool) {
	m.search.showAll = all
	m.fillSearchRows()
}

// SortSearch sorts the table by column col (SortByLabel ...); the
// selection is cleared, as the rows it named have moved.
func (m *Model) SortSearch(col int) {
	if col < 0 || col >= len(SearchColumns) {
		return
	}
	m.search.sortCol = col
	m.sortSearchRows()
}

// SearchSort is the column the table is sorted by.
func (m *Model) SearchSort() int { return m.search.sortCol }

// SelectDesign selects row i of the table (-1: none).
func (m *Model) SelectDesign(i int) {
	if i < -1 || i >= len(m.search.rows) {
		i = -1
	}
	m.search.selected = i
}

// SelectedDesign is the selected row, -1 for none.
func (m *Model) SelectedDesign() int { return m.search.selected }

// CanUseDesign says whether the selected design may be used: one is
// selected and the results are for the current inputs.
func (m *Model) CanUseDesign() bool {
	stale, _ := m.SearchStale()
	return !stale && m.search.selected >= 0 && m.search.selected < len(m.search.rows)
}

// UseDesign makes design i of the table the inputs, as one undoable
// edit. It refuses a design of results run on other inputs
// (ErrSearchStale) and a row the table does not have.
func (m *Model) UseDesign(i int) (*explore.Design, error) {
	rows := m.search.rows
	if i < 0 || i >= len(rows) {
		return nil, fmt.Errorf("no design %d: the table lists %s", i+1, textfmt.Plural(len(rows), "design"))
	}
	if stale, _ := m.SearchStale(); stale {
		return nil, ErrSearchStale
	}
	d := rows[i]
	m.Replace(d.Scenario)
	return d, nil
}

func (m *Model) fillSearchRows() {
	s := &m.search
	s.rows = nil
	if s.result != nil {
		s.rows = append(s.rows, s.result.Front...)
		if s.showAll {
			s.rows = append([]*explore.Design{}, s.result.Designs...)
		}
	}
	m.sortSearchRows()
}

func (m *Model) sortSearchRows() {
	col := m.search.sortCol
	key := func(d *explore.Design) (float64, string) {
		switch col {
		case SortBySwitches:
			if d.Plan == nil {
				return 0, ""
			}
			return float64(d.Plan.TotalSwitches()), ""
		case SortByCost:
			return d.CostUSD, ""
		case SortByPower:
			return d.PowerW, ""
		case SortByStep:
			return d.StepS, ""
		case SortByJCT:
			return d.Days, ""
		case SortByPick:
			return 0, m.DesignPick(d) + "~"
		case SortByReason:
			return 0, d.Reason + "~" // designs of the usual shapes last
		}
		return 0, d.Label
	}
	rows := m.search.rows
	sort.SliceStable(rows, func(i, j int) bool {
		a, as := key(rows[i])
		b, bs := key(rows[j])
		if as != bs {
			return as < bs
		}
		return a < b
	})
	m.search.selected = -1
}

// DesignPick is the table's last column for d: which pick it is, else
// its cost against the pick and how sure that is.
func (m *Model) DesignPick(d *explore.Design) string {
	r := m.search.result
	if r == nil {
		return ""
	}
	var p []string
	if d == r.Cheapest {
		p = append(p, "cheapest meeting target")
	}
	if d == r.FastestInBudget {
		p = append(p, "fastest in budget")
	}
	if len(p) == 0 {
		if d == r.Pick() {
			return "cheapest"
		}
		// How sure the cost difference from the pick is, over shared
		// price draws within each part's sourced range.
		if d.CostVsPick == "" {
			return "not laid out"
		}
		return fmt.Sprintf("%s (P %.2f)", d.CostVsPick, d.ProbCheaper)
	}
	return strings.Join(p, ", ")
}

// SearchStale says whether the inputs changed since the last search was
// run, and how: "GPUs 1024 → 16384". Results of other inputs must not be
// used as if they were for these.
func (m *Model) SearchStale() (bool, string) {
	searched := m.search.searched
	if searched == nil || searched.Equal(m.scenario) {
		return false, ""
	}
	var parts []string
	for _, f := range fields {
		if a, b := m.textOf(searched, f.Key), m.textOf(&m.scenario, f.Key); a != b {
			parts = append(parts, f.Label+" "+a+" → "+b)
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "prices")
	}
	return true, "These results are for other inputs (" + strings.Join(parts, "; ") + "): search again before using a design."
}
