package present

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
)

func TestVisible(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"ls /tmp \u202e; rm -rf ~ #\u202c":  "ls /tmp ⟨U+202E⟩; rm -rf ~ #⟨U+202C⟩",
		"a\u2066b\u2069c\u200fd\u061c":      "a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩d⟨U+061C⟩",
		"zero\u200bwidth\u200d\u2060\ufeff": "zero⟨U+200B⟩width⟨U+200D⟩⟨U+2060⟩⟨U+FEFF⟩",
		"soft\u00adhyphen":                  "soft⟨U+00AD⟩hyphen",
		"\x1b[2K\x1b[1Aok":                  "⟨U+001B⟩[2K⟨U+001B⟩[1Aok",
		"c1 \u009b31m":                      "c1 ⟨U+009B⟩31m",
		"bell\a del\x7f nul\x00 cr\r":       "bell⟨U+0007⟩ del⟨U+007F⟩ nul⟨U+0000⟩ cr⟨U+000D⟩",
		"line\u2028sep":                     "line⟨U+2028⟩sep",
		"tag\U000E0041":                     "tag⟨U+E0041⟩",
		"filler\u3164":                      "filler⟨U+3164⟩",
		"bad \xff byte":                     "bad ⟨0xFF⟩ byte",
		"tabs\tand\nnewlines stay":          "tabs\tand\nnewlines stay",
		"plain ünïcödé, emoji 🎉, 中文":        "plain ünïcödé, emoji 🎉, 中文",
	}
	for in, want := range cases {
		if got := Visible(in); got != want {
			t.Errorf("Visible(%q) = %q, want %q", in, got, want)
		}
		if HasInvisible(in) != (in != want) {
			t.Errorf("HasInvisible(%q) = %v", in, HasInvisible(in))
		}
	}
}

func TestCompact(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"ls" + strings.Repeat("\n", 40) + "rm -rf ~": "ls\n⟨39 empty lines⟩\nrm -rf ~",
		"a\n\nb":          "a\n\nb",
		"a\n\n\nb":        "a\n\n\nb",
		"a\n \n\t\n  \nb": "a\n⟨3 empty lines⟩\nb",
		"ls" + strings.Repeat(" ", 200) + "; rm -rf ~": "ls ⟨200 spaces⟩ ; rm -rf ~",
		"    indented   code":                          "    indented   code",
		"x" + strings.Repeat("\n", 10):                 "x\n⟨10 empty lines⟩",
	}
	for in, want := range cases {
		if got := Compact(in); got != want {
			t.Errorf("Compact(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVisibleCopyLeavesTheQuestionAlone(t *testing.T) {
	t.Parallel()
	q := question.Question{Kind: question.KindChoice, Header: "h\u202e", Message: "m\x1b[31m",
		Options: []question.Option{{Label: "a\u200b", Description: "d\u2066"}, {Label: "b"}},
		Client:  question.Client{Name: "c\u202e", Title: "t\u200f"}}
	s := VisibleCopy(q)
	if s.Header != "h⟨U+202E⟩" || s.Message != "m⟨U+001B⟩[31m" || s.Options[0].Label != "a⟨U+200B⟩" ||
		s.Options[0].Description != "d⟨U+2066⟩" || s.Options[1].Label != "b" || s.Client.Name != "c⟨U+202E⟩" || s.Client.Title != "t⟨U+200F⟩" {
		t.Fatalf("VisibleCopy: %+v", s)
	}
	if q.Options[0].Label != "a\u200b" || q.Header != "h\u202e" {
		t.Fatalf("VisibleCopy changed the original: %+v", q)
	}
}

func TestLineCount(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"ls": "", "ls\n": "", "a\nb": "2 lines", "a\n\n\nb\n": "4 lines"} {
		if got := LineCount(in); got != want {
			t.Errorf("LineCount(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzVisible: the result is valid UTF-8 with nothing invisible left, and
// text with nothing to mark is unchanged.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"ls \u202e; rm", "\x1b[31m", "plain", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := Visible(s)
		if !utf8.ValidString(v) || HasInvisible(v) {
			t.Fatalf("Visible(%q) = %q still has something invisible", s, v)
		}
		if !HasInvisible(s) && v != s {
			t.Fatalf("Visible(%q) = %q changed plain text", s, v)
		}
	})
}

func TestRiskLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q    question.Question
		want string
		warn bool
	}{
		{question.Question{Risk: question.RiskHigh, RiskWhy: "deletes files recursively, `rm -r`"}, "High risk: deletes files recursively, “rm -r”. Allow only if you expected this request.", true},
		{question.Question{Risk: question.RiskHigh}, "High risk: allow only if you expected this request.", true},
		{question.Question{Risk: question.RiskMedium, Destructive: true}, "High risk: allow only if you expected this request.", true},
		{question.Question{Risk: question.RiskLow, RiskWhy: "only reads"}, "Low risk: only reads.", false},
		{question.Question{Risk: question.RiskLow}, "Risk: low, as the agent grades it.", false},
		{question.Question{Risk: question.RiskMedium}, "", false},
		{question.Question{}, "", false},
		{question.Question{Risk: question.RiskHigh, RiskWhy: "x\u202e"}, "High risk: x⟨U+202E⟩. Allow only if you expected this request.", true},
	}
	for _, c := range cases {
		if got, warn := RiskLine(&c.q); got != c.want || warn != c.warn {
			t.Errorf("RiskLine(%+v) = %q %v, want %q %v", c.q, got, warn, c.want, c.warn)
		}
	}
}

func TestUnspan(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"deletes files recursively, `rm -rf`; runs as another user, `sudo`": "deletes files recursively, “rm -rf”; runs as another user, “sudo”",
		"no spans":       "no spans",
		"one ` unpaired": "one ` unpaired",
		"`a` and ` b":    "“a” and ` b",
		"``":             "“”",
	} {
		if got := Unspan(in); got != want {
			t.Errorf("Unspan(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRuleDecided(t *testing.T) {
	t.Parallel()
	q := question.Question{Kind: question.KindApproval, Client: question.Client{Name: "claude-code"}, Action: "Bash",
		Input: []byte(`{"command":"npm test\n  -- --ci \u202e"}`)}
	title, body := RuleDecided(&q, true, "r1", "commands starting `npm test` in /home/u/app")
	if title != "Allowed by your rule" || body != "claude-code: npm test -- --ci ⟨U+202E⟩\nRule r1: commands starting “npm test” in /home/u/app" {
		t.Fatalf("%q %q", title, body)
	}
	q = question.Question{Kind: question.KindApproval, Client: question.Client{Name: "codex"}, Action: "Edit", Input: []byte(`{"file_path":"/a/b.go"}`)}
	if title, body := RuleDecided(&q, false, "r2", "path /a/*"); title != "Denied by your rule" || body != "codex: /a/b.go\nRule r2: path /a/*" {
		t.Fatalf("%q %q", title, body)
	}
	q = question.Question{Kind: question.KindApproval, Action: "Deploy to staging"}
	if got := CommandOrPath(&q, 10); got != "Deploy to…" { // at most 10 characters, the mark one of them
		t.Fatalf("CommandOrPath = %q", got)
	}
}
