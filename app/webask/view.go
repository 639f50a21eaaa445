package webask

import (
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// view is what a page shows: the question, the controls of its kind with
// the person's input so far, the buttons and any problems. The controls
// follow the dialog's renderers (ui/render_*.go): the same default buttons,
// and the same defaults, labels, rules and messages, which both take from
// app/question/present.
type view struct {
	Q question.Question // as asked: answers are read against it
	// S is Q as the person reads it (present.VisibleCopy): invisible characters
	// shown as markers, runs of empty lines collapsed. The page shows S.
	S question.Question
	// Title is the headline saying who asks, what and where
	// (present.Headline), the page's <h1> and <title>; Heading and Body
	// are the title and the message under it (present.TitleAndBody), which
	// name an approval's action once, the message's Markdown rendered as
	// the dialog renders it (renderMarkdown).
	Title, Heading string
	Body           template.HTML
	ClientLine     string
	Asked          string
	LeftMS         int64
	Left           string
	Warning        string // a destructive or high-risk request
	RiskNote       string // "Low risk: only reads."
	Intro          string // a form's description
	Key, Token     string
	ArmMS          int64
	Error          string // a problem with the whole answer

	Text     *textView
	Options  *optionsView // choice, multi_choice, and text with free text off
	Fields   []*fieldView // form
	Note     *noteView
	Password *passwordView // an answer that approves needs the login password
	Buttons  []buttonView
	Cancel   buttonView
	Focus    string // the id of the control that takes focus; "" means the default button

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

// newView builds the page of q with its defaults filled in; home is the
// person's home directory, or "", and started when q's session was first
// seen asking, or zero: the client line names the session by its project
// and start as the dialog does.
func newView(q question.Question, home string, started time.Time) (*view, error) {
	shown := present.VisibleCopy(q)
	v := &view{Q: q, S: shown, Title: present.Headline(&q, home), ClientLine: present.SessionLine(shown.Client, q.Cwd, started, time.Local)}
	heading, body := present.TitleAndBody(q)
	v.Heading, v.Body = heading, renderMarkdown(body)
	v.Asked = "asked " + q.Created.Format("15:04:05 MST")
	left := time.Until(q.Deadline)
	v.LeftMS, v.Left = left.Milliseconds(), present.TimeLeft(left)
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
		v.Options = &optionsView{Legend: "Answers", Items: optionItems(q.Options, v.S.Options, present.DefaultLabels(q.Default))}
		v.Focus = "o0"
		return
	}
	t := &textView{Multiline: q.Multiline, Placeholder: q.Placeholder}
	_ = json.Unmarshal(q.Default, &t.Value) // no default leaves it empty
	t.Rule = present.LengthRule(q)
	for _, o := range v.S.Options {
		t.Suggestions = append(t.Suggestions, o.Label)
	}
	v.Text, v.Focus = t, "text"
}

func (v *view) confirmControls(decline buttonView) {
	q := &v.Q
	yes := buttonView{Label: present.LabelOr(v.S.YesLabel, "Yes"), Value: "yes"}
	no := buttonView{Label: present.LabelOr(v.S.NoLabel, "No"), Value: "no"}
	switch {
	case present.ReadsDestructive(q):
		yes.Class = "danger"
		no.Class, no.Default = "primary", true
		v.Warning = present.DestructiveWarning(q)
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
		Items: optionItems(q.Options, v.S.Options, present.DefaultLabels(q.Default))}
	if o.Multi {
		o.Rule = present.SelectRule(q)
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
	if line, warn := present.RiskLine(q); warn {
		allow.Class = "danger"
		v.Warning = line
	} else {
		v.RiskNote = line
	}
	v.Note = &noteView{Label: "Message to the agent (optional)", Multiline: true}
	v.Buttons = []buttonView{deny, allow}
	if why := present.Unseen(q); why != "" {
		// No allow for what the page cannot show in full.
		v.Buttons = []buttonView{deny}
		v.RiskNote = strings.TrimSpace(v.Warning + " " + v.RiskNote)
		v.Warning = why
	}
}

// optionItems lists options, as shown, with the defaults checked.
func optionItems(opts, shown []question.Option, checked []string) []optionView {
	items := make([]optionView, len(opts))
	for i, o := range opts {
		items[i] = optionView{ID: "o" + strconv.Itoa(i), Value: strconv.Itoa(i), Label: shown[i].Label, Desc: shown[i].Description,
			Checked: slices.Contains(checked, o.Label)}
	}
	return items
}
