package charts

import (
	"bytes"
	"sync"
	"testing"

	"fabricplan/data"
	"fabricplan/planner"
	"fabricplan/planner/market"
)

// TestConcurrentRendering draws as the window and a background export
// do at once: one figure from several goroutines (the window's redraw and
// an export take turns through Figure.rendering), and PDFs of different
// charts together (they share the process's PDF font definitions). Every
// concurrent PNG must equal the same figure drawn alone.
//
// This is the test the CI's race pass runs in this package (scripts/
// race-targets.sh picks the tests that start goroutines). Wrong code it
// catches: dropping the rendering lock in Render or ImageTargets (the
// race detector reports the fitted titles written by two draws; without
// it the PNGs differ), or pdfFontDefs turned into a plain map filled
// lazily ("concurrent map writes").
func TestConcurrentRendering(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.GPUs = 1000 // off the grid: a partial unit
	cat := catalog(t)
	m, err := market.Load(data.FS)
	if err != nil {
		t.Fatal(err)
	}
	figures := map[string]*Figure{}
	for _, name := range []string{"cost", "ports", "market"} {
		in, err := NewInputWith(s, cat, m, 0, PartsOf(name))
		if err != nil {
			t.Fatal(err)
		}
		c, err := ByName(name)
		if err != nil {
			t.Fatal(err)
		}
		fig, err := c.Build(in)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		figures[name] = fig
	}
	size := Size{640, 400, 96}
	alone := map[string][]byte{}
	for name, fig := range figures {
		b, err := fig.Bytes("png", size)
		if err != nil {
			t.Fatal(err)
		}
		alone[name] = b
	}

	const perFigure = 3
	var wg sync.WaitGroup
	type result struct {
		name, format string
		b            []byte
		err          error
	}
	results := make(chan result, len(figures)*perFigure*2)
	for name, fig := range figures {
		for range perFigure {
			for _, format := range []string{"png", "pdf"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					b, err := fig.Bytes(format, size)
					results <- result{name, format, b, err}
				}()
			}
		}
	}
	wg.Wait()
	close(results)
	for r := range results {
		if r.err != nil {
			t.Errorf("%s.%s drawn concurrently: %v", r.name, r.format, r.err)
			continue
		}
		if r.format == "pdf" {
			if !bytes.HasPrefix(r.b, []byte("%PDF-")) {
				t.Errorf("%s.pdf drawn concurrently is not a PDF (%d bytes)", r.name, len(r.b))
			}
			continue
		}
		if !bytes.Equal(r.b, alone[r.name]) {
			t.Errorf("%s.png drawn concurrently differs from the same figure drawn alone", r.name)
		}
	}
}
