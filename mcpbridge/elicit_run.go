package mcpbridge

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/asktray/asktray/app/question"
)

// MinHumanDecline is the fastest a person can decline or cancel a form they
// have just been shown. Seeing that a form appeared takes about 250 ms,
// reading even a one-line question about a second, and moving to and
// pressing a button another few hundred ms; a client that declines on its
// own answers within one round trip, a few ms. A decline or cancel sooner
// than this, or than readingTime of the message when that is longer, sets
// auto_reject_suspected.
const MinHumanDecline = 1500 * time.Millisecond

// humanDecline is the least time a person needs to decline q's form.
func humanDecline(q question.Question) time.Duration {
	return max(MinHumanDecline, readingTime(q.Message))
}

// elicitPlan is a fresh question that goes to the asking client's form.
type elicitPlan struct {
	schema any
	mode   question.AskMode
}

// elicitRun is one elicitation/create in flight.
type elicitRun struct {
	done      chan struct{}
	suspected bool // set before done closes: an automatic decline was not recorded
}

// route decides where the new question q goes. When it goes to the asking
// client's form, route sets q.DeliverTo and returns the plan; otherwise nil,
// and the question goes to the desktop, the page and the CLI as usual.
func (b *Bridge) route(ctx context.Context, c caller, q *question.Question) *elicitPlan {
	b.mu.RLock()
	mode, desktop := b.cfg.AskMode, b.cfg.Desktop
	b.mu.RUnlock()
	if mode == question.AskDesktop || mode == "" || q.Kind == question.KindNotice || (mode == question.AskAuto && desktop) {
		return nil
	}
	why := ""
	switch {
	case !c.elicitation:
		why = "the client did not declare form elicitation"
	case c.client.SessionID == "" && !c.modern:
		why = "the call has no session to send a form on"
	case mode == question.AskAuto && b.rejecters.has(c.formKey()):
		why = "this client declined earlier forms automatically"
	}
	var schema any
	if why == "" {
		schema, why = elicitSchema(*q, mcpserver.RequestProtocolVersion(ctx))
	}
	if why != "" {
		b.cfg.Log.Info("question not sent to the client's form", "mode", mode, "client", c.client.Name, "kind", q.Kind, "why", why)
		return nil
	}
	q.DeliverTo = question.DeliverClient
	return &elicitPlan{schema: schema, mode: mode}
}

// elicit sends q to the asking client as elicitation/create on a new
// goroutine, bound to ctx, and records what the client answers through the
// broker with via elicitation. When nothing can be recorded (the request
// failed, the content makes no answer, or in auto mode the client declined
// faster than a person could) the question goes back to the desktop, the
// page and the CLI. Wait on the returned run's done before reading it.
func (b *Bridge) elicit(ctx context.Context, c caller, q question.Question, p *elicitPlan) *elicitRun {
	run := &elicitRun{done: make(chan struct{})}
	srv := mcpserver.ServerFromContext(ctx)
	if srv == nil {
		srv = b.srv
	}
	go func() {
		defer close(run.done)
		sent := time.Now()
		res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{
			Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)},
			Params:  mcp.ElicitationParams{Message: elicitMessage(q), RequestedSchema: p.schema},
		})
		took := time.Since(sent)
		if err != nil {
			if ctx.Err() == nil {
				b.cfg.Log.Warn("elicitation failed; the question goes to the desktop, page and CLI", "id", q.ID, "client", c.client.Name, "err", err)
				if p.mode == question.AskAuto {
					b.rejecters.add(c.formKey()) // do not try this client's form again
				}
				b.release(q.ID)
			}
			return
		}
		run.suspected = b.formAnswer(c, q, res, took, p.mode)
	}()
	return run
}

// formAnswer records res, what the client's form answered for q took after
// it went out, through the broker with via elicitation. When nothing can be
// recorded (the content makes no answer or says yes to an action, or in
// auto mode the client declined faster than a person could) q goes back to
// the desktop, the page and the CLI; suspected says it was that fast
// decline. It blocks only on the broker; any goroutine may call it.
func (b *Bridge) formAnswer(c caller, q question.Question, res *mcp.ElicitationResult, took time.Duration, mode question.AskMode) (suspected bool) {
	log := b.cfg.Log.With("id", q.ID, "client", c.client.Name)
	var r question.Response
	switch res.Action {
	case mcp.ElicitationResponseActionAccept:
		var ok bool
		if r, ok = elicitResponse(q, res.Content); !ok {
			log.Warn("the client's form came back without an answer; the question goes to the desktop, page and CLI")
			b.release(q.ID)
			return false
		}
		if q.Approves(r) {
			// Never reached: neverOnForm keeps such questions off the
			// form. Should one get here, the client's yes is not the
			// person's.
			log.Error("the client's form said yes to an action; not recorded, the question goes to the desktop, page and CLI")
			b.release(q.ID)
			return false
		}
	case mcp.ElicitationResponseActionDecline, mcp.ElicitationResponseActionCancel:
		r = question.Response{Action: question.Action(res.Action), Via: question.ViaElicitation}
		if took < humanDecline(q) && mode == question.AskAuto {
			// Do not record a decline the person never saw; stop
			// sending this client's questions to its form.
			log.Warn("the client declined the form automatically; the question goes to the desktop, page and CLI", "action", res.Action, "after", took)
			b.rejecters.add(c.formKey())
			b.release(q.ID)
			return true
		}
	default:
		log.Warn("the client answered the form with an unknown action", "action", res.Action)
		b.release(q.ID)
		return false
	}
	if err := b.cfg.Broker.Answer(q.ID, r); err != nil {
		if errors.Is(err, question.ErrInvalid) {
			log.Warn("the client's form answer does not fit the question; it goes to the desktop, page and CLI", "err", err)
			b.release(q.ID)
		} else if !errors.Is(err, question.ErrNotPending) {
			log.Error("record the client's form answer", "err", err)
		}
	}
	return false
}

// release hands pending question id back to the desktop, the page and the CLI.
func (b *Bridge) release(id string) {
	if err := b.cfg.Broker.SetDeliverTo(id, ""); err != nil && !errors.Is(err, question.ErrNotPending) {
		b.cfg.Log.Warn("hand question back to the desktop", "id", id, "err", err)
	}
}

// sessionSet remembers MCP session ids; it is safe for concurrent use.
type sessionSet struct {
	mu  sync.Mutex
	ids map[string]bool
}

func (s *sessionSet) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ids == nil {
		s.ids = map[string]bool{}
	}
	s.ids[id] = true
}

func (s *sessionSet) has(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ids[id]
}

func (s *sessionSet) remove(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ids, id)
}

// AskMode returns where questions asked now go. Any goroutine may call it.
func (b *Bridge) AskMode() question.AskMode {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.cfg.AskMode == "" {
		return question.AskDesktop
	}
	return b.cfg.AskMode
}
