package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fabricplan/planner/validation"
)

// --accept records one run's growth with its reason and nothing else:
// on the shipped model an --accept of a run that did not grow is
// refused, as are an --accept without --why, without --update-ratchet,
// or naming no run; and a ratchet whose record for the Nemotron-4 15B
// run was lowered to 1% (so the shipped model "grew" from 1% to 22.8%)
// written with --accept for it holds that growth with the reason, while
// the text and Markdown printers say "grew from 1.0% to ...: reason".
// Mutations caught: --accept taken without --why or without
// --update-ratchet, an accepted growth printed without its reason or
// figures, or left off the page.
func TestValidateAccept(t *testing.T) {
	const id = "dgxc-nemotron4-15b-16xh100-bf16"
	path := filepath.Join(t.TempDir(), "ratchet.toml")
	for _, args := range [][]string{
		{"validate", "--update-ratchet", path, "--accept", id},
		{"validate", "--accept", id, "--why", "x"},
		{"validate", "--update-ratchet", path, "--accept", "no-such-run", "--why", "x"},
		{"validate", "--update-ratchet", path, "--accept", id, "--why", " "},
	} {
		if _, errOut, code := runArgs(t, args...); code != ExitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errOut, ExitUsage)
		}
	}
	if _, errOut, code := runArgs(t, "validate", "--update-ratchet", path, "--accept", id, "--why", "x"); code == 0 || !strings.Contains(errOut, "did not grow") {
		t.Errorf("accepting a run that did not grow: exit %d: %s", code, errOut)
	}
	shipped, err := validation.LoadRatchet(os.DirFS("../data"))
	if err != nil {
		t.Fatal(err)
	}
	key := validation.RunKey(validation.SplitDev, id)
	shipped.ErrorPct[key] = 1
	const why = "a reason from a source"
	var ms []validation.Measure
	for _, v := range shipped.Check(nil) {
		ms = append(ms, validation.Measure{Key: v.Key, AbsErrorPct: v.Recorded})
	}
	for i := range ms {
		if ms[i].Key == key {
			ms[i].AbsErrorPct = 22.8
		}
	}
	next, err := shipped.Updated(ms, map[string]string{key: why})
	if err != nil || next.Accepted[key].FromPct != 1 || next.ErrorPct[key] != 22.8 {
		t.Fatalf("accepted %+v (%v)", next, err)
	}
	if !bytes.Contains(next.Marshal(), []byte(`"`+key+`" = 22.8 # grew from 1.0%`)) {
		t.Error("the file does not say the growth beside the record")
	}
	var b, md bytes.Buffer
	rows := ratchetGrowth(next.Check(ms))
	writeGrowthText(&b, rows)
	if want := key + ": grew from 1.0% to 22.8%: " + why; !strings.Contains(b.String(), want) {
		t.Errorf("text %q lacks %q", b.String(), want)
	}
	if err := writeGrowthMarkdown(&md, rows); err != nil || !strings.Contains(md.String(), "- "+key+": grew from 1.0% to 22.8%: "+why) {
		t.Errorf("markdown %q (%v)", md.String(), err)
	}
}
