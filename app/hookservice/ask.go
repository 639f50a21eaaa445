package hookservice

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// askQuestion is one of AskUserQuestion's questions
// (https://code.claude.com/docs/en/hooks#pretooluse).
type askQuestion struct {
	Question    string            `json:"question"`
	Header      string            `json:"header"`
	Options     []question.Option `json:"options"`
	MultiSelect bool              `json:"multiSelect"`
}

// askUserQuestion asks Claude Code's AskUserQuestion in the tray: one
// question as a choice, several as a form; while away, nothing is asked. The answer goes back as
// updatedInput.answers, question text to label(s); a dismissal, or a
// question that does not fit, leaves it to Claude Code's own prompt.
func (h *Service) askUserQuestion(ctx context.Context, req hook.Request, registered func()) hook.Reply {
	var in struct {
		Questions []askQuestion `json:"questions"`
	}
	if json.Unmarshal(req.ToolInput, &in) != nil || len(in.Questions) == 0 {
		return hook.Reply{}
	}
	q, err := askUserQuestionQ(in.Questions)
	if err != nil {
		h.log().Info("hook: AskUserQuestion left to the agent", "err", err)
		return hook.Reply{}
	}
	q.Client, q.Host = question.Client{Name: string(req.Agent), SessionID: req.SessionID}, req.Host
	q.Tool, q.Origin = hook.Tool, question.OriginAgentQuestion
	if q.Validate() != nil {
		return hook.Reply{}
	}
	ruling := h.Policy.Judge(q)
	if ruling.Hold != policy.NotHeld {
		// Held or ended by away, it is not asked: PreToolUse runs before
		// Claude Code shows its own question, so waiting here would hide
		// it from the person's terminal too, and an away rejection would
		// answer nothing.
		return hook.Reply{}
	}
	res, qid, ok := h.askAndWait(ctx, q, ruling, req, registered)
	if !ok || res.Outcome != question.Answered {
		return hook.Reply{}
	}
	answers, err := answersFrom(in.Questions, res)
	if err != nil {
		h.log().Error("hook: AskUserQuestion answer", "err", err)
		return hook.Reply{}
	}
	return hook.Reply{Behavior: hook.Allow, Answers: answers, QuestionID: qid}
}

func askUserQuestionQ(qs []askQuestion) (question.Question, error) {
	if len(qs) == 1 {
		a := qs[0]
		kind := question.KindChoice
		if a.MultiSelect {
			kind = question.KindMultiChoice
		}
		return question.Question{Kind: kind, Header: clip(a.Header, question.MaxHeader), Message: a.Question, Options: a.Options, FreeText: true}, nil
	}
	props := map[string]any{}
	req := []string{}
	for i, a := range qs {
		labels := make([]string, len(a.Options))
		for j, o := range a.Options {
			labels[j] = o.Label
		}
		var p map[string]any
		if a.MultiSelect {
			p = map[string]any{"type": "array", "title": a.Question, "items": map[string]any{"type": "string", "enum": labels}}
		} else {
			p = map[string]any{"type": "string", "title": a.Question, "enum": labels}
		}
		k := fmt.Sprintf("q%d", i+1)
		props[k] = p
		req = append(req, k)
	}
	schema, err := json.Marshal(map[string]any{"type": "object", "properties": props, "required": req})
	if err != nil {
		return question.Question{}, err
	}
	return question.Question{Kind: question.KindForm, Header: "Claude Code asks", Message: "Claude Code has some questions for you.", Schema: schema}, nil
}

// answersFrom turns the person's answer into AskUserQuestion's answers:
// question text to the label, several labels joined by ", ", or the
// person's own words when they typed them.
func answersFrom(qs []askQuestion, res question.Result) (map[string]string, error) {
	out := map[string]string{}
	if len(qs) == 1 {
		var labels []string
		if err := json.Unmarshal(res.Value, &labels); err != nil {
			return nil, fmt.Errorf("value: %w", err)
		}
		if len(labels) == 0 {
			labels = []string{res.Note}
		}
		out[qs[0].Question] = strings.Join(labels, ", ")
		return out, nil
	}
	var vals map[string]json.RawMessage
	if err := json.Unmarshal(res.Value, &vals); err != nil {
		return nil, fmt.Errorf("value: %w", err)
	}
	for i, a := range qs {
		raw := bytes.TrimSpace(vals[fmt.Sprintf("q%d", i+1)])
		var one string
		var many []string
		switch {
		case json.Unmarshal(raw, &one) == nil:
			out[a.Question] = one
		case json.Unmarshal(raw, &many) == nil:
			out[a.Question] = strings.Join(many, ", ")
		}
	}
	return out, nil
}
