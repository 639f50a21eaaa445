package question

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Invisible reports whether r hides how a text reads wherever it is, so
// that every front end shows it as a marker and the risk grading counts it:
// C0 controls other than newline and tab, DEL and C1 controls (ANSI escapes
// start with ESC or U+009B), bidirectional controls, zero-width and other
// format characters (Unicode category Cf: U+200B–U+200F, U+2060–U+2064,
// U+FEFF, U+00AD, tag characters, …), line and paragraph separators, the
// Hangul fillers and the braille blank (U+2800) that render as blank
// letters, variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF: invisible
// themselves) and combining marks drawn over or around the letter before
// them (U+0336 strikes it through, U+0338 slashes it, U+20DD circles it).
// Hidden (and so Visible) also lets an emoji keep its U+FE0E or U+FE0F and
// marks letters of another script made to look Latin.
func Invisible(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r == 0x2028 || r == 0x2029 || r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0 || r == 0x2800:
		return true
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(overlays, r) || (unicode.Is(unicode.Me, r) && r != keycap)
}

// keycap (U+20E3) encloses a digit, # or * in a key ("1️⃣"); it is the one
// enclosing mark left as it is.
const keycap = 0x20e3

// overlays are the combining marks drawn through the letter before them.
var overlays = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x0334, Hi: 0x0338, Stride: 1}, {Lo: 0x20d2, Hi: 0x20d3, Stride: 1}, {Lo: 0x20d8, Hi: 0x20da, Stride: 1},
		{Lo: 0x20e5, Hi: 0x20e6, Stride: 1}, {Lo: 0x20ea, Hi: 0x20eb, Stride: 1},
	},
	R32: []unicode.Range32{{Lo: 0x10a39, Hi: 0x10a39, Stride: 1}, {Lo: 0x1bc9e, Hi: 0x1bc9e, Stride: 1}, {Lo: 0x1d167, Hi: 0x1d169, Stride: 1}},
}

// Marker is how a front end shows an invisible rune r: ⟨U+202E⟩.
func Marker(r rune) string { return fmt.Sprintf("⟨U+%04X⟩", r) }

// FirstHidden returns the first rune of s that Hidden reports, or a byte
// that is not UTF-8 (as utf8.RuneError), with its index; -1 when s has none.
func FirstHidden(s string) (rune, int) {
	r, i := rune(0), -1
	Hidden(s, func(j int, h rune) bool {
		r, i = h, j
		return false
	})
	return r, i
}

// Hidden calls yield, in order, with the index and rune of each rune of s
// that a front end shows as a marker, until yield returns false: an
// invisible one (see Invisible) other than a U+FE0E or U+FE0F after an
// emoji or before a keycap, each byte that is not UTF-8 (as
// utf8.RuneError), and each Cyrillic or Greek letter made to look Latin
// (see lookAlikeWord: "сurl" with a Cyrillic с, "gіthub.com",
// "аррӏе.com"). It does not block.
func Hidden(s string, yield func(i int, r rune) bool) {
	prev := rune(0)
	wordEnd, mark := -1, false // the end of the word last judged, and whether its letters are marked
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		hide := false
		switch {
		case r < utf8.RuneSelf && r >= 0x20 && r != 0x7f:
		case r == utf8.RuneError && n <= 1:
			hide = true
		case Invisible(r):
			hide = !emojiStyle(s, i, r, prev)
		case lookAlike(r):
			if i >= wordEnd {
				wordEnd, mark = lookAlikeWord(s, i)
			}
			hide = mark
		}
		if hide && !yield(i, r) {
			return
		}
		prev, i = r, i+n
	}
}

// emojiStyle reports whether the variation selector r at s[i:], after
// prev, only asks for an emoji's text or colour style: after a symbol that
// is no letter ("❤️", "✅️"), or before a keycap ("1️⃣").
func emojiStyle(s string, i int, r, prev rune) bool {
	if r != 0xfe0e && r != 0xfe0f {
		return false
	}
	if next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):]); next == keycap {
		return true
	}
	return prev >= 0xa9 && (unicode.IsSymbol(prev) || unicode.IsPunct(prev))
}

// lookAlike reports whether r is a letter of a script with letters that
// look Latin.
func lookAlike(r rune) bool {
	return unicode.In(r, unicode.Cyrillic, unicode.Greek) && unicode.IsLetter(r)
}

// lookAlikeWord judges the word (a run of letters, digits and marks) around
// s[i:], which holds a Cyrillic or Greek letter: its Cyrillic and Greek
// letters are marked when the text around it up to the next spaces (a
// command name, a path, a host) holds Latin letters, and the word itself
// either mixes in Latin letters ("gіthub") or is made only of letters that
// look Latin ("аррӏе" in "аррӏе.com"). Russian or Greek words, and a file
// name such as "привет.txt", are left as they are. It returns the word's end.
func lookAlikeWord(s string, i int) (end int, mark bool) {
	start := after(s[:i], notInWord)
	end = len(s)
	if j := strings.IndexFunc(s[i:], notInWord); j >= 0 {
		end = i + j
	}
	ts := after(s[:start], tokenEnd)
	te := len(s)
	if j := strings.IndexFunc(s[end:], tokenEnd); j >= 0 {
		te = end + j
	}
	if strings.IndexFunc(s[ts:te], latinLetter) < 0 {
		return end, false
	}
	word := s[start:end]
	if strings.IndexFunc(word, latinLetter) >= 0 {
		return end, true
	}
	return end, strings.IndexFunc(word, func(r rune) bool { return unicode.IsLetter(r) && !strings.ContainsRune(latinLike, r) }) < 0
}

// after returns the index just past the last rune of s that f reports, or 0.
func after(s string, f func(rune) bool) int {
	i := strings.LastIndexFunc(s, f)
	if i < 0 {
		return 0
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return i + n
}

// latinLike are the Cyrillic and Greek letters that look like Latin ones.
const latinLike = "авекмнорстухіјѕһԁӏԛԝүАВЕКМНОРСТУХІЈЅҺԚԜҮοανικρυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ"

func latinLetter(r rune) bool { return unicode.Is(unicode.Latin, r) && unicode.IsLetter(r) }

func notInWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) }

// tokenEnd reports whether r ends the text a word is judged in: a space,
// or a marker's bracket (so that "⟨U+202E⟩" next to Cyrillic text mixes
// nothing in).
func tokenEnd(r rune) bool { return unicode.IsSpace(r) || r == '⟨' || r == '⟩' }

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
