package askdialog

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question/present"
)

// Scope and expiry choices of the "Always…" panel.
const (
	scopeAlways  = "Until revoked"
	scopeSession = "This session only"
)

var expiryChoices = []struct {
	label string
	after time.Duration
}{
	{"Never", 0},
	{"In 1 hour", time.Hour},
	{"In 1 day", 24 * time.Hour},
	{"In 7 days", 7 * 24 * time.Hour},
	{"In 30 days", 30 * 24 * time.Hour},
}

// canAlways implements approvalHost: rules can be made when the dialog has a policy.
func (d *questionDialog) canAlways() bool { return d.policy != nil }

// showAlways implements approvalHost: it opens "Always allow…" and "Always
// deny…" under the Always… button. The button acts only through the guard;
// the panel each item opens restarts the arm delay, and its own button
// acts only through the guard too.
func (d *questionDialog) showAlways() {
	d.alwaysMenu = fyne.NewMenu("Always",
		fyne.NewMenuItem("Always allow…", func() { d.openAlways(policy.Allow) }),
		fyne.NewMenuItem("Always deny…", func() { d.openAlways(policy.Deny) }),
	)
	if len(d.q.AgentRules) > 0 {
		// The agent's own standing permissions (Claude Code's suggestions)
		// open a panel of their own: a menu item can neither wrap their
		// labels nor act through the guard (the menu's dismissal restarts
		// the arm delay before its action runs).
		d.alwaysMenu.Items = append(d.alwaysMenu.Items, fyne.NewMenuItemSeparator(),
			fyne.NewMenuItem(agentRulesItem(d.q.Client), d.openAgentRules))
	}
	if d.alwaysButton == nil {
		return
	}
	d.alwaysPopup = d.popUnder(d.alwaysMenu, d.alwaysButton)
}

// alwaysPanel is the scope dialog of "Always allow…" and "Always deny…": a
// modal pop-up over the question dialog, prefilled from policy.SuggestRule,
// that adds the rule and then answers the question. For a guarded request
// (high risk or destructive) Always allow needs an extra, unticked-by-default
// confirmation and makes a HighRisk rule. Its methods run on the Fyne goroutine.
type alwaysPanel struct {
	d         *questionDialog
	decision  policy.Decision
	suggested policy.Rule
	needsOK   bool // Always allow of a guarded request: the extra confirmation

	pop                  *widget.PopUp
	title                *widget.Label
	client, action, note *keyEntry
	pattern              *keyEntry  // the content it must be
	hidden               string     // the pattern's bytes when they hold characters shown as markers
	match, scope         *keySelect // what of the content; how long
	expires              *keySelect
	answers              []*dialogButton // the buttons it added to the dialog's answer buttons
	matchText            *widget.Label   // what the rule matches, in words, and one thing it does not
	form                 *widget.Form    // match, pattern, scope, expiry, note
	wideOK               *keyCheck       // the second confirmation of a rule for every request of a tool
	highRisk             *keyCheck       // nil unless needsOK
	errText              *widget.Label
	ok, cancel           *dialogButton
}

// openAlways opens the panel for decision d.
func (d *questionDialog) openAlways(dec policy.Decision) {
	if d.done || d.policy == nil || d.always != nil {
		return
	}
	if d.alwaysPopup != nil {
		d.alwaysPopup.Hide() // a tap on an item hides it too; a call from a test does not
		d.alwaysPopup = nil
	}
	p := &alwaysPanel{d: d, decision: dec, suggested: policy.SuggestRule(d.q, dec)}
	p.needsOK = dec == policy.Allow && policy.Guarded(d.q)
	p.build()
	p.show()
}

// show opens built panel p over the dialog and restarts the arm delay.
func (p *alwaysPanel) show() {
	d := p.d
	d.always = p
	d.buttons = append(d.buttons, p.answers...)
	p.pop.Show()
	d.growFor(p.pop.MinSize())
	d.guard.deactivate()
	d.guard.activate()
	d.guard.focusQuietly(p.cancel)
}

