package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/asktray/asktray/app/question"
)

// ToolGetAnswer collects the outcome of an earlier question and
// ToolCancelQuestion withdraws one. The names are fixed: agents and user
// configs refer to them.
const (
	ToolGetAnswer      = "get_answer"
	ToolCancelQuestion = "cancel_question"
)

var (
	getAnswerSpec      = &toolSpec{name: ToolGetAnswer, define: getAnswerTool, serve: serveGetAnswer}
	cancelQuestionSpec = &toolSpec{name: ToolCancelQuestion, define: cancelQuestionTool, serve: serveCancel}
)

// getAnswerTool defines get_answer.
func getAnswerTool(name string) mcp.Tool {
	return newTool(name, "Get the answer to a question",
		"Fetch the outcome of a question you asked earlier (status pending, or your call timed out), waiting up to wait_seconds for the user. Returns the same result the ask tool would have returned; if status is still pending, call get_answer again.",
		input(obj{
			"question_id":  str("The question_id from the earlier result."),
			"wait_seconds": integer("How long to wait for the answer (0 returns at once). Capped at what your client tolerates.", 0, 3600),
		}, []string{"question_id"}, false),
		output(obj{
			"answer": str("ask_user, ask_text, ask_confirm: the answer."), "source": str("ask_user: choice or free_text."),
			"confirmed": boolean("ask_confirm: true only on yes."), "selected": obj{"type": "array", "items": obj{"type": "string"}},
			"free_text": str("ask_choice, ask_multi_select: the note."), "action": obj{"type": "string", "enum": []string{"accept", "decline", "cancel"}},
			"content":  obj{"type": "object"},
			"decision": obj{"type": "string", "enum": []string{"allow", "deny"}}, "scope": obj{"type": "string", "enum": []string{"once", "session", "always"}},
		}),
		true, false, true)
}

// cancelQuestionTool defines cancel_question.
func cancelQuestionTool(name string) mcp.Tool {
	return newTool(name, "Withdraw a question",
		"Withdraw a question you asked that is still pending, because you no longer need the answer: its dialog closes and the history records it as withdrawn. Returns its final status; if the user had already answered, that answer is returned instead.",
		input(obj{"question_id": str("The question_id to withdraw.")}, []string{"question_id"}, false),
		output(obj{}),
		false, false, true)
}

func serveGetAnswer(b *Bridge, ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) *mcp.CallToolResult {
	res, err := b.getAnswer(ctx, c, spec, raw)
	return b.result(spec, res, err)
}

func serveCancel(b *Bridge, _ context.Context, c caller, spec *toolSpec, raw json.RawMessage) *mcp.CallToolResult {
	res, err := b.cancelQuestion(c, spec, raw)
	return b.result(spec, res, err)
}

// getAnswer runs get_answer.
func (b *Bridge) getAnswer(ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) (*toolResult, error) {
	var in struct {
		QuestionID  string `json:"question_id"`
		WaitSeconds *int64 `json:"wait_seconds"`
	}
	if err := spec.decode(raw, &in); err != nil {
		return nil, err
	}
	if in.QuestionID == "" {
		return nil, argErrorf("question_id: required")
	}
	if in.WaitSeconds != nil && (*in.WaitSeconds < 0 || *in.WaitSeconds > MaxWaitSeconds) {
		return nil, argErrorf("wait_seconds: must be between 0 and %d, got %d", MaxWaitSeconds, *in.WaitSeconds)
	}
	id, mine := b.resolve(c, in.QuestionID)
	if !mine {
		// Another asker's question is as unknown as no question at all.
		return nil, argErrorf("question_id: no question %q; use the question_id from an earlier result", in.QuestionID)
	}
	q, res, err := b.cfg.Broker.Get(id)
	if errors.Is(err, question.ErrNotFound) {
		// Another asker's question is as unknown as no question at all.
		return nil, argErrorf("question_id: no question %q; use the question_id from an earlier result", in.QuestionID)
	} else if err != nil {
		return nil, err
	}
	if res != nil {
		return b.finished(c, q, res)
	}
	window := b.window(c.client)
	if in.WaitSeconds != nil {
		window = min(window, time.Duration(*in.WaitSeconds)*time.Second)
	}
	if window == 0 {
		return b.pendingResult(c, q), nil
	}
	return b.await(ctx, c, q, window, nil)
}

// cancelQuestion runs cancel_question.
func (b *Bridge) cancelQuestion(c caller, spec *toolSpec, raw json.RawMessage) (*toolResult, error) {
	var in struct {
		QuestionID string `json:"question_id"`
	}
	if err := spec.decode(raw, &in); err != nil {
		return nil, err
	}
	if in.QuestionID == "" {
		return nil, argErrorf("question_id: required")
	}
	id, mine := b.resolve(c, in.QuestionID)
	if !mine {
		// Another asker's question is as unknown as no question at all.
		return nil, argErrorf("question_id: no question %q", in.QuestionID)
	}
	err := b.cfg.Broker.Withdraw(id)
	if err != nil && !errors.Is(err, question.ErrNotPending) {
		if errors.Is(err, question.ErrNotFound) {
			return nil, argErrorf("question_id: no question %q", in.QuestionID)
		}
		return nil, err
	}
	q, res, gerr := b.cfg.Broker.Get(id)
	if gerr != nil {
		return nil, gerr
	}
	if res == nil {
		return b.pendingResult(c, q), nil
	}
	r, ferr := b.finished(c, q, res)
	if ferr != nil {
		return nil, ferr
	}
	if err != nil { // it had ended before
		r.NextStep = "It had already ended before you withdrew it. " + r.NextStep
	}
	return r, nil
}
