package scenariofile

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/safefile"
	"fabricplan/internal/tomledit"
	"fabricplan/planner"
)

// LoadSource is Load that also returns the file's text,
// for SaveEdit to edit in place.
func LoadSource(path string, cat *planner.Catalog) (planner.Scenario, []byte, error) {
	src, err := Read(path)
	if err != nil {
		return planner.Scenario{}, nil, err
	}
	s, err := Check(src, cat)
	if err != nil {
		return planner.Scenario{}, nil, &fielderr.FileError{Path: path, Err: err}
	}
	return s, src, nil
}

// SaveEdit writes s to path as an edit of src, the file's text
// that loaded as old (Edit): what the user wrote stays as written.
// Without src (a new file), or when the edit cannot be made and checked,
// the whole scenario is written under src's leading comments. It returns
// the text written.
func SaveEdit(path string, src []byte, old, s planner.Scenario) ([]byte, error) {
	data, err := Edit(src, old, s)
	if err != nil {
		header := LeadingComments(src)
		if header == "" {
			header = defaultHeader
		}
		if data, err = encode(s, header); err != nil {
			return nil, err
		}
	}
	if err := checkReadable(data); err != nil {
		return nil, fmt.Errorf("save %s: %w", filepath.Base(path), err)
	}
	if err := safefile.WriteDocument(path, data); err != nil {
		return nil, err
	}
	return data, nil
}

// errNoSource is Edit's answer without a document to edit.
var errNoSource = errors.New("no scenario text to edit")

// Edit returns src, a scenario document that loaded as old,
// edited key by key to hold s: a value that differs between old and s is
// replaced where the user wrote it (or added in its table, the table
// created at the end when missing), a key s no longer has is removed, and
// everything else - comments, blank lines, key order, number spelling
// such as 1_024, tables, defaults the user did not write - stays byte for
// byte. The result is checked: its keys must decode to src's with exactly
// these changes; an error means it could not be, and nothing is returned.
func Edit(src []byte, old, s planner.Scenario) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, errNoSource
	}
	before, err := flatScenario(old)
	if err != nil {
		return nil, err
	}
	after, err := flatScenario(s)
	if err != nil {
		return nil, err
	}
	doc, err := tomledit.New(src)
	if err != nil {
		return nil, err
	}
	want, err := flatDoc(src)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedFlat(before) {
		if _, ok := after[k]; !ok {
			if err := doc.Delete(splitFlat(k)); err != nil {
				return nil, err
			}
			delete(want, k)
		}
	}
	for _, k := range sortedFlat(after) {
		if v, ok := before[k]; !ok || !reflect.DeepEqual(v, after[k]) {
			if err := doc.Set(splitFlat(k), after[k]); err != nil {
				return nil, err
			}
			want[k] = after[k]
		}
	}
	out := doc.Bytes()
	got, err := flatDoc(out)
	if err != nil {
		return nil, fmt.Errorf("edited scenario does not parse: %w", err)
	}
	if !sameFlat(got, want) {
		return nil, errors.New("edited scenario does not decode to the edits")
	}
	return out, nil
}

// flatScenario is s as its TOML encoding's leaf keys, each path joined
// by flatSep; keys the encoding leaves out (omitempty) are absent.
func flatScenario(s planner.Scenario) (map[string]any, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(s); err != nil {
		return nil, err
	}
	return flatDoc(b.Bytes())
}

// flatDoc decodes a TOML document into its leaf keys.
func flatDoc(src []byte) (map[string]any, error) {
	var m map[string]any
	if _, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&m); err != nil {
		return nil, err
	}
	out := map[string]any{}
	flatten(m, "", out)
	return out, nil
}

// flatSep joins key parts; no TOML key the scenario uses holds it.
const flatSep = "\x00"

// flatten puts the leaves of m into out; empty tables have none (an
// empty [network.media] means the defaults, as no table does).
func flatten(m map[string]any, prefix string, out map[string]any) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(sub, prefix+k+flatSep, out)
			continue
		}
		out[prefix+k] = v
	}
}

func splitFlat(k string) []string { return strings.Split(k, flatSep) }

func sortedFlat(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sameFlat compares two flattened documents; numbers compare by value,
// so 1_024 written by the user equals 1024.
func sameFlat(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !sameValue(av, bv) {
			return false
		}
	}
	return true
}

func sameValue(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}
