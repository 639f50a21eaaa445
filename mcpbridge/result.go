package mcpbridge

import (
	"encoding/json"
	"fmt"
	"github.com/mark3labs/mcp-go/mcp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/asktray/asktray/app/question"
)

// toolResult is the structured result of every tool; fields that do not
// apply to a question's kind are left out.
type toolResult struct {
	QuestionID          string          `json:"question_id"`
	Tool                string          `json:"tool"`     // the tool that asked the question
	Question            string          `json:"question"` // the question as asked (an approval's action)
	Status              string          `json:"status"`
	AnsweredBy          string          `json:"answered_by,omitempty"`
	Reason              string          `json:"reason,omitempty"`
	Via                 string          `json:"via,omitempty"`
	Answer              *string         `json:"answer,omitempty"`
	Source              string          `json:"source,omitempty"`
	Confirmed           *bool           `json:"confirmed,omitempty"`
	Selected            []string        `json:"selected,omitempty"`
	FreeText            string          `json:"free_text,omitempty"`
	Action              string          `json:"action,omitempty"`
	Content             json.RawMessage `json:"content,omitempty"`
	Decision            string          `json:"decision,omitempty"`
	Scope               string          `json:"scope,omitempty"`
	Message             string          `json:"message,omitempty"`
	RuleID              string          `json:"rule_id,omitempty"`
	ElapsedMS           int64           `json:"elapsed_ms"`
	NextStep            string          `json:"next_step"`
	ClientElicitation   bool            `json:"client_elicitation"`
	AutoRejectSuspected bool            `json:"auto_reject_suspected"`

	// guide is what NextStep says, for the entry points that word it
	// their own way (permission_prompt's deny message); never sent.
	guide question.Guidance
	// input, when set, is the whole result instead: an input_required
	// result that puts the question to a 2026-07-28 client's form.
	input *mcp.CallToolResult
}

// pendingResult says the person has not answered q yet.
func (b *Bridge) pendingResult(c caller, q question.Question) *toolResult {
	return &toolResult{
		QuestionID:        b.ref(c, q.ID),
		Tool:              q.Tool,
		Question:          q.Message,
		Status:            string(question.StatePending),
		ElapsedMS:         time.Since(q.Created).Milliseconds(),
		ClientElicitation: c.elicitation,
		NextStep: fmt.Sprintf("The user has not answered yet; the question stays open until %s. Call get_answer with question_id %q to keep waiting. Do not proceed without the answer and do not ask again.",
			q.Deadline.UTC().Format(time.RFC3339), b.ref(c, q.ID)),
	}
}

// finished turns an outcome into the result the ask tool returns, and marks
// it delivered so that a later identical question opens a new dialog. The
// person's allow (or destructive yes) is delivered once: collecting it a
// second time, by any call, is an isError naming the question.
func (b *Bridge) finished(c caller, q question.Question, r *question.Result) (*toolResult, error) {
	grant := r.Outcome == question.Answered && q.Approves(question.Response{Action: question.Accept, Value: r.Value})
	if first := b.attach.delivered(q.ID, grant); !first {
		return nil, argErrorf("question_id: the user's approval of question %s was already delivered; an approval is delivered once. "+
			"Do not act on it again: ask again if you need to do it again", q.ID)
	}
	out := &toolResult{
		QuestionID: b.ref(c, q.ID), Tool: q.Tool, Question: q.Message, Status: string(r.Outcome), AnsweredBy: string(r.DecidedBy),
		Reason: string(r.Reason), Via: string(r.Via), Message: r.Note, RuleID: r.RuleID,
		ElapsedMS: r.DecidedAt.Sub(q.Created).Milliseconds(), ClientElicitation: c.elicitation,
	}
	accepted := r.Outcome == question.Answered || r.Outcome == question.AutoApproved
	if accepted {
		fillAnswer(out, q, r)
	}
	if q.Kind == question.KindApproval {
		out.Decision = "deny"
		if accepted {
			out.Decision = "allow"
		}
		out.Scope = scope(r)
	}
	if q.Kind == question.KindForm {
		switch r.Outcome {
		case question.Answered, question.AutoApproved:
			out.Action = "accept"
		case question.Declined, question.AutoRejected:
			out.Action = "decline"
		default:
			out.Action = "cancel"
		}
	}
	if q.Kind == question.KindConfirm && !accepted {
		out.Confirmed = new(false)
	}
	least := readingTime(q.Message)
	if r.Via == question.ViaElicitation {
		least = humanDecline(q)
	}
	if (r.Outcome == question.Declined || r.Outcome == question.Cancelled) && r.DecidedAt.Sub(q.Created) < least {
		out.AutoRejectSuspected = true
	}
	out.guide = question.Guide(q, *r)
	out.NextStep = out.guide.Text()
	if handedBack(r) {
		out.Status, out.Action = StatusNeedsUserInput, ""
		out.Message, out.NextStep = handbackMessage(q), handbackNextStep
	}
	return out, nil
}

// fillAnswer copies the accepted value into the fields of q's kind.
func fillAnswer(out *toolResult, q question.Question, r *question.Result) {
	switch q.Kind {
	case question.KindText:
		var s string
		_ = json.Unmarshal(r.Value, &s)
		out.Answer = &s
		out.Source = "free_text"
		for _, o := range q.Options {
			if o.Label == s {
				out.Source = "choice"
			}
		}
	case question.KindConfirm:
		var s string
		_ = json.Unmarshal(r.Value, &s)
		out.Answer = &s
		out.Confirmed = new(s == "yes")
	case question.KindChoice, question.KindMultiChoice:
		out.Selected = []string{}
		_ = json.Unmarshal(r.Value, &out.Selected)
		out.FreeText = r.Note
		out.Message = ""
	case question.KindForm:
		out.Content = r.Value
	}
}

// scope says how far an approval's decision reaches: the scope of the rule
// that decided it or was made with it, as the result carries it; "once" for
// the person's own decision; "" for automatic outcomes without a rule
// (timeout, away, ...).
func scope(r *question.Result) string {
	if r.RuleID != "" && r.RuleScope != "" {
		return r.RuleScope
	}
	if r.DecidedBy == question.ByHuman && (r.Outcome == question.Answered || r.Outcome == question.Declined) {
		return "once"
	}
	return ""
}

// readingTime is how long a person needs at least to read message: a decline
// faster than this was probably automatic.
func readingTime(message string) time.Duration {
	words := len(strings.Fields(message))
	d := time.Second + time.Duration(words)*60*time.Millisecond
	return min(d, 5*time.Second+time.Duration(utf8.RuneCountInString(message)/1000)*time.Second)
}
