package scenariofile

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"fabricplan/internal/fielderr"
	"fabricplan/internal/safefile"
	"fabricplan/internal/textfmt"
	"fabricplan/planner"
	"fabricplan/planner/perf"
	"fabricplan/planner/quotes"
)

// Limits on a scenario document's shape, checked before decoding so a
// hostile file cannot make the TOML decoder recurse or spin: real
// scenarios nest two tables deep and use keys of at most three parts.
const (
	maxNesting  = 32 // open [ and { at once
	maxKeyParts = 32 // parts of one dotted key or table name
)

// Parse decodes a scenario document over the defaults of
// NewScenario. Unknown keys, wrong types and explicit zero counts are
// errors naming the key and its line, all of them at once; values are not
// checked against the catalog (see Validate).
func Parse(src []byte) (planner.Scenario, error) {
	s, err := Decode(src)
	if err != nil {
		return planner.Scenario{}, err
	}
	return s, nil
}

// Decode is Parse that keeps going: on key and type
// errors it returns them with the scenario holding every field that did
// decode, so the caller can apply overrides and report the catalog checks
// too (CheckDecoded). On a syntax error the scenario is empty.
func Decode(src []byte) (planner.Scenario, error) {
	if enc := textfmt.Encoding(src); strings.HasPrefix(enc, "UTF-16") {
		return planner.Scenario{}, &undecodedError{&fielderr.FieldError{Field: "file", Line: 1,
			Problem: "the file is " + enc + " text (as Windows Notepad saves Unicode)", Fix: "save it as UTF-8"}}
	}
	if err := checkShape(src); err != nil {
		return planner.Scenario{}, err
	}
	var top map[string]toml.Primitive
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(&top)
	if err != nil {
		// Nothing decoded: report this error only, not the checks of an
		// empty scenario (Unreadable).
		if ie := invisibleKeyError(src, err); ie != nil {
			return planner.Scenario{}, &undecodedError{ie}
		}
		return planner.Scenario{}, &undecodedError{tomlError(err)}
	}
	d := &strictDecoder{md: md, lines: keyLines(src)}
	s := planner.NewScenario()
	d.table(top, reflect.ValueOf(&s).Elem(), "")
	if _, ok := top["schema"]; !ok {
		d.add(&fielderr.FieldError{Field: "schema", Line: 1, Problem: "missing", Fix: "add schema = 1 at the top"})
	}
	for _, k := range []string{"nics_per_server", "ports_per_nic"} {
		if !md.IsDefined("network", k) {
			continue
		}
		n := s.Network.NICsPerServer
		if k == "ports_per_nic" {
			n = s.Network.PortsPerNIC
		}
		if n < 1 {
			d.add(&fielderr.FieldError{Field: "network." + k, Line: d.lines["network."+k],
				Problem: fmt.Sprintf("%d is not a count", n), Fix: "give 1 or more, or leave the key out for the default"})
		}
	}
	return s, d.err()
}

// strictDecoder decodes a document key by key into a struct, so that one
// bad value does not hide the others: every unknown key and wrong type is
// collected with its line.
type strictDecoder struct {
	md    toml.MetaData
	lines map[string]int
	errs  []error
	more  int // errors past fielderr.MaxListed, counted only
}

func (d *strictDecoder) add(e *fielderr.FieldError) {
	if len(d.errs) >= fielderr.MaxListed {
		d.more++
		return
	}
	d.errs = append(d.errs, e)
}

func (d *strictDecoder) err() error { return fielderr.JoinCapped(d.errs, d.more) }

// table decodes the keys of one TOML table into the struct dst; prefix is
// the table's dotted name with a trailing dot ("" at the top).
func (d *strictDecoder) table(prims map[string]toml.Primitive, dst reflect.Value, prefix string) {
	fields := tomlFields(dst.Type())
	for _, key := range planner.SortedKeys(prims) {
		name := prefix + key
		i, ok := fields[key]
		if r, bad := textfmt.Invisible(key); !ok && bad {
			d.add(&fielderr.FieldError{Field: visible(name), Line: d.lines[name],
				Problem: "the key contains " + textfmt.InvisibleWords(r), Fix: invisibleFix})
			continue
		}
		if !ok {
			fix := "remove it or check the spelling"
			if len(d.errs) < fielderr.MaxListed {
				fix += suggestKey(name)
			}
			d.add(&fielderr.FieldError{Field: name, Line: d.lines[name], Problem: "unknown key", Fix: fix})
			continue
		}
		d.value(prims[key], fieldAt(dst, i), name)
	}
}

