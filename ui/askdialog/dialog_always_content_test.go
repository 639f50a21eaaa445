package askdialog

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

func bashApproval(cmd string) question.Question {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	return question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
		Details: "```sh\n" + cmd + "\n```", Input: in, Cwd: "/home/u/app", Risk: question.RiskMedium}
}

// TestAlwaysPanel_ProposesTheNarrowestRule: for a Bash request the panel
// proposes this exact command, in this directory, for this session, for a
// day; it says what that matches and what not, keeps the request in view,
// and a rule for every Bash command needs a second, explicit tick. The
// rule made allows the same command again and not a compound one.
func TestAlwaysPanel_ProposesTheNarrowestRule(t *testing.T) {
	e, pol := newApprovalEnv(t)
	d := e.ask(bashApproval("npm test"))
	d.guard.arm()
	test.Tap(d.alwaysButton)
	d.alwaysMenu.Items[0].Action()
	p := d.always
	if p.match.Selected != "exact command" || p.pattern.Text != "npm test" || p.scope.Selected != scopeSession || p.expires.Selected != "In 1 day" {
		t.Fatalf("proposed %q %q %q %q", p.match.Selected, p.pattern.Text, p.scope.Selected, p.expires.Selected)
	}
	if want := "Matches “Bash” requests from claude-code, command “npm test” in /home/u/app. Only in this session. Not “npm test --other-flag”, nor “npm test && rm -rf ~”."; p.matchText.Text != want {
		t.Fatalf("says %q", p.matchText.Text)
	}
	if !p.wideOK.Hidden {
		t.Fatal("the second confirmation shows for an exact rule")
	}
	// Widening to every Bash command asks for the second confirmation.
	p.match.SetSelected("every request")
	if p.wideOK.Hidden || !strings.Contains(p.matchText.Text, "⚠ every Bash command") {
		t.Fatalf("wide: %q, confirmation hidden %v", p.matchText.Text, p.wideOK.Hidden)
	}
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(p.ok)
	if len(pol.Rules()) != 0 || !strings.Contains(p.errText.Text, "matches every Bash command: tick the box") {
		t.Fatalf("a whole-tool rule without the tick: %d rules, %q", len(pol.Rules()), p.errText.Text)
	}
	p.match.SetSelected("exact command")
	test.Tap(p.ok)
	rules := pol.Rules()
	if len(rules) != 1 || rules[0].Match != policy.MatchCommand || rules[0].Pattern != "npm test" || rules[0].Cwd != "/home/u/app" || rules[0].Scope != policy.ScopeSession {
		t.Fatalf("rules %+v", rules)
	}
	for cmd, want := range map[string]question.Outcome{"npm test": question.AutoApproved, "npm test && rm -rf ~": ""} {
		q := bashApproval(cmd)
		q.Client = d.q.Client
		asked, err := e.broker.Ask(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		_, res, _ := e.broker.Get(asked.ID)
		if got := question.Outcome(""); res != nil {
			got = res.Outcome
			if got != want {
				t.Errorf("%q: %s, want %q", cmd, got, want)
			}
		} else if want != "" {
			t.Errorf("%q: pending, want %s", cmd, want)
		}
	}
}

// TestApprovalDialog_ShowsInvisibleCharacters: the dialog shows a bidi
// override and an escape as markers, and the collapsed empty lines.
func TestApprovalDialog_ShowsInvisibleCharacters(t *testing.T) {
	e, _ := newApprovalEnv(t)
	q := bashApproval("ls /tmp \u202e; rm -rf ~ #\u202c" + strings.Repeat("\n", 30) + "echo done")
	q.Action = "Bash\x1b[8m"
	d := e.ask(q)
	if d.header != nil || !strings.Contains(d.headline.Text, " wants to use Bash⟨U+001B⟩[8m in ") {
		t.Fatalf("header %v, headline %q", d.header, d.headline.Text)
	}
	var text strings.Builder
	for _, part := range d.message {
		text.WriteString(part.String())
	}
	got := text.String()
	if !strings.Contains(got, "ls /tmp ⟨U+202E⟩; rm -rf ~ #⟨U+202C⟩") || strings.ContainsRune(got, '\u202e') || !strings.Contains(got, "⟨29 empty lines⟩") {
		t.Fatalf("message shows %q", got)
	}
}

// TestApprovalDialog_SaysHowMuchIsBelow: a long command's box scrolls, and
// the dialog says how many lines are below it until they are scrolled to.
func TestApprovalDialog_SaysHowMuchIsBelow(t *testing.T) {
	e, _ := newApprovalEnv(t)
	var lines []string
	for i := range 40 {
		lines = append(lines, "echo step "+strings.Repeat("x", i%5))
	}
	d := e.ask(bashApproval(strings.Join(lines, "\n")))
	d.fit()
	if d.below.Hidden || !strings.HasSuffix(d.below.Text, "more lines below") {
		t.Fatalf("below: %q hidden %v", d.below.Text, d.below.Hidden)
	}
	short := e.ask(bashApproval("npm test"))
	short.fit()
	if !short.below.Hidden {
		t.Fatalf("a short command says %q", short.below.Text)
	}
}

// TestAlwaysPanel_HiddenCharactersShownAsMarkers: a command holding a
// bidi override is shown in the pattern and the words under the form with
// markers (Fyne would lay the raw text out reversed), the pattern cannot be
// edited, and the rule made still matches the request's own bytes.
func TestAlwaysPanel_HiddenCharactersShownAsMarkers(t *testing.T) {
	e, pol := newApprovalEnv(t)
	cmd := "echo hi \u202e ko"
	d := e.ask(bashApproval(cmd))
	d.guard.arm()
	test.Tap(d.alwaysButton)
	d.alwaysMenu.Items[0].Action()
	p := d.always
	if strings.ContainsRune(p.pattern.Text, '\u202e') || !strings.Contains(p.pattern.Text, "U+202E") || !p.pattern.Disabled() {
		t.Fatalf("pattern %q, disabled %v", p.pattern.Text, p.pattern.Disabled())
	}
	if strings.ContainsRune(p.matchText.Text, '\u202e') || !strings.Contains(p.matchText.Text, "U+202E") {
		t.Fatalf("says %q", p.matchText.Text)
	}
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(p.ok)
	if rules := pol.Rules(); len(rules) != 1 || rules[0].Pattern != cmd {
		t.Fatalf("rules %+v (error %q)", rules, p.errText.Text)
	}
}
