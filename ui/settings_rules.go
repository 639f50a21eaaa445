package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/ui/internal/uikit"
)

// expiresLayout is how the Rules tab writes and reads an expiry, local time.
const expiresLayout = "2006-01-02 15:04"

// rulesTab is the Settings window's list of rules: each with its client,
// action, decision, scope, expiry and note, and Edit… and Remove. It
// follows the policy (tray.policyChanged calls loadRules), so a rule made
// in a dialog or removed with 'asktray rules rm' shows at once.
type rulesTab struct {
	list  *fyne.Container // one row per rule
	empty *widget.Label
	err   *widget.Label
	rows  []*ruleRow

	// The open edit dialog's widgets, for tests.
	edit                                        dialog.Dialog
	editDecision, editMatch                     *widget.Select
	editExpires, editNote, editPattern, editCwd *widget.Entry
	editHost                                    *widget.Entry // where the agent runs; "" any host
	editClient, editAction                      *widget.Entry // a new rule's; nil when editing
	editErr                                     *widget.Label
	editSave, editCancel                        *widget.Button
	add                                         *widget.Button // Add rule…
}

// ruleRow is one rule in the list.
type ruleRow struct {
	rule                  policy.Rule
	title, matches, facts *widget.Label
	edit, remove          *widget.Button
}

// rulesView builds the Rules tab.
func (s *settingsWindow) rulesView() fyne.CanvasObject {
	t := &s.rules
	t.list = container.NewVBox()
	t.empty = widget.NewLabel("No rules yet. Choose Always… in an approval dialog to make one, or Add rule…; " +
		"'asktray rules' lists them from a terminal.")
	t.empty.Wrapping = fyne.TextWrapWord
	t.err = widget.NewLabel("")
	t.err.Importance = widget.DangerImportance
	t.err.Wrapping = fyne.TextWrapWord
	t.err.Hide()
	head := widget.NewLabel("Rules answer approvals and confirmations without asking you. " +
		"Deny beats allow; a more specific rule beats a general one; expired rules do nothing.")
	head.Wrapping = fyne.TextWrapWord
	t.add = widget.NewButtonWithIcon("Add rule…", theme.ContentAddIcon(), s.addRule)
	return container.NewBorder(container.NewVBox(container.NewBorder(nil, nil, nil, t.add, head), t.err, widget.NewSeparator()), nil, nil, nil,
		container.NewVScroll(container.NewVBox(t.empty, t.list)))
}

// loadRules shows the policy's rules. Runs on the Fyne goroutine.
func (s *settingsWindow) loadRules() {
	t := &s.rules
	if t.list == nil {
		return
	}
	t.list.RemoveAll()
	t.rows = nil
	var rules []policy.Rule
	if s.env.Policy != nil {
		rules = s.env.Policy.Rules()
	}
	if len(rules) == 0 {
		t.empty.Show()
	} else {
		t.empty.Hide()
	}
	now := time.Now()
	for _, r := range rules {
		row := s.ruleRow(r, now)
		t.rows = append(t.rows, row)
		buttons := container.NewVBox(layout.NewSpacer(), container.NewHBox(row.edit, row.remove), layout.NewSpacer())
		t.list.Add(container.NewBorder(nil, nil, nil, buttons, container.NewVBox(row.title, row.matches, row.facts)))
		t.list.Add(widget.NewSeparator())
	}
}

func (s *settingsWindow) ruleRow(r policy.Rule, now time.Time) *ruleRow {
	row := &ruleRow{rule: r}
	verb := map[policy.Decision]string{policy.Allow: "Allow", policy.Deny: "Deny", policy.Ask: "Always ask"}[r.Decision]
	// In words ("Allow  ·  approval requests “Deploy” from codex"); the
	// action as the CLI writes it is in the facts line.
	row.title = widget.NewLabelWithStyle(verb+"  ·  "+present.Visible(present.Unspan(r.Covers())),
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	row.title.Wrapping = fyne.TextWrapWord // the action in full, however long
	if r.Decision == policy.Deny {
		row.title.Importance = widget.DangerImportance
	}
	// What it matches, flagged when it covers a whole tool that writes or
	// runs things ("⚠ every Bash command"): Edit… narrows it,
	// Remove removes it.
	row.matches = widget.NewLabel("Matches " + present.Visible(present.Unspan(r.MatchText())))
	row.matches.Wrapping = fyne.TextWrapWord
	if r.Wide() != "" {
		row.matches.Importance = widget.WarningImportance
	}
	row.facts = uikit.SmallLabel(ruleFacts(r, now))
	row.facts.Wrapping = fyne.TextWrapWord
	id := r.ID
	row.edit = widget.NewButtonWithIcon("Edit…", theme.DocumentCreateIcon(), func() { s.editRule(id) })
	row.remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { s.removeRule(id) })
	return row
}

