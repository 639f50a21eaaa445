package present

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyStandardLibraryAndQuestion keeps the shared presentation
// free of Fyne, HTML front ends and everything else outside the standard
// library but the question model and the tool-input wording.
func TestImportsOnlyStandardLibraryAndQuestion(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/asktray/asktray/app/question", "github.com/asktray/asktray/app/toolinput",
		"github.com/asktray/asktray/app/ellipsis")
}

func TestClientLine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   question.Client
		want string
	}{
		{question.Client{Name: "claude-code"}, "claude-code"},
		{question.Client{Name: "claude-code", Version: "2.1.3", SessionID: "4f2a9c1e-77b0-4d55-9a1c-0c5e7d2f1b3a"}, "claude-code 2.1.3  ·  session 4f2a9c1e…"},
		{question.Client{Name: "cc", Title: "Claude Code", Version: "1"}, "Claude Code (cc) 1"},
		{question.Client{Name: "codex", SessionID: "mcp-session-abc"}, "codex  ·  session abc"},
	} {
		if got := ClientLine(c.in); got != c.want {
			t.Errorf("ClientLine(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestShortSession(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"mcp-session-3f2a9c1e-77b0": "3f2a9c1e…", "sess_8d1b77c2a9": "8d1b77c2…",
		"4f2a9c1e-77b0-4d55": "4f2a9c1e…", "abc": "abc", "session-": "session-", "123456789": "123456789",
	} {
		if got := ShortSession(in); got != want {
			t.Errorf("ShortSession(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTimeLeft(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		0: "time is up", -time.Second: "time is up", 1500 * time.Millisecond: "0:02 left",
		299 * time.Second: "4:59 left", 90 * time.Minute: "1 h 30 min left",
	} {
		if got := TimeLeft(d); got != want {
			t.Errorf("TimeLeft(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ got, want string }{
		{LabelOr("", "Yes"), "Yes"}, {LabelOr("Ship it", "Yes"), "Ship it"},
		{CountNoun(1, "character"), "1 character"}, {CountNoun(0, "character"), "0 characters"}, {CountNoun(3, "pick"), "3 picks"},
		{UpperFirst("pick one"), "Pick one"}, {UpperFirst("élan"), "Élan"}, {UpperFirst(""), ""},
		{DefaultText(nil), ""}, {DefaultText(json.RawMessage(`"x"`)), "x"}, {DefaultText(json.RawMessage(`2.50`)), "2.50"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for raw, want := range map[string]string{`"a"`: "[a]", `["a","b"]`: "[a b]", `3`: "[]", ``: "[]"} {
		if got := DefaultLabels(json.RawMessage(raw)); strings.Join(got, " ") != strings.Trim(want, "[]") {
			t.Errorf("DefaultLabels(%s) = %q, want %s", raw, got, want)
		}
	}
}

func TestSelectRuleAndPickError(t *testing.T) {
	t.Parallel()
	opts := []question.Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	multi := func(lo, hi int) *question.Question {
		return &question.Question{Kind: question.KindMultiChoice, Options: opts, MinSelect: lo, MaxSelect: hi}
	}
	choice := &question.Question{Kind: question.KindChoice, Options: opts, FreeText: true}
	text := &question.Question{Kind: question.KindText, Options: opts}
	for _, c := range []struct {
		name string
		q    *question.Question
		n    int
		note string
		rule string // for multi_choice
		err  string
	}{
		{"any", multi(0, 0), 0, "", "Pick any", ""},
		{"exactly", multi(2, 2), 1, "", "Pick 2", "pick at least 2 (1 picked)"},
		{"range", multi(1, 2), 3, "", "Pick 1 to 2", "pick at most 2 (3 picked)"},
		{"at least", multi(1, 0), 3, "", "Pick at least 1", ""},
		{"up to", multi(0, 2), 2, "", "Pick up to 2", ""},
		{"choice one", choice, 1, "", "", ""},
		{"choice none", choice, 0, "", "", "pick one of the options"},
		{"choice two", choice, 2, "also", "", "pick one of the options"},
		{"choice note alone", choice, 0, "none fit", "", ""},
		{"text suggestions none", text, 0, "", "", "pick one of the options"},
		{"text suggestions note is no answer", text, 0, "x", "", "pick one of the options"},
	} {
		if c.rule != "" {
			if got := SelectRule(c.q); got != c.rule {
				t.Errorf("%s: SelectRule = %q, want %q", c.name, got, c.rule)
			}
		}
		if got := errText(PickError(c.q, c.n, c.note)); got != c.err {
			t.Errorf("%s: PickError = %q, want %q", c.name, got, c.err)
		}
	}
}

func TestLengthRuleAndError(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lo, hi     int
		text, rule string
		err        string
	}{
		{0, 0, "", "", ""},
		{3, 12, "ab", "3–12 characters", "at least 3 characters, 1 more to go"},
		{3, 12, "feature/much-too-long", "3–12 characters", "at most 12 characters, 9 too many"},
		{1, 0, "ä", "at least 1 character", ""},
		{0, 2, "äöü", "up to 2 characters", "at most 2 characters, 1 too many"},
	} {
		q := &question.Question{Kind: question.KindText, FreeText: true, MinLength: c.lo, MaxLength: c.hi}
		if got := LengthRule(q); got != c.rule {
			t.Errorf("LengthRule(%d, %d) = %q, want %q", c.lo, c.hi, got, c.rule)
		}
		if got := errText(LengthError(q, c.text)); got != c.err {
			t.Errorf("LengthError(%d, %d, %q) = %q, want %q", c.lo, c.hi, c.text, got, c.err)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
