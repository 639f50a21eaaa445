package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/question"

	"github.com/asktray/asktray/app/question/present"
)

// noTerminalHelp is what the CLI says when it would need the person at a
// terminal and has none.
const noTerminalHelp = "answer it in the Asktray dialog or on the question's page in a browser " +
	"(the tray's Open in browser menu, or 'asktray pending' run in your terminal)"

// walkChoice is one thing the person can do with a question in the walk.
type walkChoice struct {
	label string
	// act returns the answer to send, or nil when the choice is handled
	// otherwise (skip, snooze, quit) or the person went back.
	act func(t *terminal) (*control.AnswerRequest, error)
	// special is "skip", "snooze" or "quit" for the choices that send no answer.
	special string
}

func accept(v string) func(*terminal) (*control.AnswerRequest, error) {
	return func(*terminal) (*control.AnswerRequest, error) {
		return &control.AnswerRequest{Action: question.Accept, Value: json.RawMessage(v)}, nil
	}
}

func plain(a question.Action) func(*terminal) (*control.AnswerRequest, error) {
	return func(*terminal) (*control.AnswerRequest, error) { return &control.AnswerRequest{Action: a}, nil }
}

func quoted(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// choicesFor returns the walk's choices for q and the one selected at
// first. They are q's answer buttons as the one model states them
// (present.Answers) listed right to left, the yes, allow or OK first and
// the no last, an OK that takes input replaced by the walk's way of giving
// it (the options, Type an answer…, Pick…, Fill in the form…); then a
// confirm's Decline, and dismiss, snooze, skip and quit. The one selected
// is the model's default (the first way of giving input when that is the
// default): never the one that approves.
func choicesFor(q question.Question) ([]walkChoice, int) {
	var cs []walkChoice
	sel := 0
	bs := present.Answers(&q) // no Allow for what cannot be seen: showQuestion said why
	for _, b := range slices.Backward(bs) {
		if b.FromInput() {
			cs = append(cs, inputChoices(q)...)
			continue
		}
		if b.Default {
			sel = len(cs)
		}
		act := plain(b.Action)
		if b.Value != nil {
			act = accept(string(b.Value))
		}
		cs = append(cs, walkChoice{label: b.Label, act: act})
	}
	if q.Kind == question.KindConfirm {
		cs = append(cs, walkChoice{label: "Decline", act: plain(question.Decline)})
	}
	cs = append(cs, walkChoice{label: "Dismiss", act: plain(question.Cancel)},
		walkChoice{label: "Snooze for an hour", special: "snooze"},
		walkChoice{label: "Skip for now", special: "skip"},
		walkChoice{label: "Quit", special: "quit"})
	return cs, sel
}

// inputChoices returns the walk's ways of giving the input that q's OK
// or Submit accepts: each option, typing an answer, picking several or
// filling in the form.
func inputChoices(q question.Question) []walkChoice {
	switch q.Kind {
	case question.KindMultiChoice:
		return []walkChoice{{label: "Pick…", act: pickMany(q)}}
	case question.KindForm:
		return []walkChoice{{label: "Fill in the form…", act: fillForm(q)}}
	}
	var cs []walkChoice
	for _, o := range q.Options {
		v := quoted(o.Label)
		if q.Kind == question.KindChoice {
			v = "[" + v + "]"
		}
		cs = append(cs, walkChoice{label: optionLabel(o), act: accept(v)})
	}
	if q.FreeText || (q.Kind == question.KindText && len(q.Options) == 0) {
		cs = append(cs, walkChoice{label: "Type an answer…", act: typeAnswer(q)})
	}
	return cs
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func optionLabel(o question.Option) string {
	if o.Description != "" {
		return o.Label + " — " + o.Description
	}
	return o.Label
}

func typeAnswer(q question.Question) func(*terminal) (*control.AnswerRequest, error) {
	return func(t *terminal) (*control.AnswerRequest, error) {
		line, ok, err := t.readLine("Answer (Enter to send, Esc to go back): ")
		if err != nil || !ok {
			return nil, err
		}
		if q.Kind == question.KindChoice {
			v, _ := json.Marshal(map[string]any{"selected": []string{}, "free_text": line})
			return &control.AnswerRequest{Action: question.Accept, Value: v}, nil
		}
		return &control.AnswerRequest{Action: question.Accept, Value: json.RawMessage(quoted(line))}, nil
	}
}

func pickMany(q question.Question) func(*terminal) (*control.AnswerRequest, error) {
	return func(t *terminal) (*control.AnswerRequest, error) {
		for i, o := range q.Options {
			t.printf("  %d. %s\n", i+1, optionLabel(o))
		}
		line, ok, err := t.readLine("Numbers separated by commas (Esc to go back): ")
		if err != nil || !ok {
			return nil, err
		}
		picks := []string{}
		for f := range strings.FieldsFuncSeq(line, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
			var n int
			if _, err := fmt.Sscan(f, &n); err != nil || n < 1 || n > len(q.Options) {
				t.printf("%q is not a number from 1 to %d\n", f, len(q.Options))
				return nil, nil
			}
			picks = append(picks, q.Options[n-1].Label)
		}
		v, _ := json.Marshal(picks)
		return &control.AnswerRequest{Action: question.Accept, Value: v}, nil
	}
}

// showQuestion prints q in full: who asks, what, and everything the dialog shows.
func showQuestion(t *terminal, q control.PendingQuestion, n, of int) {
	left := time.Until(q.Deadline).Round(time.Second)
	t.printf("\n\x1b[1mQuestion %d of %d\x1b[0m · %s · %s · %s left\n", n, of, q.Client.DisplayName(), q.Kind, left)
	if q.Tool != "" {
		t.printf("Asked with: %s\n", q.Tool)
	}
	if q.Header != "" {
		t.printf("%s\n", q.Header)
	}
	if q.Action != "" {
		t.printf("\nAction: \x1b[1m%s\x1b[0m\n", q.Action)
	}
	if q.Message != "" && q.Message != q.Action {
		t.printf("\n%s\n", q.Message)
	}
	if q.Details != "" {
		t.printf("\nDetails:\n%s\n", indent(present.Compact(q.Details)))
	}
	if q.AgentReason != "" {
		t.printf("\nWhy the agent asks: %s\n", q.AgentReason)
	}
	if line, _ := present.RiskLine(&q.Question); line != "" {
		t.printf("%s\n", line)
	}
	if q.Destructive {
		t.printf("This cannot be undone.\n")
	}
	if why := present.Unseen(&q.Question); why != "" {
		t.printf("%s\n", why)
	}
	if q.URL != "" {
		t.printf("Page: %s\n", q.URL)
	}
	t.printf("\n")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// walk answers the pending questions one at a time on the terminal, until
// none is left or the person quits. It blocks on the person.
func walk(ctx context.Context, c *control.Client, t *terminal) error {
	skipped := map[string]bool{}
	for {
		qs, err := c.PendingLinks(ctx)
		if err != nil {
			return err
		}
		var todo []control.PendingQuestion
		for _, q := range qs {
			if !skipped[q.ID] {
				todo = append(todo, q)
			}
		}
		if len(todo) == 0 {
			t.printf("No pending questions left.\n")
			return nil
		}
		quit, err := askOne(ctx, c, t, todo[0], len(qs)-len(todo)+1, len(qs), skipped)
		if err != nil || quit {
			return err
		}
	}
}

// askOne shows q and acts on the person's choice; it reports whether they quit.
func askOne(ctx context.Context, c *control.Client, t *terminal, q control.PendingQuestion, n, of int, skipped map[string]bool) (bool, error) {
	showQuestion(t, q, n, of)
	cs, sel := choicesFor(q.Question)
	labels := make([]string, len(cs))
	for i, ch := range cs {
		labels[i] = ch.label
	}
	i, err := t.menu(labels, sel)
	if err != nil || i < 0 {
		return true, err
	}
	switch cs[i].special {
	case "quit":
		return true, nil
	case "skip":
		skipped[q.ID] = true
		return false, nil
	case "snooze":
		if _, err := c.Snooze(ctx, q.ID, time.Now().Add(time.Hour)); err != nil {
			t.printf("Not snoozed: %v\n", explainAnswerError(err))
		}
		skipped[q.ID] = true
		return false, nil
	}
	req, err := cs[i].act(t)
	if err != nil || req == nil {
		return false, err
	}
	return false, send(ctx, c, t, q.Question, *req)
}

// send gives req to q, first asking for the login password when it
// approves and the app needs it. A refusal by the app is shown, not
// returned: the walk goes on.
func send(ctx context.Context, c *control.Client, t *terminal, q question.Question, req control.AnswerRequest) error {
	var it control.Item
	var err error
	if q.Approves(question.Response{Action: req.Action, Value: req.Value}) {
		it, err = approve(ctx, c, t, q.ID, req)
	} else {
		req.TerminalConfirmed = true
		it, err = c.Answer(ctx, q.ID, req)
	}
	var ae *control.APIError
	switch {
	case errors.Is(err, errNotConfirmed):
		t.printf("Not confirmed; the question stays pending.\n")
	case errors.As(err, &ae):
		t.printf("%s\n", explainAnswerError(err))
	case err != nil:
		return err
	default:
		t.printf("%s: %s\n", it.Question.ID, it.Result.Outcome)
	}
	return nil
}
