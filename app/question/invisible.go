package question

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Invisible reports whether r hides how a text reads, so that every front
// end shows it as a marker and the risk grading counts it: C0 controls
// other than newline and tab, DEL and C1 controls (ANSI escapes start with
// ESC or U+009B), bidirectional controls, zero-width and other format
// characters (Unicode category Cf: U+200B–U+200F, U+2060–U+2064, U+FEFF,
// U+00AD, tag characters, …), line and paragraph separators, and the
// Hangul fillers that render as blank letters.
func Invisible(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r == 0x2028 || r == 0x2029 || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// Marker is how a front end shows an invisible rune r: ⟨U+202E⟩.
func Marker(r rune) string { return fmt.Sprintf("⟨U+%04X⟩", r) }

// FirstHidden returns the first invisible rune in s, or a byte that is not
// UTF-8 (as utf8.RuneError), with its index; -1 when s has none.
func FirstHidden(s string) (rune, int) {
	i := strings.IndexFunc(s, func(r rune) bool { return r == utf8.RuneError || Invisible(r) })
	if i < 0 {
		return 0, -1
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r, i
}

// EscapeJSON returns the JSON text js with every invisible rune (see
// Invisible: C1 controls such as U+009B, which encoding/json leaves raw,
// DEL, bidirectional and zero-width characters) written as a \uXXXX escape,
// so that JSON printed to a terminal reads the same and still decodes to the
// same value. Valid JSON holds such runes only inside strings, where an
// escape means the rune itself; js must be JSON as encoding/json writes it
// (no carriage return between tokens). It does not block.
func EscapeJSON(js []byte) []byte {
	i := bytes.IndexFunc(js, Invisible)
	if i < 0 {
		return js
	}
	out := make([]byte, 0, len(js)+32)
	out = append(out, js[:i]...)
	for rest := js[i:]; len(rest) > 0; {
		r, n := utf8.DecodeRune(rest)
		switch {
		case !Invisible(r):
			out = append(out, rest[:n]...)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		rest = rest[n:]
	}
	return out
}