// buildFields makes the panel's fields, filled from the suggested rule:
// client, action, match, pattern (disabled, with markers, when it holds
// hidden characters), scope, expiry and note, the wide-rule tick and the
// error line. It runs on the Fyne goroutine.
func (p *alwaysPanel) buildFields(verb string) {
	d := p.d
	p.title = widget.NewLabelWithStyle("Always "+verb, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.client, p.action, p.note = newKeyEntry(d, false), newKeyEntry(d, false), newKeyEntry(d, false)
	p.client.SetText(p.suggested.Client)
	p.action.SetText(p.suggested.Action)
	p.note.SetPlaceHolder("Optional: why, for the rules list")
	scopes := []string{scopeAlways}
	if d.q.Client.SessionID != "" {
		scopes = append(scopes, scopeSession)
	}
	p.scope = newKeySelect(d, scopes, func(string) { p.describe() })
	p.scope.SetSelected(scopes[len(scopes)-1]) // this session, when there is one
	// A request_approval's details, or a tool's whole input, may take
	// lines: the person reads and edits them as the text they are.
	p.pattern = newKeyEntry(d, p.suggested.Match == policy.MatchInput)
	if p.pattern.MultiLine {
		p.pattern.SetMinRowsVisible(min(max(strings.Count(p.suggested.Pattern, "\n")+1, 2), 6))
	}
	p.pattern.SetText(p.suggested.Pattern)
	if shown := present.Visible(p.suggested.Pattern); shown != p.suggested.Pattern {
		// Fyne lays text out bidirectionally, so a U+202E in the entry would
		// show a disguised command: show the markers, keep the bytes.
		p.hidden = p.suggested.Pattern
		p.pattern.SetText(shown)
		p.pattern.Disable()
	}
	p.pattern.OnChanged = func(string) { p.describe() }
	p.match = newKeySelect(d, matchChoices(p.suggested.Match), func(string) { p.describe() })
	p.match.SetSelected(p.suggested.Match.Label())
	p.matchText = widget.NewLabel("")
	p.matchText.Wrapping = fyne.TextWrapWord
	p.wideOK = newKeyCheck(d, "Yes: a rule for every request of this tool")
	p.wideOK.OnChanged = func(bool) { p.describe() }
	var expiries []string
	for _, e := range expiryChoices {
		expiries = append(expiries, e.label)
	}
	p.expires = newKeySelect(d, expiries, nil)
	p.expires.SetSelected(expiryChoices[2].label) // in 1 day
	p.errText = widget.NewLabel("")
	p.errText.Importance = widget.DangerImportance
	p.errText.Wrapping = fyne.TextWrapWord
	p.errText.Hide()
}

// build makes the panel: its fields (buildFields), the form that lays
// them out, the high-risk tick when the rule needs one, and Cancel and the
// button that adds the rule. It runs on the Fyne goroutine.
func (p *alwaysPanel) build() {
	d := p.d
	verb, past := "allow", "allowed"
	if p.decision == policy.Deny {
		verb, past = "deny", "denied"
	}
	p.buildFields(verb)
	p.form = widget.NewForm(
		widget.NewFormItem("Matches", p.match),
		widget.NewFormItem(patternLabel(p.suggested), p.pattern),
		widget.NewFormItem("Scope", p.scope),
		widget.NewFormItem("Expires", p.expires),
		widget.NewFormItem("Note", p.note),
	)
	who := widget.NewForm(widget.NewFormItem("Agent", p.client), widget.NewFormItem("Request", p.action))
	who.Items[0].HintText = "The agent's name; * matches any."
	who.Items[1].HintText = "The tool and what it asks (tool:action); * matches anything."
	advanced := widget.NewAccordion(widget.NewAccordionItem("Which agent and request (patterns)", who))
	explain := widget.NewLabel(fmt.Sprintf("From now on, matching requests are %s at once, with no dialog. "+
		"Settings › Rules lists, edits and removes rules.", past))
	explain.Wrapping = fyne.TextWrapWord
	request := widget.NewLabel("Request: " + present.CommandOrPath(&d.q, 200))
	request.Wrapping = fyne.TextWrapWord
	p.matchText.TextStyle.Bold = true
	box := container.NewVBox(p.title, p.matchText, request, p.form, advanced, p.wideOK, explain)
	p.describe()
	if p.needsOK {
		box.Add(warningLine("High risk: this rule allows exactly this action from exactly this client " +
			"(no * or ?) without asking you again."))
		p.highRisk = newKeyCheck(d, "I understand; always allow this high-risk action")
		box.Add(p.highRisk)
	}
	box.Add(p.errText)

	p.cancel = newDialogButton(d, "Cancel", nil, p.close)
	p.ok = newDialogButton(d, "Add rule and "+verb, &action{label: "Always " + verb, do: p.confirm}, nil)
	p.ok.Importance = widget.HighImportance
	p.answers = []*dialogButton{p.ok}
	if p.needsOK {
		p.ok.Importance = widget.DangerImportance
	}
	if !d.guard.armed {
		p.ok.Disable()
	}
	box.Add(container.NewHBox(layout.NewSpacer(), p.cancel, p.ok))
	p.pop = widget.NewModalPopUp(container.New(minWidth(contentWidth()-4*theme.Padding()), box), d.win.Canvas())
}

// rule returns the rule the panel's fields describe, or an error naming the field.
func (p *alwaysPanel) rule() (policy.Rule, error) {
	r := p.suggested
	r.Client = strings.TrimSpace(p.client.Text)
	r.Action = strings.TrimSpace(p.action.Text)
	r.Note = strings.TrimSpace(p.note.Text)
	r.Match, r.Pattern = policy.MatchByLabel(p.match.Selected), p.patternText()
	if r.Match == policy.MatchTool {
		r.Pattern = ""
	} else if r.Match != policy.MatchInput {
		r.Pattern = strings.TrimSpace(r.Pattern)
	}
	if w := r.Wide(); w != "" && r.Decision == policy.Allow && !p.wideOK.Checked {
		return r, fmt.Errorf("this rule %s: tick the box to confirm, or match this request's content", w)
	}
	r.Scope = policy.ScopeAlways
	if p.scope.Selected == scopeSession {
		r.Scope = policy.ScopeSession
	}
	for _, e := range expiryChoices {
		if e.label == p.expires.Selected && e.after > 0 {
			r.Expires = p.d.clock.now().Add(e.after)
		}
	}
	if p.needsOK {
		if !p.highRisk.Checked {
			return r, fmt.Errorf("tick the box to confirm an always-allow rule for a high-risk action")
		}
		if !policy.IsLiteral(r.Client) || !policy.IsLiteral(r.Action) {
			return r, fmt.Errorf("for a high-risk action the client and the action must be exact: no * or ?")
		}
		r.HighRisk = true
	}
	return r, nil
}

// confirm adds the rule, then answers the question with its decision.
func (p *alwaysPanel) confirm() {
	d := p.d
	r, err := p.rule()
	if err == nil {
		r, err = d.policy.Add(r)
	}
	if err != nil {
		p.errText.SetText(present.UpperFirst(err.Error()))
		p.errText.Show()
		d.growFor(p.pop.MinSize())
		return
	}
	d.log.Info("rule added from dialog", "id", d.q.ID, "rule", r.ID, "decision", string(r.Decision),
		"scope", string(r.Scope), "high_risk", r.HighRisk)
	ar, _ := d.r.(*approvalRenderer)
	respond := ar.deny.respond
	if p.decision == policy.Allow {
		respond = ar.Answer // an error when the request is too long to show
	}
	p.close()
	d.answer("Always "+string(p.decision), "always-panel", respond)
}

// close hides the panel without answering and restarts the arm delay.
func (p *alwaysPanel) close() {
	d := p.d
	if d.always != p {
		return
	}
	d.always = nil
	d.buttons = slices.DeleteFunc(d.buttons, func(b *dialogButton) bool { return slices.Contains(p.answers, b) })
	p.pop.Hide()
	if d.done {
		return
	}
	d.fit()
	d.guard.focusQuietly(d.root)
	d.rearm()
}

// typedKey handles dialog keys while the panel is open: Escape closes it;
// Enter and the digits do nothing, so no key answers from here.
func (p *alwaysPanel) typedKey(ev *fyne.KeyEvent, _ fyne.Focusable) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		p.close()
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		return true
	}
	return digitKey(ev.Name) != 0
}

