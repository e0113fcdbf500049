package tomledit

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Doc is a TOML document being edited.
type Doc struct {
	src []byte
	nl  string // the document's line ending
}

// New starts editing src, which must be a TOML document that parses.
func New(src []byte) (*Doc, error) {
	if _, err := scan(src); err != nil {
		return nil, err
	}
	nl := "\n"
	if bytes.Contains(src, []byte("\r\n")) {
		nl = "\r\n"
	}
	return &Doc{src: slices.Clone(src), nl: nl}, nil
}

// Bytes is the document as edited.
func (d *Doc) Bytes() []byte { return slices.Clone(d.src) }

// Has reports whether the document writes key (in a table or inline
// table, not an array of tables).
func (d *Doc) Has(key []string) bool {
	l, err := scan(d.src)
	if err != nil {
		return false
	}
	_, ok := find(l, key)
	return ok
}

func find(l *layout, key []string) (entry, bool) {
	for _, e := range l.entries {
		if !e.array && slices.Equal(e.path, key) {
			return e, true
		}
	}
	return entry{}, false
}

// Set gives key the value v (a Go value as BurntSushi/toml decodes into
// an interface: string, int64, float64, bool, []any or map[string]any):
// an existing value is replaced where it stands, a new key goes after
// its siblings, else into its table, else into a new table at the end.
func (d *Doc) Set(key []string, v any) error {
	text, err := Value(v)
	if err != nil {
		return err
	}
	l, err := scan(d.src)
	if err != nil {
		return err
	}
	if e, ok := find(l, key); ok {
		d.splice(e.valStart, e.valEnd, text)
		return nil
	}
	for _, s := range l.sections {
		if s.array && hasPrefix(key, s.path) {
			return fmt.Errorf("tomledit: %s is an array of tables; its keys are not edited", Key(s.path))
		}
	}
	d.insert(l, key, text)
	return nil
}

// Delete removes key and its line (or its place in an inline table); a
// key the document does not write is no error. When the table it was in
// holds nothing more, its header goes too.
func (d *Doc) Delete(key []string) error {
	l, err := scan(d.src)
	if err != nil {
		return err
	}
	e, ok := find(l, key)
	if !ok {
		return nil
	}
	if e.inline {
		d.deleteInline(e)
	} else {
		d.splice(e.lineStart, e.lineEnd, "")
	}
	return d.dropEmptyTable(e.base)
}

// dropEmptyTable removes the header [path] when no key is left in it or
// below it.
func (d *Doc) dropEmptyTable(path []string) error {
	if len(path) == 0 {
		return nil
	}
	l, err := scan(d.src)
	if err != nil {
		return err
	}
	for _, e := range l.entries {
		if hasPrefix(e.path, path) {
			return nil
		}
	}
	for _, s := range l.sections {
		if !s.array && s.headerStart >= 0 && slices.Equal(s.path, path) {
			d.splice(s.headerStart, s.headerEnd, "")
			return nil
		}
	}
	return nil
}

func (d *Doc) splice(start, end int, text string) {
	d.src = slices.Concat(d.src[:start:start], []byte(text), d.src[end:])
}

// deleteInline removes a member of an inline table with one comma.
func (d *Doc) deleteInline(e entry) {
	start, end := e.valStart, e.valEnd
	// Back to the member's key: the last '{' or ',' before it.
	for start > 0 && d.src[start-1] != '{' && d.src[start-1] != ',' {
		start--
	}
	rest := end
	for rest < len(d.src) && (d.src[rest] == ' ' || d.src[rest] == '\t') {
		rest++
	}
	switch {
	case rest < len(d.src) && d.src[rest] == ',':
		end = rest + 1 // "a = 1, b = 2" -> " b = 2"
	case d.src[start-1] == ',':
		start-- // "a = 1, b = 2" -> "a = 1"
	}
	d.splice(start, end, "")
}

