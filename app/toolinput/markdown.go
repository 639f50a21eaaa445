package toolinput

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/asktray/asktray/app/ellipsis"
)

// item is one key of an input and its value.
type item struct {
	key   string
	value any
}

// others lists the keys of in not marked in shown, sorted.
func others(in map[string]any, shown map[string]bool) []item {
	var out []item
	for k, v := range in {
		if !shown[k] {
			out = append(out, item{k, v})
		}
	}
	slices.SortFunc(out, func(a, b item) int { return strings.Compare(a.key, b.key) })
	return out
}

// inlineMax is the longest value shown inline in the key: value list;
// longer values, and values over several lines, are folded into a block.
const inlineMax = 120

// listOthers shows items under title: short values as a compact
// "key: value" list, longer ones folded into their own block below it, cut
// beyond lim characters with a note of how much more there is.
func listOthers(title string, items []item, lim int) string {
	var short, long []string
	for _, it := range items {
		key := codeSpan(cutShown(it.key, 200))
		inline := compactJSON(it.value)
		if !strings.Contains(inline, "\n") && utf8.RuneCountInString(inline) <= inlineMax {
			if riskyKey(it.key) && inline != "false" && inline != "null" {
				// Set apart: it changes what runs.
				short = append(short, "- **⚠ "+key+": "+codeSpan(inline)+"** (changes what runs)")
				continue
			}
			short = append(short, "- "+key+": "+codeSpan(inline))
			continue
		}
		if s, ok := it.value.(string); ok {
			long = append(long, fmt.Sprintf("%s (text, %d characters):\n\n%s", key, utf8.RuneCountInString(s), fence("", s, lim)))
		} else {
			long = append(long, key+":\n\n"+fence("json", indentJSON(it.value), lim))
		}
	}
	parts := []string{title}
	if len(short) > 0 {
		parts = append(parts, strings.Join(short, "\n"))
	}
	return strings.Join(append(parts, long...), "\n\n")
}

// fit joins a renderer's blocks and the list of the keys it did not show
// into at most MaxDetails characters. The list comes first in the budget:
// its long values are cut shorter until it takes at most half, then the
// rendered blocks fill what is left, and blocks that do not fit are
// replaced by a note saying how many were left out.
func fit(blocks []string, rest []item) string {
	title := "**Also in this request:**"
	if len(blocks) == 0 {
		title = "**Input** (too long to show as JSON):"
	}
	most := MaxDetails / 2
	if len(blocks) == 0 {
		most = MaxDetails - 2
	}
	var extra string
	if len(rest) > 0 {
		for lim := MaxShown; ; lim /= 2 {
			extra = listOthers(title, rest, lim)
			if utf8.RuneCountInString(extra) <= most || lim < 100 {
				break
			}
		}
	}
	const note = 120 // room kept for the note about left-out blocks
	room := MaxDetails - utf8.RuneCountInString(extra) - 2 - note
	var out []string
	used := 0
	for i, b := range blocks {
		n := utf8.RuneCountInString(b) + 2
		if used+n > room {
			out = append(out, fmt.Sprintf("… (%d more parts of the request not shown: it is too long to show in full)", len(blocks)-i)+cutMark)
			break
		}
		used += n
		out = append(out, b)
	}
	if extra != "" {
		out = append(out, extra)
	}
	return cutShown(strings.Join(out, "\n\n"), MaxDetails)
}

// compactJSON is v as one-line JSON, with &, < and > as they are.
func compactJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// cutMark marks where a rendering leaves part of the input out. It is a
// byte that is not UTF-8, so no string decoded from JSON holds it; finish
// counts and removes it (Rendered.Cut).
const cutMark = "\xff"

// cutShown cuts a part of the input to at most n characters, ending with …
// (ellipsis.Cut), and marks the cut (cutMark) so the rendering records it.
func cutShown(s string, n int) string {
	if c := ellipsis.Cut(s, n); c != s {
		return c + cutMark
	}
	return s
}

// runeIndex is the byte index of s's n-th character (a byte that is not
// UTF-8 counts as one), or len(s).
func runeIndex(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

// fence puts s in a fenced code block longer than any backtick run in it,
// cutting s beyond lim characters with a note of how many are not shown.
func fence(lang, s string, lim int) string {
	if n := utf8.RuneCountInString(s); n > lim {
		s = s[:runeIndex(s, lim)] + fmt.Sprintf("\n… (%d more characters not shown)", n-lim) + cutMark
	}
	ticks := max(3, longestRun(s, '`')+1)
	f := strings.Repeat("`", ticks)
	return f + lang + "\n" + s + "\n" + f
}

// finish is r with its cut marks removed, Cut set when there was one.
func finish(r Rendered) Rendered {
	if strings.Contains(r.Details, cutMark) {
		r.Cut = true
		r.Details = strings.ReplaceAll(r.Details, cutMark, "")
	}
	return r
}

// codeSpan puts s in an inline code span that its own backticks cannot end.
func codeSpan(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	f := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return f + " " + s + " " + f
	}
	return f + s + f
}

func longestRun(s string, c rune) int {
	best, n := 0, 0
	for _, r := range s {
		if r == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
