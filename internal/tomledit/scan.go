// Package tomledit edits a TOML document in place, key by key: comments,
// blank lines, key order, number spelling and the tables the user wrote
// stay as they are; only the values set change, new keys go into their
// table and deleted keys leave with their line. It locates keys with a
// scanner that understands comments, basic, literal and multi-line
// strings, arrays over several lines, inline tables and arrays of tables;
// values are parsed elsewhere (BurntSushi/toml), and a caller checks the
// result decodes as intended.
package tomledit

import (
	"errors"
	"fmt"
	"strings"
)

// entry is one key = value of the document.
type entry struct {
	path      []string // the key's full path: table, then the key's parts
	base      []string // the path of the table or inline table it is written in
	indent    string   // the whitespace before a line entry's key
	lineStart int      // a line entry's first byte (its indentation)
	lineEnd   int      // just past a line entry's newline (or the end)
	valStart  int      // the value's first byte
	valEnd    int      // just past the value
	inline    bool     // a member of an inline table
	array     bool     // inside an array of tables: never edited
}

// section is one [table] or [[array of tables]] header and the lines up to
// the next header; the root section has no header.
type section struct {
	path        []string
	array       bool
	headerStart int // -1 for the root
	headerEnd   int // just past the header line's newline
	end         int // where the next header line starts, or the end
}

// layout is what the scanner found.
type layout struct {
	entries  []entry
	sections []section
}

// errSyntax is returned for text the scanner does not understand; the
// caller then writes the document afresh.
var errSyntax = errors.New("tomledit: unexpected syntax")

type scanner struct {
	src     []byte
	i       int
	out     layout
	section int // index into out.sections
}

// scan finds every key, its value span and every table header of src.
func scan(src []byte) (*layout, error) {
	sc := &scanner{src: src}
	if strings.HasPrefix(string(src[:min(3, len(src))]), "\uFEFF") {
		sc.i = 3 // a UTF-8 byte order mark, as some editors write
	}
	sc.out.sections = []section{{headerStart: -1, end: len(src)}}
	for sc.i < len(src) {
		if err := sc.line(); err != nil {
			return nil, fmt.Errorf("%w at byte %d: %v", errSyntax, sc.i, err)
		}
	}
	return &sc.out, nil
}

// line reads one logical line: blank, comment, header or key = value.
func (sc *scanner) line() error {
	start := sc.i
	sc.skipSpace()
	switch sc.peek() {
	case '\n', '\r', '#', 0:
		return sc.endLine()
	case '[':
		return sc.header(start)
	}
	indent := string(sc.src[start:sc.i])
	cur := sc.out.sections[sc.section]
	key, err := sc.key()
	if err != nil {
		return err
	}
	if !sc.eat('=') {
		return errors.New("missing =")
	}
	sc.skipSpace()
	path := append(append([]string{}, cur.path...), key...)
	e := entry{path: path, base: cur.path, indent: indent, lineStart: start, valStart: sc.i, array: cur.array}
	if err := sc.value(path, cur.array); err != nil {
		return err
	}
	e.valEnd = sc.i
	if err := sc.endLine(); err != nil {
		return err
	}
	e.lineEnd = sc.i
	sc.out.entries = append(sc.out.entries, e)
	return nil
}

// header reads [a.b] or [[a.b]] and opens its section.
func (sc *scanner) header(start int) error {
	sc.i++
	array := sc.eat('[')
	sc.skipSpace()
	key, err := sc.key()
	if err != nil {
		return err
	}
	if !sc.eat(']') || array && !sc.eat(']') {
		return errors.New("unclosed table header")
	}
	if err := sc.endLine(); err != nil {
		return err
	}
	sc.out.sections[sc.section].end = start
	sc.out.sections = append(sc.out.sections, section{path: key, array: array, headerStart: start, headerEnd: sc.i, end: len(sc.src)})
	sc.section = len(sc.out.sections) - 1
	return nil
}

// endLine skips spaces and a comment up to and past the newline.
func (sc *scanner) endLine() error {
	sc.skipSpace()
	if sc.peek() == '#' {
		for sc.i < len(sc.src) && sc.src[sc.i] != '\n' {
			sc.i++
		}
	}
	switch {
	case sc.i >= len(sc.src):
		return nil
	case sc.src[sc.i] == '\n':
		sc.i++
		return nil
	case sc.src[sc.i] == '\r' && sc.i+1 < len(sc.src) && sc.src[sc.i+1] == '\n':
		sc.i += 2
		return nil
	}
	return fmt.Errorf("unexpected %q after a value", sc.src[sc.i])
}

// key reads a dotted key (bare, "basic" or 'literal' parts).
func (sc *scanner) key() ([]string, error) {
	var parts []string
	for {
		sc.skipSpace()
		part, err := sc.keyPart()
		if err != nil {
			return nil, err
		}
		parts = append(parts, part)
		sc.skipSpace()
		if !sc.eat('.') {
			return parts, nil
		}
	}
}

