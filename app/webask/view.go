package webask

import (
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
)

// view is what a page shows: the question, the controls of its kind with
// the person's input so far, the buttons and any problems. The controls
// follow the dialog's renderers (ui/render_*.go): the same defaults, labels,
// default buttons and rules.
type view struct {
	Q          question.Question
	Title      string
	ClientLine string
	Asked      string
	LeftMS     int64
	Left       string
	Warning    string // a destructive or high-risk request
	RiskNote   string // "Risk: medium"
	Intro      string // a form's description
	Key, Token string
	ArmMS      int64
	Error      string // a problem with the whole answer

	Text    *textView
	Options *optionsView // choice, multi_choice, and text with free text off
	Fields  []*fieldView // form
	Note    *noteView
	Buttons []buttonView
	Cancel  buttonView
	Focus   string // the id of the control that takes focus; "" means the default button

	Result *resultText

	Style  template.CSS
	Script template.JS
}

type textView struct {
	Multiline   bool
	Placeholder string
	Value       string
	Rule        string
	Suggestions []string
	Error       string
}

type optionsView struct {
	Multi  bool
	Rule   string
	Items  []optionView
	Error  string
	Legend string
}

type optionView struct {
	ID, Value, Label, Desc string
	Checked                bool
}

type noteView struct {
	Label, Value, Error string
	Multiline           bool
}

type buttonView struct {
	Label, Value, Class string
	Default             bool
}

type resultText struct {
	Outcome string   // one sentence
	Lines   []string // the answer, one line each
	Ended   bool     // the question had ended before this answer
}

// newView builds the page of q with its defaults filled in.
func newView(q question.Question) (*view, error) {
	v := &view{Q: q, Title: q.Client.DisplayName() + " asks", ClientLine: clientLine(q.Client)}
	if q.Kind == question.KindNotice {
		v.Title = q.Client.DisplayName() + " says"
	}
	v.Asked = "asked " + q.Created.Format("15:04:05 MST")
	left := time.Until(q.Deadline)
	v.LeftMS, v.Left = left.Milliseconds(), timeLeft(left)
	v.Cancel = buttonView{Label: "Cancel", Value: "cancel", Class: "quiet"}
	ok := buttonView{Label: "OK", Value: "accept", Class: "primary", Default: true}
	decline := buttonView{Label: "Decline", Value: "decline", Class: "quiet"}
	switch q.Kind {
	case question.KindText:
		v.textControls()
		v.Buttons = []buttonView{decline, ok}
	case question.KindConfirm:
		v.confirmControls(decline)
	case question.KindChoice, question.KindMultiChoice:
		v.choiceControls()
		v.Buttons = []buttonView{decline, ok}
	case question.KindForm:
		if err := v.formControls(); err != nil {
			return nil, err
		}
		ok.Label = "Submit"
		v.Buttons = []buttonView{decline, ok}
	case question.KindApproval:
		v.approvalControls()
	case question.KindNotice:
		v.Buttons = []buttonView{decline, ok}
	default:
		return nil, fmt.Errorf("no page for questions of kind %q", q.Kind)
	}
	return v, nil
}

func (v *view) textControls() {
	q := &v.Q
	if !q.FreeText {
		v.Options = &optionsView{Legend: "Answers", Items: optionItems(q.Options, defaultLabels(q.Default))}
		v.Focus = "o0"
		return
	}
	t := &textView{Multiline: q.Multiline, Placeholder: q.Placeholder}
	_ = json.Unmarshal(q.Default, &t.Value) // no default leaves it empty
	minL, maxL := q.MinLength, q.MaxLength
	switch {
	case minL > 0 && maxL > 0:
		t.Rule = fmt.Sprintf("%d–%d characters", minL, maxL)
	case minL > 0:
		t.Rule = "at least " + countNoun(minL, "character")
	case maxL > 0:
		t.Rule = "up to " + countNoun(maxL, "character")
	}
	for _, o := range q.Options {
		t.Suggestions = append(t.Suggestions, o.Label)
	}
	v.Text, v.Focus = t, "text"
}