// value decodes one key into the field f.
func (d *strictDecoder) value(p toml.Primitive, f reflect.Value, name string) {
	switch {
	case f.Kind() == reflect.Struct:
		if sub, ok := d.subTable(p, name); ok {
			d.table(sub, f, name+".")
		}
		return
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Struct:
		d.pointerTable(p, f, name)
		return
	case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Struct:
		d.tableArray(p, f, name)
		return
	case f.Kind() == reflect.Map:
		d.mapTable(p, f, name)
		return
	}
	if err := d.md.PrimitiveDecode(p, f.Addr().Interface()); err != nil {
		d.add(d.typeError(name, err))
	}
}

// tableStarts are the tables that, when written, start from values of
// their own rather than from zero: a [workload] from NewWorkload. A table
// named here is set even when it is not a table (its error is reported);
// any other pointer to a table is nil unless the document has it ([reliability]:
// nil means "no override").
var tableStarts = map[reflect.Type]func() reflect.Value{
	reflect.TypeOf(perf.Workload{}):          func() reflect.Value { return reflect.ValueOf(perf.NewWorkload()) },
	reflect.TypeOf(planner.Growth{}):         func() reflect.Value { return reflect.ValueOf(planner.Growth{}) },
	reflect.TypeOf(planner.NetworksInputs{}): func() reflect.Value { return reflect.ValueOf(planner.NetworksInputs{}) },
}

// pointerTable decodes a table into the pointer field f.
func (d *strictDecoder) pointerTable(p toml.Primitive, f reflect.Value, name string) {
	v := reflect.New(f.Type().Elem())
	start, always := tableStarts[f.Type().Elem()]
	if always {
		v.Elem().Set(start())
	}
	sub, ok := d.subTable(p, name)
	if ok {
		d.table(sub, v.Elem(), name+".")
	}
	if ok || always {
		f.Set(v)
	}
}

// mapTable decodes a table of values of one type ([prices]) into the map
// field f, each value on its own so one bad price does not hide the rest.
func (d *strictDecoder) mapTable(p toml.Primitive, f reflect.Value, name string) {
	sub, ok := d.subTable(p, name)
	if !ok {
		return
	}
	m := reflect.MakeMapWithSize(f.Type(), len(sub))
	for _, k := range planner.SortedKeys(sub) {
		v := reflect.New(f.Type().Elem())
		if err := d.md.PrimitiveDecode(sub[k], v.Interface()); err != nil {
			d.add(d.typeError(name+"."+k, err))
			continue
		}
		m.SetMapIndex(reflect.ValueOf(k), v.Elem())
	}
	f.Set(m)
}

// tableArray decodes an array of tables ([[name]]) into the slice f, each
// table strictly; a table's keys are named name[i].key (i from 1).
func (d *strictDecoder) tableArray(p toml.Primitive, f reflect.Value, name string) {
	var subs []map[string]toml.Primitive
	if err := d.md.PrimitiveDecode(p, &subs); err != nil {
		d.add(&fielderr.FieldError{Field: name, Line: d.lines[name], Problem: "expected an array of tables", Fix: "write each as [[" + name + "]] with keys below"})
		return
	}
	out := reflect.MakeSlice(f.Type(), len(subs), len(subs))
	for i, sub := range subs {
		d.table(sub, out.Index(i), fmt.Sprintf("%s[%d].", name, i+1))
	}
	f.Set(out)
}

// subTable decodes the table name; any other shape - a value (cluster =
// 5), an array of tables ([[cluster]]), a string (workload =
// "llama3-405b") - is an error naming the key, not a silent default.
func (d *strictDecoder) subTable(p toml.Primitive, name string) (map[string]toml.Primitive, bool) {
	var sub map[string]toml.Primitive
	kind := d.md.Type(strings.Split(name, ".")...)
	if err := d.md.PrimitiveDecode(p, &sub); err != nil || kind != "Hash" && kind != "" { // "": a table made by dotted keys
		problem := "expected a table, got " + tomlKind(kind)
		d.add(&fielderr.FieldError{Field: name, Line: d.lines[name], Problem: problem, Fix: "write it as [" + name + "] with key = value lines below"})
		return nil, false
	}
	return sub, true
}

