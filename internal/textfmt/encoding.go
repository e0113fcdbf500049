package textfmt

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Byte-order marks that start a text file and name its encoding.
var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// sniffBytes is how much of a file without a byte-order mark is looked
// at to tell UTF-16 by its NUL bytes: a header row or a first table is
// well within it.
const sniffBytes = 512

// Encoding names the encoding of the text src as a user would know it:
// "UTF-8 with a byte-order mark", "UTF-16LE" or "UTF-16BE" (with a
// byte-order mark, or without one when the NUL bytes of ASCII text in
// UTF-16 fall on every other byte), or "" for plain UTF-8 and anything
// else (the caller's decoder then reports what it finds).
func Encoding(src []byte) string {
	switch {
	case bytes.HasPrefix(src, bomUTF8):
		return "UTF-8 with a byte-order mark"
	case bytes.HasPrefix(src, bomUTF16LE):
		return "UTF-16LE"
	case bytes.HasPrefix(src, bomUTF16BE):
		return "UTF-16BE"
	}
	head := src[:min(len(src), sniffBytes)&^1]
	var even, odd int // NUL bytes at even and odd offsets
	for i, b := range head {
		if b == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	pairs := len(head) / 2
	switch {
	case pairs == 0:
		return ""
	case odd*2 > pairs && even == 0:
		return "UTF-16LE"
	case even*2 > pairs && odd == 0:
		return "UTF-16BE"
	}
	return ""
}

// UTF8 returns the text src as UTF-8: a UTF-8 byte-order mark dropped,
// UTF-16 (see Encoding) decoded, anything else as it is. An error says
// why UTF-16 could not be decoded (an odd number of bytes, a lone
// surrogate).
func UTF8(src []byte) ([]byte, error) {
	enc := Encoding(src)
	switch enc {
	case "UTF-8 with a byte-order mark":
		return src[len(bomUTF8):], nil
	case "UTF-16LE", "UTF-16BE":
	default:
		return src, nil
	}
	big := enc == "UTF-16BE"
	body := src
	if bytes.HasPrefix(src, bomUTF16LE) || bytes.HasPrefix(src, bomUTF16BE) {
		body = src[2:]
	}
	if len(body)%2 != 0 {
		return nil, fmt.Errorf("the file is %s text with an odd number of bytes (cut short?); save it again as UTF-8", enc)
	}
	unit := func(i int) rune {
		if big {
			return rune(body[2*i])<<8 | rune(body[2*i+1])
		}
		return rune(body[2*i+1])<<8 | rune(body[2*i])
	}
	n := len(body) / 2
	out := make([]byte, 0, n)
	for i := 0; i < n; i++ { // by hand: utf16.Decode hides a lone surrogate as U+FFFD
		r := unit(i)
		if utf16.IsSurrogate(r) {
			if i+1 < n {
				r = utf16.DecodeRune(r, unit(i+1))
			}
			if i+1 >= n || r == unicode.ReplacementChar {
				return nil, fmt.Errorf("the file is %s text with a broken character (a lone surrogate) at byte %d; save it again as UTF-8", enc, 2*i)
			}
			i++
		}
		out = utf8.AppendRune(out, r)
	}
	return out, nil
}

// invisibleNames names the invisible characters most often pasted into
// a key by accident: from web pages, chat and word processors.
var invisibleNames = map[rune]string{
	'\u00A0': "no-break space",
	'\u00AD': "soft hyphen",
	'\u200B': "zero width space",
	'\u200C': "zero width non-joiner",
	'\u200D': "zero width joiner",
	'\u200E': "left-to-right mark",
	'\u200F': "right-to-left mark",
	'\u2060': "word joiner",
	'\uFEFF': "zero width no-break space",
}

// Invisible returns the first character of s that shows as nothing or as
// a plain space: a Unicode format character (category Cf: zero-width
// spaces and joiners, direction marks, the byte-order mark), a space
// other than U+0020, or a control character other than tab; ok false
// when there is none.
func Invisible(s string) (r rune, ok bool) {
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) || (unicode.IsSpace(r) && r != ' ' && r != '\t' && r != '\n' && r != '\r') ||
			(unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r') || r == '\u00A0' {
			return r, true
		}
	}
	return 0, false
}

// InvisibleWords names an invisible character for a message: "an
// invisible U+200B (zero width space)".
func InvisibleWords(r rune) string {
	if name, ok := invisibleNames[r]; ok {
		return fmt.Sprintf("an invisible U+%04X (%s)", r, name)
	}
	return fmt.Sprintf("an invisible U+%04X", r)
}