func (v *view) confirmControls(decline buttonView) {
	q := &v.Q
	yes := buttonView{Label: labelOr(q.YesLabel, "Yes"), Value: "yes"}
	no := buttonView{Label: labelOr(q.NoLabel, "No"), Value: "no"}
	switch {
	case q.Destructive:
		yes.Class = "danger"
		no.Class, no.Default = "primary", true
		v.Warning = "Destructive: this may not be reversible."
	case string(q.Default) == `"no"` || string(q.Default) == "false":
		no.Class, no.Default = "primary", true
	default:
		yes.Class, yes.Default = "primary", true
	}
	v.Buttons = []buttonView{decline, no, yes}
}

func (v *view) choiceControls() {
	q := &v.Q
	o := &optionsView{Multi: q.Kind == question.KindMultiChoice, Legend: "Options",
		Items: optionItems(q.Options, defaultLabels(q.Default))}
	if o.Multi {
		o.Rule = selectRule(q)
	}
	v.Options = o
	v.Focus = "o0"
	if q.FreeText {
		v.Note = &noteView{Label: "Note (optional)"}
	}
}

func (v *view) approvalControls() {
	q := &v.Q
	allow := buttonView{Label: "Allow once", Value: "allow"}
	deny := buttonView{Label: "Deny", Value: "decline", Class: "primary", Default: true}
	switch {
	case q.Risk == question.RiskHigh || q.Destructive:
		allow.Class = "danger"
		v.Warning = "High risk: allow only if you expected this request."
	case q.Risk != "":
		v.RiskNote = "Risk: " + string(q.Risk)
	}
	v.Note = &noteView{Label: "Message to the agent (optional)", Multiline: true}
	v.Buttons = []buttonView{deny, allow}
}

// optionItems lists options with the defaults checked.
func optionItems(opts []question.Option, checked []string) []optionView {
	items := make([]optionView, len(opts))
	for i, o := range opts {
		items[i] = optionView{ID: "o" + strconv.Itoa(i), Value: strconv.Itoa(i), Label: o.Label, Desc: o.Description,
			Checked: slices.Contains(checked, o.Label)}
	}
	return items
}

// selectRule says how many options a multi_choice wants, as the dialog does.
func selectRule(q *question.Question) string {
	lo, hi := selectBounds(q)
	switch {
	case lo == hi:
		return fmt.Sprintf("Pick %d", lo)
	case lo > 0 && hi < len(q.Options):
		return fmt.Sprintf("Pick %d to %d", lo, hi)
	case lo > 0:
		return fmt.Sprintf("Pick at least %d", lo)
	case hi < len(q.Options):
		return fmt.Sprintf("Pick up to %d", hi)
	}
	return "Pick any"
}

func selectBounds(q *question.Question) (lo, hi int) {
	hi = len(q.Options)
	if q.MaxSelect > 0 {
		hi = q.MaxSelect
	}
	return q.MinSelect, hi
}

// defaultLabels reads a choice default: one label or an array of labels.
func defaultLabels(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(raw, &many) // a bad default leaves nothing preselected
	return many
}

// clientLine says who asks: name, version and session, as the dialog does.
func clientLine(c question.Client) string {
	parts := []string{c.DisplayName()}
	if c.Title != "" && c.Name != "" {
		parts[0] += " (" + c.Name + ")"
	}
	if c.Version != "" {
		parts[0] += " " + c.Version
	}
	if c.SessionID != "" {
		parts = append(parts, "session "+shortenRunes(c.SessionID, 12))
	}
	return strings.Join(parts, " · ")
}

// timeLeft formats the time until the deadline, rounded up to the second.
func timeLeft(d time.Duration) string {
	if d <= 0 {
		return "time is up"
	}
	s := int((d + time.Second - 1) / time.Second)
	if s < 3600 {
		return fmt.Sprintf("%d:%02d left", s/60, s%60)
	}
	return fmt.Sprintf("%d h %02d min left", s/3600, s%3600/60)
}

func labelOr(label, def string) string {
	if label == "" {
		return def
	}
	return label
}

// countNoun formats n with noun, adding "s" unless n is 1.
func countNoun(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func shortenRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// upperFirst capitalises the first letter of s.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