// growFor makes the window tall enough for a pop-up of size s.
func (d *questionDialog) growFor(s fyne.Size) {
	cur := d.win.Canvas().Size()
	h := s.Height + 6*theme.Padding()
	if h > cur.Height {
		d.win.Resize(fyne.NewSize(max(cur.Width, dialogWidth), min(h, maxDialogHeight+200)))
	}
}

// ensure the approval renderer's host is the dialog.
var _ approvalHost = (*questionDialog)(nil)

// patternText is the pattern the rule gets: the entry's text, or the
// request's own bytes when the entry shows them with markers.
func (p *alwaysPanel) patternText() string {
	if p.hidden != "" {
		return p.hidden
	}
	return p.pattern.Text
}

// describe says under the form what the rule will match, with one request
// it will not, and shows the second confirmation when the rule covers every
// request of a tool that writes or runs things.
func (p *alwaysPanel) describe() {
	if p.matchText == nil || p.match == nil || p.pattern == nil {
		return // still being built
	}
	r := p.suggested
	r.Action = strings.TrimSpace(p.action.Text)
	r.Match, r.Pattern = policy.MatchByLabel(p.match.Selected), strings.TrimSpace(p.patternText())
	if r.Match == policy.MatchTool {
		r.Pattern = ""
	}
	r.Client = strings.TrimSpace(p.client.Text)
	text := "Matches " + present.Visible(present.Unspan(r.Covers()+", "+r.MatchText())) + "."
	if p.scope.Selected == scopeSession {
		text += " Only in this session."
	}
	if ce := r.Counterexample(); ce != "" {
		text += " " + present.Visible(present.Unspan(ce))
	}
	p.matchText.SetText(text)
	if p.form != nil && p.form.Items[1].Text != patternLabel(r) {
		p.form.Items[1].Text = patternLabel(r)
		p.form.Refresh()
	}
	if r.Wide() != "" && p.decision == policy.Allow {
		p.wideOK.Show()
	} else {
		p.wideOK.Hide()
	}
}

// matchChoices are the match kinds the panel offers for a suggestion
// matching by m: that one, a command prefix for a command, and every request.
func matchChoices(m policy.MatchKind) []string {
	out := []string{m.Label()}
	if m == policy.MatchCommand {
		out = append(out, policy.MatchPrefix.Label())
	}
	if m != policy.MatchTool {
		out = append(out, policy.MatchTool.Label())
	}
	return out
}

// patternLabel names the pattern field after what r's match kind compares:
// the command, its prefix, the path, a request_approval's details or a
// tool's input.
func patternLabel(r policy.Rule) string {
	switch r.Match {
	case policy.MatchCommand:
		return "Command"
	case policy.MatchPrefix:
		return "Starts with"
	case policy.MatchPath:
		return "Path"
	case policy.MatchInput:
		if strings.HasPrefix(r.Action, "request_approval:") {
			return "Details"
		}
		return "Input"
	}
	return "Pattern"
}
