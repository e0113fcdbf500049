package charts

import (
	"strings"
	"testing"

	"fabricplan/planner"
)

// A footnote points the reader where the figure is read: drawn in the
// window, to the window's Designs table and Export cable map… button;
// exported from the CLI, to the command that lists them. Mutations
// caught: the window's search chart saying "fabricplan search lists
// all", the window's topology sending a reader to "fabricplan cables
// --csv", and the CLI's export naming a window control.
func TestFootnotesPointWhereTheyAreRead(t *testing.T) {
	s := planner.NewScenario()
	s.Cluster.GPUs = 3000 // off the grid
	in, err := NewInput(s, catalog(t), nil, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		build     func(Input) (*Figure, error)
		window    bool
		want, not string
	}{
		{SearchChart, true, "(the Designs table lists all)", "fabricplan search"},
		{SearchChart, false, "(fabricplan search lists all)", "Designs table"},
		{Topology, true, "Cable map of every link: the Export cable map… button.", "fabricplan cables"},
		{Topology, false, "Cable map of every link: fabricplan cables --csv.", "Export cable map"},
	} {
		in.InWindow = c.window
		fig, err := c.build(in)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(fig.Footnote, c.want) || strings.Contains(fig.Footnote, c.not) {
			t.Errorf("%s, window %v: footnote %q, want %q and no %q", fig.Name, c.window, fig.Footnote, c.want, c.not)
		}
	}
}
