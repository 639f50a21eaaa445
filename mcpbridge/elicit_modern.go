package mcpbridge

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/asktray/asktray/app/question"
)

// At MCP 2026-07-28 a server sends the client no requests of its own:
// elicitation is a multi round-trip request (SEP-2322). The tool call
// returns a result of type input_required carrying the form and an opaque
// requestState; the client shows the form and calls the tool again with its
// answer in inputResponses and the state echoed back. Asktray's state is
// formStatePrefix and the question's handle, so only the asker's retry
// opens the question, and the retry records the form's answer as an answer
// by elicitation, under the same rules as elicitation/create before
// 2026-07-28 (formAnswer).

// formInputID is the key of the form in inputRequests and inputResponses.
const formInputID = "asktray_form"

// formStatePrefix starts every requestState Asktray issues.
const formStatePrefix = "asktray-form:"

// formRounds are the questions put to a 2026-07-28 client's form, by
// question id: when each went out, in which ask mode, and the timer that
// hands it back to the desktop, the page and the CLI when no retry comes
// within the call's window (the round is then kept, released, so that the
// form's late answer still counts). Only a question in formRounds takes an
// answer from a retry: one that never went to the client's form takes none.
// It is safe for concurrent use.
type formRounds struct {
	mu  sync.Mutex
	out map[string]*formRound
}

type formRound struct {
	sent     time.Time
	mode     question.AskMode
	timer    *time.Timer
	released bool // the window passed: the question is on the desktop too
}

// formRoundsKept is how long a released round waits for the form's late
// answer: the longest a question can be open.
const formRoundsKept = question.MaxTimeout

// put records that q went to the form now, handing it back after window.
func (f *formRounds) put(b *Bridge, id string, mode question.AskMode, window time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.out == nil {
		f.out = map[string]*formRound{}
	}
	for k, r := range f.out {
		if r.released && time.Since(r.sent) > formRoundsKept {
			delete(f.out, k)
		}
	}
	if old := f.out[id]; old != nil {
		old.timer.Stop()
	}
	r := &formRound{sent: time.Now(), mode: mode}
	r.timer = time.AfterFunc(window, func() {
		f.mu.Lock()
		out := f.out[id] == r && !r.released
		r.released = true
		f.mu.Unlock()
		if out {
			b.cfg.Log.Info("no answer from the client's form within the window; the question goes to the desktop, page and CLI", "id", id)
			b.release(id)
		}
	})
	f.out[id] = r
}

// take removes and returns id's round, nil when none is out.
func (f *formRounds) take(id string) *formRound {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := f.out[id]
	if r != nil {
		r.timer.Stop()
		delete(f.out, id)
	}
	return r
}

// askForm is the input_required result that puts q, already asked with
// DeliverTo client, to a 2026-07-28 client's form. The question stays with
// the client for window, then goes to the desktop, the page and the CLI
// unless the client's retry came first. It does not block.
func (b *Bridge) askForm(c caller, q question.Question, p *elicitPlan, window time.Duration) *toolResult {
	b.forms.put(b, q.ID, p.mode, window)
	res := mcpserver.NewInputRequestBuilder(formStatePrefix+b.handles.mint(q.ID)).
		Elicit(formInputID, mcp.ElicitationParams{Message: elicitMessage(q), RequestedSchema: p.schema}).
		ToolResult()
	b.cfg.Log.Info("question sent to the client's form (input_required)", "id", q.ID, "client", c.client.Name)
	return &toolResult{input: res}
}

// resumeForm serves a 2026-07-28 retry that echoes a requestState: the
// client's form answered q (or could not). It records that answer as
// formAnswer does, then waits for q's outcome as an ask does. A state
// Asktray did not issue for this tool gets an isError naming requestState.
// It blocks like an ask.
func (b *Bridge) resumeForm(ctx context.Context, c caller, spec *toolSpec, req mcp.CallToolRequest) (*toolResult, error) {
	h, ok := strings.CutPrefix(req.Params.RequestState, formStatePrefix)
	id, valid := b.handles.open(h)
	if !ok || !valid {
		return nil, argErrorf("requestState: not one Asktray issued; call %s again without requestState and inputResponses", spec.name)
	}
	q, res, err := b.cfg.Broker.Get(id)
	if err != nil || q.Tool != spec.name {
		return nil, argErrorf("requestState: no question of %s behind it; call %s again without requestState", spec.name, spec.name)
	}
	if res != nil {
		b.forms.take(id)
		return b.finished(c, q, res)
	}
	suspected := false
	round := b.forms.take(id)
	ans := mcpserver.ElicitationResponse(req.Params.InputResponses, formInputID)
	switch {
	case ans == nil:
		b.cfg.Log.Warn("the client's retry carries no answer to the form; the question goes to the desktop, page and CLI", "id", id, "client", c.client.Name)
		b.release(id)
	case round == nil:
		// It never went to this client's form: the retry only waits.
		b.cfg.Log.Warn("a retry answers a form Asktray never sent; ignored", "id", id, "client", c.client.Name)
	default:
		// After the window the question is on the desktop too; the
		// form's answer, given in the client, still counts.
		suspected = b.formAnswer(c, q, ans, time.Since(round.sent), round.mode)
	}
	r, err := b.await(ctx, c, q, b.window(c.client), nil)
	if r != nil && suspected {
		r.AutoRejectSuspected = true
		r.NextStep = "Your client declined the form faster than a person could read it, so the question was shown to the user elsewhere (desktop, browser page or CLI). " + r.NextStep
	}
	return r, err
}