// ruleFacts is a rule's second line: scope, expiry, high risk, created, note.
func ruleFacts(r policy.Rule, now time.Time) string {
	parts := []string{"until revoked"}
	if r.Scope == policy.ScopeSession {
		parts[0] = "this session only (session " + present.ShortSession(r.SessionID) + ")"
	}
	switch {
	case r.Expires.IsZero():
		parts = append(parts, "never expires")
	case r.Expired(now):
		parts = append(parts, "expired "+r.Expires.Local().Format(expiresLayout))
	default:
		parts = append(parts, "expires "+r.Expires.Local().Format(expiresLayout))
	}
	if r.HighRisk {
		parts = append(parts, "high risk, confirmed")
	}
	parts = append(parts, "made "+r.Created.Local().Format(expiresLayout), "action "+r.Action, "id "+r.ID)
	if r.Note != "" {
		parts = append(parts, "note: "+r.Note)
	}
	return strings.Join(parts, "  ·  ")
}

// removeRule removes rule id and shows the rest.
func (s *settingsWindow) removeRule(id string) {
	if s.env.Policy == nil {
		return
	}
	if err := s.env.Policy.Remove(id); err != nil {
		s.rulesError(err)
		return
	}
	s.rulesError(nil)
	s.loadRules()
}

func (s *settingsWindow) rulesError(err error) {
	if err == nil {
		s.rules.err.Hide()
		return
	}
	s.rules.err.SetText(present.UpperFirst(err.Error()))
	s.rules.err.Show()
}

// editRule opens a dialog over the window to change rule id's decision,
// expiry and note.
func (s *settingsWindow) editRule(id string) {
	r, ok := s.env.Policy.Rule(id)
	if !ok {
		s.rulesError(fmt.Errorf("rule %s is gone", id))
		s.loadRules()
		return
	}
	s.ruleDialog("Edit rule", r, false)
}

// addRule opens the same dialog for a new rule, its client and action
// written by the person, deny chosen until they pick otherwise.
func (s *settingsWindow) addRule() {
	if s.env.Policy == nil {
		return
	}
	s.ruleDialog("Add rule", policy.Rule{Client: "*", Decision: policy.Deny, Scope: policy.ScopeAlways}, true)
}

