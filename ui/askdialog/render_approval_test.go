package askdialog

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// newApprovalEnv is a dialog env whose broker is gated by a real policy
// that the dialogs add rules to.
func newApprovalEnv(t *testing.T) (*dialogEnv, *policy.Policy) {
	t.Helper()
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	e := newDialogEnvWith(t, question.Config{Gate: pol.Gate})
	e.m.policy = pol
	return e, pol
}

// deploy is a request_approval as the bridge makes it: Message = Action.
func deploy(risk question.Risk) question.Question {
	return question.Question{Kind: question.KindApproval, Tool: "request_approval", Origin: question.OriginApproval, Risk: risk,
		Action: "Deploy to production", Message: "Deploy to production",
		Details:     "Run `make deploy` in `~/src/shop`:\n\n```\nkubectl apply -f k8s/prod\n```",
		AgentReason: "The release branch passed CI and the ticket asks for it today."}
}

func buttonTexts(d *questionDialog) []string {
	var out []string
	for _, b := range d.buttons {
		out = append(out, b.Text)
	}
	return out
}

func richText(rts []*widget.RichText) string {
	var b strings.Builder
	for _, rt := range rts {
		b.WriteString(rt.String())
	}
	return b.String()
}

func TestApprovalDialog_ShowsActionDetailsReasonAndRisk(t *testing.T) {
	e, _ := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskHigh))
	if d.header == nil || d.header.Text != "Deploy to production" {
		t.Fatalf("title %v", d.header)
	}
	if msg := richText(d.message); !strings.Contains(msg, "kubectl apply -f k8s/prod") || strings.Contains(msg, "Deploy to production") {
		t.Fatalf("message card shows %q, want the details only", msg)
	}
	r := d.r.(*approvalRenderer)
	if r.reason == nil || r.reason.Text != "Why: The release branch passed CI and the ticket asks for it today." {
		t.Fatalf("reason %v", r.reason)
	}
	if r.risk == nil || !strings.Contains(d.client.Text, "claude-code 2.1.3") || !strings.Contains(d.client.Text, "session since ") {
		t.Fatalf("risk %v client %q", r.risk, d.client.Text)
	}
	if got := strings.Join(buttonTexts(d), ","); got != "Always…,Deny,Allow once" {
		t.Fatalf("buttons %s", got)
	}
	if allow := findButton(t, d, "Allow once"); d.defaultButton.Text != "Deny" || !allow.act.outlined || allow.Importance != widget.LowImportance {
		t.Fatalf("default %q; a high-risk Allow is not drawn outlined (importance %v)", d.defaultButton.Text, allow.Importance)
	}
	// No details: the card says so rather than repeating the title.
	e2, _ := newApprovalEnv(t)
	q := deploy(question.RiskLow)
	q.Details = ""
	d2 := e2.ask(q)
	if msg := richText(d2.message); msg != "No details given." {
		t.Fatalf("empty details show %q", msg)
	}
}

func TestApprovalDialog_DenyWithMessage(t *testing.T) {
	e, _ := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskMedium))
	test.Tap(findButton(t, d, "Deny")) // unarmed: ignored
	e.pending(d.q.ID)
	d.guard.arm()
	test.Type(d.r.(*approvalRenderer).note, "not on a Friday")
	test.Tap(findButton(t, d, "Deny"))
	res := e.result(d.q.ID)
	if res.Outcome != question.Declined || res.Note != "not on a Friday" || res.Via != question.ViaDialog {
		t.Fatalf("result %+v", res)
	}
}