// tomlKind words a TOML type name of toml.MetaData.Type for messages.
func tomlKind(kind string) string {
	switch kind {
	case "ArrayHash":
		return "an array of tables ([[...]])"
	case "Array":
		return "an array"
	case "String":
		return "a string"
	case "Integer":
		return "a whole number"
	case "Float":
		return "a number"
	case "Bool":
		return "true or false"
	case "":
		return "something else"
	}
	return "a " + strings.ToLower(kind)
}

// typeError words a decode error of one key.
func (d *strictDecoder) typeError(name string, err error) *fielderr.FieldError {
	fe := &fielderr.FieldError{Field: name, Line: d.lines[name], Problem: strings.TrimPrefix(err.Error(), "toml: "), Fix: "check the value's type and quotes"}
	if m := badTypeRE().FindStringSubmatch(err.Error()); m != nil {
		fe.Problem = fmt.Sprintf("expected %s, got %s", typeWord(m[2]), typeWord(m[1]))
		fe.Fix = "write the value as " + typeWord(m[2])
	}
	return fe
}

// tomlFields maps the toml tag names of struct type t to field index
// paths (reflect.Value.FieldByIndex's), the fields of an embedded struct
// or pointer to one without a tag among its own (perf.Workload's
// Architecture), as the toml package decodes them.
func tomlFields(t reflect.Type) map[string][]int {
	out := make(map[string][]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if et := f.Type; f.Anonymous && tag == "" {
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, sub := range tomlFields(et) {
					out[k] = append([]int{i}, sub...)
				}
				continue
			}
		}
		if tag != "" && tag != "-" {
			out[tag] = []int{i}
		}
	}
	return out
}

// fieldAt is the field of the struct v at index path, allocating the
// nil pointers to embedded structs on the way.
func fieldAt(v reflect.Value, path []int) reflect.Value {
	for n, i := range path {
		if n > 0 {
			if v.Kind() == reflect.Pointer {
				if v.IsNil() {
					v.Set(reflect.New(v.Type().Elem()))
				}
				v = v.Elem()
			}
		}
		v = v.Field(i)
	}
	return v
}

