package policy

import (
	"regexp"
	"strings"
	"testing"
)

// globCases is shared by the table test and the fuzz seeds.
var globCases = []struct {
	pattern, name string
	want          bool
}{
	{"*", "", true},
	{"*", "claude-code", true},
	{"claude-code", "claude-code", true},
	{"claude-code", "Claude-Code", false},
	{"claude-code", "claude-code2", false},
	{"claude*", "claude-code", true},
	{"claude*", "claude", true},
	{"*code", "claude-code", true},
	{"*code", "claude-code-x", false},
	{"c?aude", "claude", true},
	{"c?aude", "caude", false},
	{"permission_prompt:*", "permission_prompt:Bash", true},
	{"permission_prompt:*", "permission_prompt", false},
	{"request_approval:Deploy *", "request_approval:Deploy to production", true},
	{"request_approval:Deploy *", "request_approval:Deployed", false},
	{`request_approval:Delete \*.log`, "request_approval:Delete *.log", true},
	{`request_approval:Delete \*.log`, "request_approval:Delete a.log", false},
	{`a\?`, "a?", true},
	{`a\?`, "ab", false},
	{`a\\b`, `a\b`, true},
	{`a\`, `a\`, false}, // malformed: matches nothing
	{"a*b*c", "aXbYc", true},
	{"a*b*c", "aXbY", false},
	{"a**b", "ab", true},
	{"*a*a*a*a*b", strings.Repeat("a", 40), false},
	{"?", "é", true},
	{"??", "é", false},
	{"*:Bash", "permission_prompt:Bash", true},
	{"", "", true},
	{"", "x", false},
}

func TestGlob(t *testing.T) {
	t.Parallel()
	for _, c := range globCases {
		if got := Glob(c.pattern, c.name); got != c.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func TestQuoteGlobMatchesExactly(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"plain", "Delete *.log", `a\b`, "what?", "*", ""} {
		q := QuoteGlob(s)
		if !IsLiteral(q) || !Glob(q, s) {
			t.Errorf("QuoteGlob(%q) = %q: literal %v, matches %v", s, q, IsLiteral(q), Glob(q, s))
		}
		if Glob(q, s+"x") {
			t.Errorf("QuoteGlob(%q) = %q also matches %q", s, q, s+"x")
		}
	}
}

// oracle translates pattern into an anchored regular expression.
func oracle(pattern string) (*regexp.Regexp, bool) {
	toks, err := parseGlob(pattern)
	if err != nil {
		return nil, false
	}
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	for _, t := range toks {
		switch {
		case t.star:
			b.WriteString(`.*`)
		case t.any:
			b.WriteString(`.`)
		default:
			b.WriteString(regexp.QuoteMeta(string(t.r)))
		}
	}
	b.WriteString(`\z`)
	return regexp.MustCompile(b.String()), true
}

// FuzzGlob checks the matcher against a regular-expression oracle.
func FuzzGlob(f *testing.F) {
	for _, c := range globCases {
		f.Add(c.pattern, c.name)
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 64 || len(name) > 256 {
			return
		}
		got := Glob(pattern, name)
		re, ok := oracle(pattern)
		if !ok {
			if got {
				t.Fatalf("malformed pattern %q matched %q", pattern, name)
			}
			return
		}
		if want := re.MatchString(name); got != want {
			t.Fatalf("Glob(%q, %q) = %v, oracle %v", pattern, name, got, want)
		}
		if IsLiteral(pattern) {
			toks, _ := parseGlob(pattern)
			var lit []rune
			for _, tk := range toks {
				lit = append(lit, tk.r)
			}
			if want := string(lit) == string([]rune(name)); got != want {
				t.Fatalf("literal Glob(%q, %q) = %v, want %v", pattern, name, got, want)
			}
		}
	})
}
