package policy

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Glob patterns, as rules use them for client names and action keys:
//   - '*' matches any run of characters, including none (and including ':');
//   - '?' matches exactly one character;
//   - '\' makes the next character literal ("\*" matches a star);
//   - every other character matches itself, case-sensitively.
//
// A pattern matches the whole name, not a part of it.

// errTrailingEscape is the one way a pattern can be malformed.
var errTrailingEscape = errors.New(`ends with an unfinished escape "\"`)

// globToken is one parsed element of a pattern: a literal rune, or a wildcard.
type globToken struct {
	r    rune
	star bool
	any  bool // '?'
}

// parseGlob splits pattern into tokens.
func parseGlob(pattern string) ([]globToken, error) {
	if !utf8.ValidString(pattern) {
		return nil, errors.New("not valid UTF-8")
	}
	var toks []globToken
	esc := false
	for _, r := range pattern {
		switch {
		case esc:
			toks = append(toks, globToken{r: r})
			esc = false
		case r == '\\':
			esc = true
		case r == '*':
			if len(toks) > 0 && toks[len(toks)-1].star {
				continue // "**" is "*"
			}
			toks = append(toks, globToken{star: true})
		case r == '?':
			toks = append(toks, globToken{any: true})
		default:
			toks = append(toks, globToken{r: r})
		}
	}
	if esc {
		return nil, errTrailingEscape
	}
	return toks, nil
}

// Glob reports whether name matches pattern. A malformed pattern matches
// nothing. It runs in time proportional to len(pattern)*len(name) at worst.
func Glob(pattern, name string) bool {
	toks, err := parseGlob(pattern)
	if err != nil {
		return false
	}
	return matchTokens(toks, []rune(name))
}

// matchTokens is the classic greedy wildcard match with one backtrack point:
// on a mismatch it lets the most recent '*' swallow one more rune.
func matchTokens(toks []globToken, name []rune) bool {
	ti, ni := 0, 0
	starT, starN := -1, 0
	for ni < len(name) {
		switch {
		case ti < len(toks) && toks[ti].star:
			starT, starN = ti, ni
			ti++
		case ti < len(toks) && (toks[ti].any || toks[ti].r == name[ni]):
			ti++
			ni++
		case starT >= 0:
			starN++
			ti, ni = starT+1, starN
		default:
			return false
		}
	}
	for ti < len(toks) && toks[ti].star {
		ti++
	}
	return ti == len(toks)
}

// specificity ranks a pattern: an exact pattern (no wildcard) ranks above
// every pattern with one; then more literal characters rank higher; then
// fewer wildcards. Compare two with cmpSpecificity.
type specificity struct {
	exact     bool
	literals  int
	wildcards int
}

func specificityOf(pattern string) specificity {
	toks, err := parseGlob(pattern)
	if err != nil {
		return specificity{}
	}
	var s specificity
	for _, t := range toks {
		if t.star || t.any {
			s.wildcards++
		} else {
			s.literals++
		}
	}
	s.exact = s.wildcards == 0
	return s
}

// cmpSpecificity returns -1, 0 or +1 as a is less, as, or more specific than b.
func cmpSpecificity(a, b specificity) int {
	switch {
	case a.exact != b.exact:
		if a.exact {
			return 1
		}
		return -1
	case a.literals != b.literals:
		if a.literals > b.literals {
			return 1
		}
		return -1
	case a.wildcards != b.wildcards:
		if a.wildcards < b.wildcards {
			return 1
		}
		return -1
	}
	return 0
}

// IsLiteral reports whether pattern has no wildcard, so that it matches
// exactly one name.
func IsLiteral(pattern string) bool {
	toks, err := parseGlob(pattern)
	if err != nil {
		return false
	}
	for _, t := range toks {
		if t.star || t.any {
			return false
		}
	}
	return true
}

// QuoteGlob returns a pattern that matches exactly s: it escapes '*', '?'
// and '\'.
func QuoteGlob(s string) string {
	if !strings.ContainsAny(s, `*?\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '*' || r == '?' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