// ruleDialog opens the rule dialog for r: a new rule's client and action
// are entries, an existing one's are fixed. Runs on the Fyne goroutine.
func (s *settingsWindow) ruleDialog(title string, r policy.Rule, isNew bool) {
	t := &s.rules
	decisions := make([]string, len(policy.Decisions))
	for i, d := range policy.Decisions {
		decisions[i] = string(d)
	}
	t.editDecision = widget.NewSelect(decisions, nil)
	t.editDecision.SetSelected(string(r.Decision))
	t.editExpires = widget.NewEntry()
	t.editExpires.SetPlaceHolder("never; or " + expiresLayout)
	if !r.Expires.IsZero() {
		t.editExpires.SetText(r.Expires.Local().Format(expiresLayout))
	}
	t.editNote = widget.NewEntry()
	t.editNote.SetText(r.Note)
	t.editErr = widget.NewLabel("")
	t.editErr.Importance = widget.DangerImportance
	t.editErr.Wrapping = fyne.TextWrapWord
	t.editErr.Hide()
	s.editMatchFields(r)
	client := widget.NewFormItem("Client", widget.NewLabel(r.Client))
	action := widget.NewFormItem("Action", widget.NewLabel(r.Action))
	t.editClient, t.editAction = nil, nil
	if isNew {
		t.editClient, t.editAction = widget.NewEntry(), widget.NewEntry()
		t.editClient.SetText(r.Client)
		t.editAction.SetPlaceHolder("*:Bash")
		client = formItem("Client", t.editClient, "The agent's name as it asks (claude-code, codex); * is any.")
		action = formItem("Action", t.editAction, "The tool it asks for: *:Bash a shell command, *:Edit a file edit, "+
			"request_approval:* any approval an agent asks for; * and ? are wildcards.")
	}
	form := widget.NewForm(client, action,
		formItem("Matches", t.editMatch, "What of the request it looks at; every request is the whole tool."),
		formItem("Pattern", t.editPattern, "The command, the command prefix, the path (or a glob inside a directory), or the input."),
		formItem("Working dir", t.editCwd, "Only requests run in this directory or below; empty: anywhere."),
		formItem("Host", t.editHost, "Only agents on this remote host, as 'asktray remote add' named it (build-01, agent@localhost); "+
			"* and ? are wildcards; empty: any host, this machine's own agents too."),
		widget.NewFormItem("Decision", t.editDecision),
		formItem("Expires", t.editExpires, "Local time, "+expiresLayout+"; empty: never."),
		widget.NewFormItem("Note", t.editNote),
	)
	var d dialog.Dialog
	t.editCancel = widget.NewButton("Cancel", func() { d.Hide() })
	t.editSave = widget.NewButton("Save", func() {
		if err := s.saveRule(r, isNew); err != nil {
			t.editErr.SetText(present.UpperFirst(err.Error()))
			t.editErr.Show()
			return
		}
		d.Hide()
	})
	t.editSave.Importance = widget.HighImportance
	content := container.NewVBox(form, t.editErr, container.NewHBox(layout.NewSpacer(), t.editCancel, t.editSave))
	d = dialog.NewCustomWithoutButtons(title, content, s.win)
	d.Resize(fyne.NewSize(520, 0))
	t.edit = d
	d.Show()
}

// saveRule writes the rule dialog's fields into r and updates the policy,
// or adds r when it is new.
func (s *settingsWindow) saveRule(r policy.Rule, isNew bool) error {
	t := &s.rules
	if isNew {
		r.Client, r.Action = strings.TrimSpace(t.editClient.Text), strings.TrimSpace(t.editAction.Text)
	}
	r.Decision = policy.Decision(t.editDecision.Selected)
	if !r.HighRisk { // a high-risk rule keeps the exact content it was confirmed for
		r.Match = policy.MatchByLabel(t.editMatch.Selected)
		r.Pattern = strings.TrimSpace(t.editPattern.Text)
		if r.Match == policy.MatchTool {
			r.Pattern = ""
		}
	}
	r.Cwd = strings.TrimSpace(t.editCwd.Text)
	r.Host = strings.TrimSpace(t.editHost.Text)
	r.Note = strings.TrimSpace(t.editNote.Text)
	r.Expires = time.Time{}
	if text := strings.TrimSpace(t.editExpires.Text); text != "" {
		e, err := time.ParseInLocation(expiresLayout, text, time.Local)
		if err != nil {
			return fmt.Errorf("expires: write %s, or leave it empty for never", expiresLayout)
		}
		r.Expires = e
	}
	var err error
	if isNew {
		_, err = s.env.Policy.Add(r)
	} else {
		err = s.env.Policy.Update(r)
	}
	if err != nil {
		return err
	}
	s.rulesError(nil)
	s.loadRules()
	return nil
}

// editMatchFields makes the edit dialog's match, pattern, working
// directory and host fields for r; a high-risk rule's match and pattern are fixed.
func (s *settingsWindow) editMatchFields(r policy.Rule) {
	t := &s.rules
	t.editMatch = widget.NewSelect(policy.MatchLabels, nil)
	t.editMatch.SetSelected(r.Match.Label())
	t.editPattern = widget.NewEntry()
	t.editPattern.SetText(r.Pattern)
	t.editCwd = widget.NewEntry()
	t.editCwd.SetText(r.Cwd)
	t.editHost = widget.NewEntry()
	t.editHost.SetPlaceHolder("any host")
	t.editHost.SetText(r.Host)
	if r.HighRisk {
		t.editMatch.Disable()
		t.editPattern.Disable()
	}
}