func (sc *scanner) keyPart() (string, error) {
	switch sc.peek() {
	case '"':
		start := sc.i
		if err := sc.basicString(); err != nil {
			return "", err
		}
		return unquoteBasic(string(sc.src[start+1 : sc.i-1]))
	case '\'':
		start := sc.i
		sc.i++
		for sc.i < len(sc.src) && sc.src[sc.i] != '\'' && sc.src[sc.i] != '\n' {
			sc.i++
		}
		if !sc.eat('\'') {
			return "", errors.New("unclosed literal key")
		}
		return string(sc.src[start+1 : sc.i-1]), nil
	}
	start := sc.i
	for sc.i < len(sc.src) && isBare(sc.src[sc.i]) {
		sc.i++
	}
	if sc.i == start {
		return "", errors.New("empty key")
	}
	return string(sc.src[start:sc.i]), nil
}

func isBare(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value skips one value; members of an inline table become entries under
// path.
func (sc *scanner) value(path []string, array bool) error {
	switch sc.peek() {
	case '"':
		if sc.has(`"""`) {
			return sc.multiline('"')
		}
		return sc.basicString()
	case '\'':
		if sc.has(`'''`) {
			return sc.multiline('\'')
		}
		sc.i++
		for sc.i < len(sc.src) && sc.src[sc.i] != '\'' && sc.src[sc.i] != '\n' {
			sc.i++
		}
		if !sc.eat('\'') {
			return errors.New("unclosed literal string")
		}
		return nil
	case '[':
		return sc.arrayValue()
	case '{':
		return sc.inlineTable(path, array)
	}
	return sc.scalar()
}

// scalar skips a number, boolean or date-time.
func (sc *scanner) scalar() error {
	start := sc.i
	for sc.i < len(sc.src) {
		c := sc.src[sc.i]
		if c == ' ' && isDate(sc.src[start:sc.i]) && sc.i+1 < len(sc.src) && isDigit(sc.src[sc.i+1]) {
			sc.i++ // "1979-05-27 07:32:00": a space between date and time
			continue
		}
		if c == ' ' || c == '\t' || c == ',' || c == ']' || c == '}' || c == '#' || c == '\n' || c == '\r' {
			break
		}
		sc.i++
	}
	if sc.i == start {
		return errors.New("missing value")
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isDate(b []byte) bool {
	return len(b) == 10 && b[4] == '-' && b[7] == '-' && isDigit(b[0]) && isDigit(b[9])
}

// basicString skips "..." with its escapes.
func (sc *scanner) basicString() error {
	sc.i++
	for sc.i < len(sc.src) {
		switch sc.src[sc.i] {
		case '\\':
			sc.i += 2
			continue
		case '"':
			sc.i++
			return nil
		case '\n':
			return errors.New("newline in a string")
		}
		sc.i++
	}
	return errors.New("unclosed string")
}

// multiline skips """...""" or ”'...”' (up to two quotes may end the
// content just before the closing three).
func (sc *scanner) multiline(q byte) error {
	sc.i += 3
	for sc.i < len(sc.src) {
		c := sc.src[sc.i]
		if q == '"' && c == '\\' {
			sc.i += 2
			continue
		}
		if c == q && sc.has(strings.Repeat(string(q), 3)) {
			sc.i += 3
			for n := 0; n < 2 && sc.peek() == q; n++ {
				sc.i++
			}
			return nil
		}
		sc.i++
	}
	return errors.New("unclosed multi-line string")
}

// arrayValue skips [ ... ] over lines, with comments between values.
func (sc *scanner) arrayValue() error {
	sc.i++
	for {
		sc.skipBlank()
		if sc.eat(']') {
			return nil
		}
		if err := sc.value(nil, true); err != nil {
			return err
		}
		sc.skipBlank()
		if sc.eat(']') {
			return nil
		}
		if !sc.eat(',') {
			return errors.New("missing , in an array")
		}
	}
}

// inlineTable reads { k = v, ... }, recording each member under path.
func (sc *scanner) inlineTable(path []string, array bool) error {
	sc.i++
	for {
		sc.skipBlank()
		if sc.eat('}') {
			return nil
		}
		key, err := sc.key()
		if err != nil {
			return err
		}
		if !sc.eat('=') {
			return errors.New("missing = in an inline table")
		}
		sc.skipSpace()
		full := append(append([]string{}, path...), key...)
		e := entry{path: full, base: path, valStart: sc.i, inline: true, array: array || path == nil}
		if err := sc.value(full, e.array); err != nil {
			return err
		}
		e.valEnd = sc.i
		sc.out.entries = append(sc.out.entries, e)
		sc.skipBlank()
		if sc.eat('}') {
			return nil
		}
		if !sc.eat(',') {
			return errors.New("missing , in an inline table")
		}
	}
}

func (sc *scanner) peek() byte {
	if sc.i < len(sc.src) {
		return sc.src[sc.i]
	}
	return 0
}

func (sc *scanner) has(s string) bool {
	return strings.HasPrefix(string(sc.src[sc.i:min(sc.i+len(s), len(sc.src))]), s)
}

func (sc *scanner) eat(c byte) bool {
	if sc.peek() == c {
		sc.i++
		return true
	}
	return false
}

func (sc *scanner) skipSpace() {
	for sc.i < len(sc.src) && (sc.src[sc.i] == ' ' || sc.src[sc.i] == '\t') {
		sc.i++
	}
}

// skipBlank skips spaces, newlines and comments (inside arrays and
// inline tables).
func (sc *scanner) skipBlank() {
	for sc.i < len(sc.src) {
		switch sc.src[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		case '#':
			for sc.i < len(sc.src) && sc.src[sc.i] != '\n' {
				sc.i++
			}
		default:
			return
		}
	}
}