func TestApprovalDialog_AllowOnceAndEnterDenies(t *testing.T) {
	e, pol := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskMedium))
	d.guard.arm()
	test.Tap(findButton(t, d, "Allow once"))
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"allow"` {
		t.Fatalf("result %+v %s", res, res.Value)
	}
	if len(pol.Rules()) != 0 {
		t.Fatal("allow once made a rule")
	}
	d = e.ask(deploy(question.RiskHigh))
	d.guard.arm()
	e.press(d, fyne.KeyReturn)
	if res := e.result(d.q.ID); res.Outcome != question.Declined {
		t.Fatalf("Enter gave %+v", res)
	}
}

// TestApprovalDialog_AlwaysAllowForThisSession taps Always… > Always
// allow…, checks the guard holds every step, picks this session and an
// expiry, and checks the rule made and the answer; the next identical
// request is then approved by the rule with no dialog.
func TestApprovalDialog_AlwaysAllowForThisSession(t *testing.T) {
	e, pol := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskMedium))
	test.Tap(d.alwaysButton) // unarmed: no menu
	if d.alwaysMenu != nil {
		t.Fatal("Always… acted while unarmed")
	}
	d.guard.arm()
	test.Tap(d.alwaysButton)
	if d.alwaysMenu == nil || d.alwaysMenu.Items[0].Label != "Always allow…" || d.alwaysMenu.Items[1].Label != "Always deny…" {
		t.Fatalf("menu %v", d.alwaysMenu)
	}
	d.alwaysMenu.Items[0].Action()
	p := d.always
	if p == nil || p.title.Text != "Always allow" {
		t.Fatal("no scope panel")
	}
	if p.client.Text != "claude-code" || p.action.Text != "request_approval:Deploy to production" ||
		p.scope.Selected != scopeSession || p.expires.Selected != "In 1 day" || p.highRisk != nil {
		t.Fatalf("prefilled %q %q %q %q", p.client.Text, p.action.Text, p.scope.Selected, p.expires.Selected)
	}
	// Opening the panel restarted the arm delay: its button waits too.
	if !p.ok.Disabled() {
		t.Fatal("panel button armed at once")
	}
	test.Tap(p.ok)
	if len(pol.Rules()) != 0 || d.always == nil {
		t.Fatal("panel button acted while unarmed")
	}
	e.clock.advance(question.DefaultArmDelay)
	if p.ok.Disabled() {
		t.Fatal("panel button still locked after the delay")
	}
	p.scope.SetSelected(scopeSession)
	p.expires.SetSelected("In 1 day")
	test.Type(p.note, "release week")
	test.Tap(p.ok)
	rules := pol.Rules()
	if len(rules) != 1 {
		t.Fatalf("rules %+v", rules)
	}
	r := rules[0]
	if r.Decision != policy.Allow || r.Scope != policy.ScopeSession || r.SessionID != d.q.Client.SessionID ||
		r.Client != "claude-code" || r.Action != "request_approval:Deploy to production" || r.Note != "release week" ||
		r.HighRisk || !r.Expires.Equal(e.clock.now.Add(24*time.Hour)) {
		t.Fatalf("rule %+v", r)
	}
	res := e.result(d.q.ID)
	if res.Outcome != question.Answered || string(res.Value) != `"allow"` || res.Via != question.ViaDialog {
		t.Fatalf("result %+v %s", res, res.Value)
	}
	// The same request again is decided by the rule: no dialog.
	q := deploy(question.RiskMedium)
	q.Client = d.q.Client
	again, err := e.broker.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if res := e.result(again.ID); res.Outcome != question.AutoApproved || res.RuleID != r.ID {
		t.Fatalf("second ask %+v", res)
	}
}

// TestApprovalDialog_AlwaysAllowHighRiskNeedsConfirmation checks the extra
// step for a high-risk request: unticked by default, refused until ticked,
// exact patterns only, and the rule is HighRisk.
func TestApprovalDialog_AlwaysAllowHighRiskNeedsConfirmation(t *testing.T) {
	e, pol := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskHigh))
	d.guard.arm()
	test.Tap(d.alwaysButton)
	d.alwaysMenu.Items[0].Action()
	p := d.always
	if p.highRisk == nil || p.highRisk.Checked || p.ok.Importance != widget.DangerImportance {
		t.Fatal("high risk needs an unticked confirmation and a danger button")
	}
	d.guard.arm()
	test.Tap(p.ok)
	if len(pol.Rules()) != 0 || !strings.Contains(p.errText.Text, "Tick the box") {
		t.Fatalf("unconfirmed: rules %d, error %q", len(pol.Rules()), p.errText.Text)
	}
	e.pending(d.q.ID)
	test.Tap(p.highRisk)
	p.action.SetText("request_approval:*")
	test.Tap(p.ok)
	if len(pol.Rules()) != 0 || !strings.Contains(p.errText.Text, "must be exact") {
		t.Fatalf("glob: rules %d, error %q", len(pol.Rules()), p.errText.Text)
	}
	p.action.SetText("request_approval:Deploy to production")
	test.Tap(p.ok)
	rules := pol.Rules()
	if len(rules) != 1 || !rules[0].HighRisk || rules[0].Decision != policy.Allow || rules[0].Match != policy.MatchInput || rules[0].Pattern != d.q.Details {
		t.Fatalf("rules %+v", rules)
	}
	if res := e.result(d.q.ID); res.Outcome != question.Answered || string(res.Value) != `"allow"` {
		t.Fatalf("result %+v", res)
	}
}

func TestApprovalDialog_AlwaysDenyAndEscape(t *testing.T) {
	e, pol := newApprovalEnv(t)
	d := e.ask(deploy(question.RiskHigh))
	d.guard.arm()
	test.Type(d.r.(*approvalRenderer).note, "use the staging cluster")
	test.Tap(d.alwaysButton)
	d.alwaysMenu.Items[1].Action()
	p := d.always
	if p.title.Text != "Always deny" || p.highRisk != nil {
		t.Fatalf("deny panel %q", p.title.Text)
	}
	// Escape closes the panel without answering; Enter does nothing in it.
	e.clock.advance(question.DefaultArmDelay)
	e.press(d, fyne.KeyReturn)
	e.pending(d.q.ID)
	e.press(d, fyne.KeyEscape)
	if d.always != nil || len(pol.Rules()) != 0 {
		t.Fatal("Escape did not close the panel")
	}
	e.pending(d.q.ID)
	for _, b := range d.buttons {
		if b == p.ok {
			t.Fatal("the closed panel's button is still one of the dialog's")
		}
	}
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(d.alwaysButton)
	d.alwaysMenu.Items[1].Action()
	e.clock.advance(question.DefaultArmDelay)
	test.Tap(d.always.ok)
	rules := pol.Rules()
	if len(rules) != 1 || rules[0].Decision != policy.Deny {
		t.Fatalf("rules %+v", rules)
	}
	res := e.result(d.q.ID)
	if res.Outcome != question.Declined || res.Note != "use the staging cluster" {
		t.Fatalf("result %+v", res)
	}
}

// codexDetached is a Codex approval as the hook service makes it when the
// hook runs under Codex's app server and found no terminal to watch: its
// details lead with the line saying Codex may no longer be waiting.
func codexDetached() question.Question {
	return question.Question{Kind: question.KindApproval, Tool: "permission_request", Origin: question.OriginPermission, Action: "Bash", Message: "Bash",
		Client:  question.Client{Name: "codex", SessionID: "01a2422b-0992-7890-83c5-867f92924074"},
		Details: "_" + present.AsksFromBackground("Codex") + "_\n\n**Working directory:** `/tmp/work`\n\n```sh\nrm -f /tmp/marker\n```"}
}

// TestApprovalDialog_SaysCodexMayNoLongerWait (finding 6 of issue 25): the
// dialog shows the line first, above the command.
func TestApprovalDialog_SaysCodexMayNoLongerWait(t *testing.T) {
	e, _ := newApprovalEnv(t)
	d := e.ask(codexDetached())
	msg := richText(d.message)
	line := present.AsksFromBackground("Codex")
	if i := strings.Index(msg, line); i < 0 || i > strings.Index(msg, "rm -f /tmp/marker") {
		t.Fatalf("the dialog does not lead with %q:\n%s", line, msg)
	}
}