// checkShape refuses documents nested deeper, or with longer dotted keys,
// than any scenario needs. It skips strings and comments.
func checkShape(src []byte) error {
	depth, parts, line := 0, 0, 1
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\n':
			line++
			parts = 0
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case '"', '\'':
			end, nl := skipString(src, i)
			line += nl
			i = end
		case '[', '{':
			depth++
			parts = 0
			if depth > maxNesting {
				return &fielderr.FieldError{Field: "file", Line: line, Problem: fmt.Sprintf("nested more than %d levels deep", maxNesting),
					Fix: "a scenario needs only [table] headers and key = value lines"}
			}
		case ']', '}':
			depth = max(depth-1, 0)
			parts = 0
		case '=', ',':
			parts = 0
		case '.':
			parts++
			if parts >= maxKeyParts {
				return &fielderr.FieldError{Field: "file", Line: line, Problem: fmt.Sprintf("a key with more than %d dotted parts", maxKeyParts),
					Fix: "a scenario's keys have at most three parts, e.g. network.media.server_leaf"}
			}
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string starting at
// src[i] (basic, literal or multi-line) and the newlines it spans. An
// unterminated string runs to the end; the decoder reports it.
func skipString(src []byte, i int) (end, newlines int) {
	q := src[i]
	delim := []byte{q}
	if i+2 < len(src) && src[i+1] == q && src[i+2] == q {
		delim = []byte{q, q, q}
	}
	j := i + len(delim)
	for j < len(src) {
		switch {
		case q == '"' && src[j] == '\\':
			j += 2
			continue
		case bytes.HasPrefix(src[j:], delim):
			return j + len(delim) - 1, newlines
		case src[j] == '\n':
			newlines++
			if len(delim) == 1 {
				return j - 1, newlines - 1 // the decoder reports the open string
			}
		}
		j++
	}
	return len(src) - 1, newlines
}

// Check parses src and validates it against cat, attaching file
// lines to every field error. It reports every problem at once: type and
// key errors from decoding, and the catalog checks of the fields that
// decoded.
func Check(src []byte, cat *planner.Catalog) (planner.Scenario, error) {
	s, err := Decode(src)
	err = CheckDecoded(s, err, cat, src)
	if cerr := SystemConflicts(s, cat, src); cerr != nil && len(fielderr.FieldErrors(err)) < fielderr.MaxListed {
		err = errors.Join(err, cerr)
	}
	if err != nil {
		return planner.Scenario{}, err
	}
	// Hold the system's packaging in the fields, so a save writes what
	// the plan uses and the file reads back without conflicts.
	return s.WithSystem(cat), nil
}

// SystemConflicts reports keys the document src sets that the
// scenario's system fixes, with other values (the system would win and
// the file be misread), with their lines; nil when there are none.
func SystemConflicts(s planner.Scenario, cat *planner.Catalog, src []byte) error {
	lines := keyLines(src)
	errs := s.ConflictsWithSystem(cat, func(k string) bool { return lines[k] > 0 })
	return WithLines(errors.Join(errs...), src)
}

// Unreadable reports whether a Decode error is about the document
// as a whole (not TOML, too deep, too large, a value the decoder cannot
// read): nothing in it decoded.
func Unreadable(decodeErr error) bool {
	var ue *undecodedError
	fes := fielderr.FieldErrors(decodeErr)
	return decodeErr != nil && (len(fes) == 0 || fes[0].Field == "file" || errors.As(decodeErr, &ue))
}

// undecodedError wraps the TOML decoder's error: the document stopped
// decoding there, so no field of it holds a value.
type undecodedError struct{ err error }

func (e *undecodedError) Error() string { return e.err.Error() }
func (e *undecodedError) Unwrap() error { return e.err }

// CheckDecoded joins decodeErr, the errors Decode returned with
// s, and s.Validate's errors on the fields not already reported, with
// the lines of src; nil when both are nil.
func CheckDecoded(s planner.Scenario, decodeErr error, cat *planner.Catalog, src []byte) error {
	if Unreadable(decodeErr) {
		return decodeErr
	}
	dfe := fielderr.FieldErrors(decodeErr)
	verr := s.Validate(cat)
	if decodeErr == nil {
		return WithLines(verr, src)
	}
	reported := map[string]bool{}
	errs := []error{}
	for _, fe := range dfe {
		reported[fe.Field] = true
		errs = append(errs, fe)
	}
	more := 0
	for _, fe := range fielderr.FieldErrors(verr) {
		switch {
		case reported[fe.Field]:
		case len(errs) >= fielderr.MaxListed:
			more++
		default:
			errs = append(errs, fe)
		}
	}
	return WithLines(fielderr.JoinCapped(errs, more), src)
}

// WithLines sets the Line of every field error in err from the scenario
// document src, and returns err.
func WithLines(err error, src []byte) error {
	fes := fielderr.FieldErrors(err)
	if len(fes) == 0 {
		return err
	}
	lines := keyLines(src)
	for _, fe := range fes {
		if fe.Line == 0 {
			fe.Line = lines[fe.Field]
		}
	}
	return err
}

// Load reads a scenario file (a regular file of at most
// safefile.ScenarioLimit bytes) and checks it against cat. Errors name
// the file.
func Load(path string, cat *planner.Catalog) (planner.Scenario, error) {
	s, _, err := LoadFile(path, cat)
	return s, err
}

// LoadFile is Load that also returns the file's leading
// comment block (see LeadingComments), for SaveFile to keep.
func LoadFile(path string, cat *planner.Catalog) (s planner.Scenario, header string, err error) {
	src, err := Read(path)
	if err != nil {
		return planner.Scenario{}, "", err
	}
	s, err = Check(src, cat)
	if err == nil {
		err = ReadQuotes(&s, path, time.Now())
	}
	if err != nil {
		return planner.Scenario{}, "", &fielderr.FileError{Path: path, Err: err}
	}
	return s, LeadingComments(src), nil
}

// ReadQuotes loads the quotes file the scenario names (pricing.quotes),
// relative to the directory of the scenario file at scenarioPath, and
// dates it today; then the quotes are checked against the catalog with
// the scenario. Without a quotes file it does nothing.
func ReadQuotes(s *planner.Scenario, scenarioPath string, today time.Time) error {
	q := s.Pricing.Quotes
	if q == "" {
		return nil
	}
	if !filepath.IsAbs(q) && scenarioPath != "" {
		q = filepath.Join(filepath.Dir(scenarioPath), q)
	}
	qs, err := LoadQuotes(q, today)
	if err != nil {
		fix := QuotesPathFix
		var ce quotesContentError
		if errors.As(err, &ce) {
			fix = QuotesContentFix
		}
		return fielderr.New("pricing.quotes", fix, "%v", err)
	}
	s.Quotes = qs
	return nil
}

// The fixes of a pricing.quotes error: the file could not be read, or
// it was read and its text is wrong (the error says where).
const (
	QuotesPathFix    = "check the path (relative to the scenario file) or leave the key out"
	QuotesContentFix = "correct the quotes file where the error says"
)

// quotesContentError marks an error in a quotes file's text, as against
// one in reading it.
type quotesContentError struct{ error }

func (e quotesContentError) Unwrap() error { return e.error }

// LeadingComments is the block of comment lines (and blank lines between
// them) at the top of a scenario file, with its newlines: what a user
// wrote about the scenario, kept when the window saves it again.
func LeadingComments(src []byte) string {
	end := 0
	for i := 0; i < len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		line := src[i:]
		next := len(src)
		if j >= 0 {
			line, next = src[i:i+j], i+j+1
		}
		t := bytes.TrimSpace(line)
		if len(t) > 0 && t[0] != '#' {
			break
		}
		if len(t) > 0 {
			end = next
		}
		i = next
	}
	if end > 0 && src[end-1] != '\n' {
		return string(src[:end]) + "\n"
	}
	return string(src[:end])
}

