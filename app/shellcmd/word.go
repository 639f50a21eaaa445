package shellcmd

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word returns w after quote removal, or its source text with Literal
// false when the shell would decide its value at run time.
func word(src string, w *syntax.Word) Word {
	var b strings.Builder
	var br braces
	for i, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			v, ok := unescapeLit(x.Value, i == 0, &br)
			if !ok || br.expands {
				return Word{Value: text(src, w)}
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if x.Dollar {
				return Word{Value: text(src, w)} // $'…' decodes escapes
			}
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			if x.Dollar {
				return Word{Value: text(src, w)} // $"…" is translated
			}
			for _, dp := range x.Parts {
				l, ok := dp.(*syntax.Lit)
				if !ok {
					return Word{Value: text(src, w)}
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return Word{Value: text(src, w)}
		}
	}
	return Word{Value: b.String(), Literal: true}
}

// braces follows the unquoted braces of a word across its parts: the shell
// expands {a,b} and {1..3}, not {} or {a}.
type braces struct {
	open, sep, expands bool
}

func (br *braces) see(s string, i int) {
	switch c := s[i]; {
	case c == '{':
		br.open, br.sep = true, false
	case br.open && (c == ',' || (c == '.' && i+1 < len(s) && s[i+1] == '.')):
		br.sep = true
	case br.open && br.sep && c == '}':
		br.expands = true
	}
}

// unescapeLit removes the backslashes of an unquoted literal. It reports
// false when the literal holds something the shell expands: an unquoted
// glob (* ? [) or a leading ~ (first part of a word); br follows braces.
func unescapeLit(s string, first bool, br *braces) (string, bool) {
	if first && strings.HasPrefix(s, "~") {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
		case c == '*' || c == '?' || (c == '[' && strings.IndexByte(s[i+1:], ']') >= 0):
			return "", false
		default:
			br.see(s, i)
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// unescapeDouble removes the backslashes that are special inside double
// quotes: before $, `, ", \ and a newline.
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