// insert adds key = text where it belongs (see Set).
func (d *Doc) insert(l *layout, key []string, text string) {
	parent := key[:len(key)-1]
	// Siblings: entries of the same parent; the new key follows the last.
	var sib *entry
	for i := range l.entries {
		e := &l.entries[i]
		if !e.array && slices.Equal(e.path[:len(e.path)-1], parent) && hasPrefix(parent, e.base) {
			sib = e
		}
	}
	if sib != nil {
		d.insertAfter(*sib, key, text)
		return
	}
	// The deepest table, or line entry, on the key's way: a header
	// [parent] or an ancestor, or a dotted key sharing a prefix.
	bestLen, at, base, indent := -1, 0, []string(nil), ""
	for _, s := range l.sections {
		if !s.array && hasPrefix(parent, s.path) && (s.headerStart >= 0 || len(parent) == 0) && len(s.path) >= bestLen {
			bestLen, at, base, indent = len(s.path), d.sectionEnd(l, s), s.path, ""
		}
	}
	for _, e := range l.entries {
		if e.array || e.inline || !hasPrefix(parent, e.base) {
			continue
		}
		if n := commonPrefix(e.path, key); n > len(e.base) && n > bestLen {
			bestLen, at, base, indent = n, e.lineEnd, e.base, e.indent
		}
	}
	if bestLen < 0 || bestLen == 0 && len(parent) > 0 {
		// No table on the way: a new one at the end.
		var b strings.Builder
		if len(d.src) > 0 && !bytes.HasSuffix(d.src, []byte("\n")) {
			b.WriteString(d.nl)
		}
		if len(d.src) > 0 {
			b.WriteString(d.nl)
		}
		b.WriteString("[" + Key(parent) + "]" + d.nl + Key(key[len(parent):]) + " = " + text + d.nl)
		d.splice(len(d.src), len(d.src), b.String())
		return
	}
	line := indent + Key(key[len(base):]) + " = " + text + d.nl
	if at > 0 && d.src[at-1] != '\n' {
		line = d.nl + line // the last line had no newline
	}
	d.splice(at, at, line)
}

// insertAfter puts key = text after its sibling e: a line below it, or
// the next member of its inline table.
func (d *Doc) insertAfter(e entry, key []string, text string) {
	rel := Key(key[len(e.base):])
	if e.inline {
		d.splice(e.valEnd, e.valEnd, ", "+rel+" = "+text)
		return
	}
	line := e.indent + rel + " = " + text + d.nl
	at := e.lineEnd
	if at > 0 && d.src[at-1] != '\n' {
		line = d.nl + line
	}
	d.splice(at, at, line)
}

// sectionEnd is where a new key of section s goes: after its last line
// entry, else after its header (the root: after its leading comments).
func (d *Doc) sectionEnd(l *layout, s section) int {
	at := s.headerEnd
	if s.headerStart < 0 {
		at = leadingComments(d.src[:s.end])
	}
	for _, e := range l.entries {
		if !e.inline && e.lineStart >= at && e.lineEnd <= s.end {
			at = max(at, e.lineEnd)
		}
	}
	return at
}

// leadingComments is the length of the comment and blank lines at the
// start of src.
func leadingComments(src []byte) int {
	end := 0
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		end = 3
	}
	for end < len(src) {
		j := bytes.IndexByte(src[end:], '\n')
		line := src[end:]
		if j >= 0 {
			line = src[end : end+j+1]
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			return end
		}
		end += len(line)
	}
	return end
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Key writes a dotted key, quoting the parts that are not bare.
func Key(parts []string) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p
		if p == "" || strings.IndexFunc(p, func(r rune) bool { return r > 127 || !isBare(byte(r)) }) >= 0 {
			out[i] = basicString(p)
		}
	}
	return strings.Join(out, ".")
}

// Value writes v as TOML text.
func Value(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return basicString(v), nil
	case bool:
		return strconv.FormatBool(v), nil
	case int64:
		return strconv.FormatInt(v, 10), nil
	case int:
		return strconv.Itoa(v), nil
	case float64:
		return floatText(v), nil
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			s, err := Value(x)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case []map[string]any:
		parts := make([]any, len(v))
		for i, m := range v {
			parts[i] = m
		}
		return Value(parts)
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			s, err := Value(v[k])
			if err != nil {
				return "", err
			}
			parts[i] = Key([]string{k}) + " = " + s
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	}
	return "", fmt.Errorf("tomledit: cannot write a %T", v)
}

// floatText writes a float so it reads back as a float.
func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// basicString writes s as a TOML basic string.
func basicString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f || r == utf8.RuneError:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// unquoteBasic reads the escapes of a basic string's content.
func unquoteBasic(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case '"', '\\':
			b.WriteByte(s[i])
		case 'u', 'U', 'x':
			n := map[byte]int{'u': 4, 'U': 8, 'x': 2}[s[i]]
			if i+n >= len(s) {
				return "", errSyntax
			}
			r, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", errSyntax
			}
			b.WriteRune(rune(r))
			i += n
		default:
			return "", errSyntax
		}
	}
	return b.String(), nil
}