// Read reads the bytes of a scenario file within the size
// limit; FIFOs, devices and folders are refused.
func Read(path string) ([]byte, error) {
	src, err := safefile.ReadDocument(path, safefile.ScenarioLimit)
	if err != nil {
		return nil, fmt.Errorf("open scenario: %w", err)
	}
	return src, nil
}

// defaultHeader opens a scenario file that has no comments of its own.
const defaultHeader = "# Fabric Planner scenario\n"

// Encode writes s as a TOML document.
func Encode(s planner.Scenario) ([]byte, error) { return encode(s, defaultHeader) }

// encode writes s as a TOML document under header, a block of
// comment lines.
func encode(s planner.Scenario, header string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	enc := toml.NewEncoder(&b)
	enc.Indent = ""
	if err := enc.Encode(s); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	return b.Bytes(), nil
}

// Save writes s to path through safefile.WriteDocument: the old file
// stays whole if anything fails, and keeps its mode, owner and links.
func Save(path string, s planner.Scenario) error { return SaveFile(path, s, "") }

// SaveFile is Save under header, the file's leading
// comment block as LeadingComments returned it; only comment and blank
// lines of it are written, and an empty header writes the default line.
func SaveFile(path string, s planner.Scenario, header string) error {
	header = LeadingComments([]byte(header))
	if header == "" {
		header = defaultHeader
	}
	data, err := encode(s, header)
	if err != nil {
		return err
	}
	if err := checkReadable(data); err != nil {
		return fmt.Errorf("save %s: %w", filepath.Base(path), err)
	}
	return safefile.WriteDocument(path, data)
}

// checkReadable refuses a document Read would refuse back: larger than
// safefile.ScenarioLimit (a name pasted whole from a 2 MB log) or text
// that is not UTF-8. Saving it would replace a file that opens with one
// that does not.
func checkReadable(data []byte) error {
	if len(data) > safefile.ScenarioLimit {
		return fmt.Errorf("the scenario would be %s bytes, over the %s bytes a scenario file may hold to open again; shorten its name or notes",
			textfmt.Int(len(data)), textfmt.Int(safefile.ScenarioLimit))
	}
	if !utf8.Valid(data) {
		return errors.New("the scenario holds text that is not UTF-8 (a name or a note) and would not open again; retype it")
	}
	return nil
}

// badTypeRE matches the TOML decoder's error for a value of the wrong
// type; compiled on first use, so a file without one does not pay for it.
var badTypeRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`incompatible types: TOML value has type (\S+); destination has type (\S+)`)
})

// invisibleFix is the fix for a key holding an invisible character.
const invisibleFix = "delete the key and type it again (it was likely pasted from a web page or a chat)"

// visible is key without the characters textfmt.Invisible finds, as it
// shows on screen.
func visible(key string) string {
	return strings.Map(func(r rune) rune {
		if _, bad := textfmt.Invisible(string(r)); bad {
			return -1
		}
		return r
	}, key)
}

