package charts

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// pdfPages reads a PDF back with pdftotext, one string a page.
func pdfPages(t *testing.T, b []byte) []string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", f, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(string(out), "\f")
	if len(pages) > 0 && strings.TrimSpace(pages[len(pages)-1]) == "" {
		pages = pages[:len(pages)-1] // pdftotext ends the last page with a form feed too
	}
	return pages
}

// footerTail is the report footer after its page number.
const footerTail = "Prices, power and job times are estimates; sources on the last page."

// readSpan is where a report part was found on reading the PDF back.
type readSpan struct{ first, last int }

func (s readSpan) String() string {
	if s.last <= s.first {
		return fmt.Sprintf("page %d", s.first)
	}
	return fmt.Sprintf("pages %d to %d", s.first, s.last)
}

// TestReportIndexFromPages reads every example scenario's report back,
// finds the page each part starts on by its heading, and checks the
// summary's index names those pages; and that nothing spills: the
// summary (with its index) is page 1 alone, every page carries its own
// footer (the last one too) and no text runs past a page's footer.
//
// Mutations caught: the index counted as if every part took one page
// ("the bill of materials (page 18)" when it takes 19 to 20, the old
// code); a summary whose notes push the index onto page 2 (the old
// code's 100k report; the long-name case when the summary's type is
// never made smaller once moving the notes is not enough); the last
// page left without its footer; the summary's type chosen from the last
// layout's index (summaryFits reading idx as given: the Alibaba HPN
// example's index never settles once page 1 says what of the back end's
// figures is in the other networks).
func TestReportIndexFromPages(t *testing.T) {
	ins := textFitInputs(t)
	names := make([]string, 0, len(ins))
	for n := range ins {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		in := ins[name]
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteReport(&buf, in, catalog(t), nil); err != nil {
				t.Fatal(err)
			}
			pages := pdfPages(t, buf.Bytes())
			starts := map[string]int{}
			for i, p := range pages {
				footer := fmt.Sprintf("Fabric Planner report, page %d.", i+1)
				if !strings.Contains(p, footer) {
					t.Errorf("page %d lacks its footer %q", i+1, footer)
				}
				if at := strings.Index(p, footer); at >= 0 && squash(p[at+len(footer):]) != footerTail {
					t.Errorf("page %d has text below its footer: %q", i+1, p[at:])
				}
				head := strings.TrimSpace(p)
				for _, h := range []string{"Notes, continued", "Bill of materials", "Inputs and assumptions", "Sources"} {
					if strings.HasPrefix(head, h) {
						starts[h] = i + 1
					}
				}
			}
			last := len(pages)
			bom, inputs, sources := starts["Bill of materials"], starts["Inputs and assumptions"], starts["Sources"]
			if bom == 0 || inputs <= bom || sources <= inputs {
				t.Fatalf("parts out of order or missing: %v", starts)
			}
			chartsFrom := 2
			var want []string
			if n := starts["Notes, continued"]; n > 0 {
				want = append(want, fmt.Sprintf("the notes continued (%s)", readSpan{n, n}))
				chartsFrom = n + 1
			}
			if bom > chartsFrom {
				want = append(want, fmt.Sprintf("charts (%s)", readSpan{chartsFrom, bom - 1}))
			}
			want = append(want, fmt.Sprintf("the bill of materials (%s)", readSpan{bom, inputs - 1}),
				fmt.Sprintf("the inputs (%s)", readSpan{inputs, sources - 1}),
				fmt.Sprintf("the sources of every price and figure (%s)", readSpan{sources, last}))
			first := squash(pages[0])
			if !strings.Contains(first, "Then: ") {
				t.Fatalf("the index is not on page 1:\n%s", pages[0])
			}
			for _, w := range want {
				if !strings.Contains(first, w) {
					t.Errorf("page 1's index lacks %q (parts start at %v of %d pages):\n%s", w, starts, last, first)
				}
			}
		})
	}
}

// TestReportUnitBillKeepsWholeItems: the per-scalable-unit table keeps
// each item's whole name (wrapping its cell), as the BOM does, for every
// example scenario: "2x400G OSFP SR8 multimode twin-port (MMA4Z00-NS
// class), spine end (down)" read back whole, and no "…" or "..." in the
// report's tables. Mutations caught: the item cut to 70 characters with
// an ellipsis (textfmt.Clip, the old code); an inputs-table value cut to
// its column ("core arista-...", the GB300 workload's GPU name: fit
// instead of wrapping, the old code).
func TestReportUnitBillKeepsWholeItems(t *testing.T) {
	longest := 0
	for name, in := range textFitInputs(t) {
		b := in.Plan.UnitBill()
		if len(b.Rows) == 0 {
			continue
		}
		var buf bytes.Buffer
		if err := WriteReport(&buf, in, catalog(t), nil); err != nil {
			t.Fatal(err)
		}
		// The tables' pages: from the bill of materials on (a chart
		// may elide leaves "14 … 64" on purpose).
		pages := pdfPages(t, buf.Bytes())
		from := 0
		for i, p := range pages {
			if strings.HasPrefix(strings.TrimSpace(p), "Bill of materials") {
				from = i
				break
			}
		}
		text := squash(strings.Join(pages[from:], " "))
		if strings.Contains(text, "…") || strings.Contains(text, "...") {
			t.Errorf("%s: the report's tables cut text with an ellipsis", name)
		}
		for _, r := range b.Rows {
			longest = max(longest, len(r.Item))
			if !strings.Contains(text, squash(r.Item)) && !wrappedIn(text, r.Item) {
				t.Errorf("%s: the per-SU table lacks the whole item %q", name, r.Item)
			}
		}
	}
	if longest <= 70 {
		t.Errorf("the longest item has %d characters: the test no longer reaches one the table would cut", longest)
	}
}

// A report whose page index has not settled is refused, never drawn with
// an index naming pages it does not have: with no dry run allowed the
// index stays empty and the pages drawn disagree with it. Catches: the
// drawn layout's index not compared with the one printed.
func TestReportRefusesAnUnsettledIndex(t *testing.T) {
	defer func(n int) { maxLayoutPasses = n }(maxLayoutPasses)
	maxLayoutPasses = 0
	in := inputs(t)["default"]
	var buf bytes.Buffer
	err := WriteReport(&buf, in, catalog(t), nil)
	if err == nil || !strings.Contains(err.Error(), "page index did not settle") {
		t.Errorf("err = %v, want the unsettled index refused", err)
	}
	if buf.Len() != 0 {
		t.Errorf("%d bytes written for a refused report", buf.Len())
	}
}
