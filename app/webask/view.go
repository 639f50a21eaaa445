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
	switch q.Kind {
	case question.KindText:
		v.textControls()
	case question.KindConfirm:
		v.Warning = present.DestructiveWarning(&q)
	case question.KindChoice, question.KindMultiChoice:
		v.choiceControls()
	case question.KindForm:
		if err := v.formControls(); err != nil {
			return nil, err
		}
	case question.KindApproval:
		v.approvalControls()
	case question.KindNotice:
	default:
		return nil, fmt.Errorf("no page for questions of kind %q", q.Kind)
	}
	v.Buttons = pageButtons(&q)
	return v, nil
}

// pageButtons returns the page's answer buttons, left to right: the
// model's (present.Answers), with the page's own Decline before a
// confirm's and a notice's, which have none of their own.
func pageButtons(q *question.Question) []buttonView {
	var bs []buttonView
	if q.Kind == question.KindConfirm || q.Kind == question.KindNotice {
		bs = append(bs, buttonView{Label: "Decline", Value: "decline", Class: "quiet"})
	}
	for _, b := range present.Answers(q) {
		bs = append(bs, pageButton(b))
	}
	return bs
}

// pageButton is answer button b as the page posts it: its value names
// the answer (read turns it back into one), its class draws the default
// filled, a dangerous yes in the danger colour and a Decline quiet.
func pageButton(b present.Button) buttonView {
	v := buttonView{Label: b.Label, Default: b.Default, Value: "accept"}
	var fixed string
	switch {
	case b.Action == question.Decline:
		v.Value = "decline"
	case !b.FromInput() && json.Unmarshal(b.Value, &fixed) == nil && fixed != "ok":
		v.Value = fixed // yes, no, allow
	}
	switch {
	case b.Default:
		v.Class = "primary"
	case b.Danger:
		v.Class = "danger"
	case b.Action == question.Decline && !b.IsNo:
		v.Class = "quiet"
	}
	return v
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
	if line, warn := present.RiskLine(q); warn {
		v.Warning = line
	} else {
		v.RiskNote = line
	}
	v.Note = &noteView{Label: "Message to the agent (optional)", Multiline: true}
	if why := present.Unseen(q); why != "" {
		// No allow for what the page cannot show in full (present.Answers).
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