// invisibleKeyError names the invisible character in the key of the line
// a TOML syntax error stopped at (an unquoted key cannot hold one, so the
// decoder reports only an unexpected character); nil when that line
// holds none before its '='.
func invisibleKeyError(src []byte, err error) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	if pe.Position.Line < 1 || pe.Position.Line > len(lines) {
		return nil
	}
	key, _, _ := strings.Cut(lines[pe.Position.Line-1], "=")
	r, bad := textfmt.Invisible(key)
	if !bad {
		return nil
	}
	name := strings.TrimSpace(visible(key))
	if table := tableAt(lines, pe.Position.Line-2); table != "" {
		name = table + "." + name
	}
	return &fielderr.FieldError{Field: "file", Line: pe.Position.Line,
		Problem: fmt.Sprintf("key %s contains %s", name, textfmt.InvisibleWords(r)), Fix: invisibleFix}
}

// tableAt names the table line i (from 0) is in: "network" under
// [network], "phase[2]" under the second [[phase]] header; "" at the
// top level.
func tableAt(lines []string, i int) string {
	for ; i >= 0; i-- {
		h := strings.TrimSpace(lines[i])
		if array, ok := strings.CutPrefix(h, "[["); ok {
			end := strings.Index(array, "]]")
			if end < 0 {
				return ""
			}
			name, n := unquoteDotted(array[:end]), 1
			for _, l := range lines[:i] { // earlier headers of the same array
				if a, ok := strings.CutPrefix(strings.TrimSpace(l), "[["); ok {
					if e := strings.Index(a, "]]"); e >= 0 && unquoteDotted(a[:e]) == name {
						n++
					}
				}
			}
			return fmt.Sprintf("%s[%d]", name, n)
		}
		if strings.HasPrefix(h, "[") {
			if end := strings.Index(h, "]"); end > 0 {
				return unquoteDotted(h[1:end])
			}
			return ""
		}
	}
	return ""
}

// tomlError turns a decoder error into a fielderr.FieldError when it names a key.
func tomlError(err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		if fix, ok := encodingFix(pe.Message); ok {
			return &fielderr.FieldError{Field: "file", Line: pe.Position.Line, Problem: "not valid TOML: " + pe.Message, Fix: fix}
		}
		if pe.LastKey != "" {
			fix := "check the value's type and quotes"
			if strings.Contains(pe.Message, "has already been defined") {
				fix = "the key is written twice: keep one of the two lines"
			}
			return &fielderr.FieldError{Field: pe.LastKey, Line: pe.Position.Line, Problem: pe.Message, Fix: fix}
		}
		line := pe.Position.Line
		if strings.Contains(pe.Message, `'\n'`) && line > 1 {
			line-- // the parser stopped at the end of the faulty line
		}
		fix := "fix the syntax at that line"
		if strings.Contains(pe.Message, "has already been defined") {
			fix = "the table is written twice: move its lines under the first header and delete this one"
		}
		return &fielderr.FieldError{Field: "file", Line: line, Problem: "not valid TOML: " + pe.Message, Fix: fix}
	}
	msg := err.Error()
	key, line := "", 0
	if m := regexp.MustCompile(`line (\d+) \(last key "([^"]+)"\)`).FindStringSubmatch(msg); m != nil {
		fmt.Sscan(m[1], &line)
		key = m[2]
	} else if m := regexp.MustCompile(`\(last key "([^"]+)"\)`).FindStringSubmatch(msg); m != nil {
		key = m[1]
	}
	if m := badTypeRE().FindStringSubmatch(msg); m != nil && key != "" {
		return &fielderr.FieldError{Field: key, Line: line, Problem: fmt.Sprintf("expected %s, got %s", typeWord(m[2]), typeWord(m[1])),
			Fix: "write the value as " + typeWord(m[2])}
	}
	if key != "" {
		return &fielderr.FieldError{Field: key, Line: line, Problem: strings.TrimPrefix(msg, "toml: "), Fix: ""}
	}
	return fmt.Errorf("scenario: %w", err)
}

func typeWord(t string) string {
	switch strings.ToLower(strings.Trim(t, "*")) {
	case "integer", "int", "int64", "int32":
		return "a whole number"
	case "float", "float64":
		return "a number"
	case "string":
		return `a quoted string`
	case "bool", "boolean":
		return "true or false"
	case "map", "table", "struct":
		return "a table"
	case "slice", "array":
		return "an array"
	}
	return t
}

var knownKeys = []string{
	"schema", "name", "cluster.system", "cluster.gpus", "cluster.gpus_per_server", "cluster.server_price_usd",
	"network.fabric", "network.nic_gbps", "network.nic", "network.nics_per_server", "network.ports_per_nic",
	"network.planes", "network.switch", "network.oversubscription", "network.spine_oversubscription", "network.topology", "network.servers_per_tor", "network.servers_per_leaf", "network.min_spines", "network.storage_nodes", "network.storage_node_ports", "network.leaf_pairs", "network.peer_link_ports", "network.pod_gpus", "network.uplink_gbps", "network.core_uplink_gbps", "network.tiers", "network.rail_optimized", "network.leaf_alignment",
	"network.load_balancing", "workload.model", "workload.gpu", "workload.framework", "workload.params_b", "workload.active_params_b",
	"workload.layers", "workload.hidden", "workload.seq_len", "workload.vocab", "workload.experts", "workload.top_k",
	"workload.global_batch_tokens", "workload.micro_batch", "workload.tp", "workload.pp", "workload.vpp", "workload.ep",
	"workload.zero", "workload.recompute", "workload.tokens_total", "workload.compute_efficiency",
	"workload.overlap_dp", "workload.overlap_pp", "workload.overlap_tp", "workload.overlap_ep",
	"network.media.server_leaf", "network.media.leaf_spine", "network.media.spine_core",
	"network.media.server_leaf_m", "network.media.leaf_spine_m", "network.media.spine_core_m",
	"pricing.basis", "pricing.quotes",
	"networks.frontend", "networks.frontend_ports", "networks.frontend_gbps", "networks.frontend_oversubscription",
	"networks.storage", "networks.storage_fabric", "networks.storage_ports", "networks.storage_gbps",
	"networks.storage_oversubscription", "networks.storage_gbs_per_gpu", "networks.storage_server_ports",
	"networks.oob", "networks.management_servers",
	"storage.write_gbs",
}

// suggestKey proposes a known key in the same table with the closest name.
func suggestKey(key string) string {
	best, bestD := "", 4
	for _, k := range knownKeys {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// keyLines maps each dotted key of a TOML document to its 1-based line.
// It understands [table] headers and key = value lines, which is all a
// scenario uses; anything else is skipped.
func keyLines(src []byte) map[string]int {
	out := map[string]int{}
	arrays := map[string]int{}
	table := ""
	for i, raw := range strings.Split(string(src), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || line[0] == '#' {
			continue
		}
		if strings.HasPrefix(line, "[") {
			end := strings.Index(line, "]")
			if end < 0 {
				continue
			}
			table = strings.Trim(strings.TrimSpace(line[1:end]), "[]")
			table = unquoteDotted(table)
			if strings.HasPrefix(line, "[[") { // an array of tables: name[i], i from 1
				arrays[table]++
				table = fmt.Sprintf("%s[%d]", table, arrays[table])
			}
			if _, ok := out[table]; !ok {
				out[table] = i + 1
			}
			continue
		}
		k, _, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key := unquoteDotted(strings.TrimSpace(k))
		if table != "" {
			key = table + "." + key
		}
		if _, seen := out[key]; !seen {
			out[key] = i + 1
		}
	}
	return out
}

func unquoteDotted(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// encodingFix is the fix for decoder errors that come from how the file
// was saved rather than from a value: CR-only line ends, a byte that is
// not UTF-8 (Latin-1), a NUL.
func encodingFix(msg string) (string, bool) {
	switch {
	case strings.Contains(msg, "'0x0d'"):
		return "the file's lines end in CR only (classic Mac): save it with LF (or CRLF) line ends", true
	case strings.Contains(msg, "invalid UTF-8"):
		return "the file is not UTF-8 (Latin-1?): save it as UTF-8", true
	case strings.Contains(msg, "'0x00'"):
		return "the file holds a NUL byte: remove it (is this a text file?)", true
	}
	return "", false
}

// QuotesLimit bounds a quotes file's size.
const QuotesLimit = 4 << 20

// LoadQuotes reads and parses a quotes file (.csv or .toml) and dates it
// today.
func LoadQuotes(path string, today time.Time) (*planner.Quotes, error) {
	src, err := safefile.Read(path, QuotesLimit)
	if err != nil {
		return nil, fmt.Errorf("open quotes: %w", err)
	}
	qs, err := quotes.Parse(path, src, planner.MaxPriceUSD)
	if err != nil {
		return nil, quotesContentError{err}
	}
	return &planner.Quotes{Path: path, Quotes: qs, Today: today}, nil
}
