package mcpbridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/asktray/asktray/app/question"
)

// ask runs an ask tool: validate, re-attach or ask, then wait.
func (b *Bridge) ask(ctx context.Context, c caller, spec *toolSpec, raw json.RawMessage) (*toolResult, error) {
	a, err := spec.parseAsk(raw)
	if err != nil {
		return nil, err
	}
	return b.askParsed(ctx, c, spec, a)
}

// askParsed asks a.q for spec's tool: validate, re-attach or ask, then wait.
func (b *Bridge) askParsed(ctx context.Context, c caller, spec *toolSpec, a ask) (*toolResult, error) {
	a.q.Client = c.client
	a.q.Tool, a.q.Origin = spec.name, spec.origin
	if a.q.Origin == "" {
		a.q.Origin = question.OriginAsk
	}
	now := time.Now()
	a.q.Deadline = a.common.deadline(now, b.defaultTimeout())
	if err := a.q.Validate(); err != nil {
		return nil, &argError{describeInvalid(spec, err)}
	}

	key := attachKey{owner: c.owner(), fp: fingerprint(a.q, a.inputFP)}
	unlock := func() {}
	if !spec.notice {
		unlock = b.attach.lock(key)
	}
	defer func() { unlock() }()
	if !spec.notice {
		if id, res := b.attach.find(b.cfg.Broker, key); id != "" {
			unlock()
			unlock = func() {}
			b.cfg.Log.Info("re-attached a repeated question", "id", id, "client", c.client.Name)
			q, _, err := b.cfg.Broker.Get(id)
			if err != nil {
				return nil, err
			}
			if res != nil {
				return b.finished(c, q, res)
			}
			if !a.common.wait() {
				return b.pendingResult(c, q), nil
			}
			return b.await(ctx, c, q, b.window(c.client), nil)
		}
	}
	release, err := b.limit.reserve(b.cfg.Broker, c, spec.notice, b.maxPending())
	if err != nil {
		return nil, err
	}
	var plan *elicitPlan
	if !spec.notice && a.common.wait() {
		plan = b.route(ctx, c, &a.q)
	}
	q, err := b.cfg.Broker.Ask(ctx, a.q)
	release()
	if err != nil {
		if errors.Is(err, question.ErrInvalid) {
			return nil, &argError{describeInvalid(spec, err)}
		}
		return nil, fmt.Errorf("ask: %w", err)
	}
	b.attach.add(key, q.ID)
	unlock()
	unlock = func() {}
	if spec.notice {
		r := b.pendingResult(c, q)
		r.NextStep = "The user has been notified. Nothing comes back; carry on."
		return r, nil
	}
	if !a.common.wait() && q.State == question.StatePending {
		return b.pendingResult(c, q), nil
	}
	if q.State != question.StatePending {
		plan = nil // a rule decided it: nobody is asked
	}
	return b.await(ctx, c, q, b.window(c.client), plan)
}

// await waits up to window for q's outcome, sending progress keep-alives.
// When the window passes, the client goes away or its own request times out
// (notifications/cancelled whose reason says so) the question stays open and
// the result is pending; when the client otherwise cancels the call
// (notifications/cancelled), the question is withdrawn. With a plan, q is
// put to the client's own form meanwhile; when the wait ends first, that
// request is cancelled and q goes to the desktop, the page and the CLI. At
// MCP 2026-07-28 a plan returns at once instead: the form goes back in an
// input_required result (askForm).
func (b *Bridge) await(ctx context.Context, c caller, q question.Question, window time.Duration, plan *elicitPlan) (*toolResult, error) {
	if plan != nil && c.modern {
		return b.askForm(c, q, plan, window), nil
	}
	wctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	var run *elicitRun
	if plan != nil {
		run = b.elicit(wctx, c, q, plan)
	}
	stop := b.keepAlive(wctx, c, q)
	res, err := b.cfg.Broker.Wait(wctx, q.ID)
	stop()
	if run != nil {
		cancel()
		<-run.done
		explicit := ctx.Err() != nil && c.call.withdraws()
		if err != nil && !explicit {
			b.release(q.ID)
		}
		r, err := b.awaitResult(ctx, c, q, res, err)
		if r != nil && run.suspected {
			r.AutoRejectSuspected = true
			r.NextStep = "Your client declined the form faster than a person could read it, so the question was shown to the user elsewhere (desktop, browser page or CLI). " + r.NextStep
		}
		return r, err
	}
	return b.awaitResult(ctx, c, q, res, err)
}

// awaitResult turns what Broker.Wait returned into await's result.
func (b *Bridge) awaitResult(ctx context.Context, c caller, q question.Question, res question.Result, err error) (*toolResult, error) {
	switch {
	case err == nil:
		return b.finished(c, q, &res)
	case errors.Is(err, question.ErrNotFound):
		return nil, &argError{fmt.Sprintf("question_id: no question %q", q.ID)}
	case ctx.Err() != nil && c.call.withdraws():
		// The agent cancelled its call: it no longer wants the answer.
		if werr := b.cfg.Broker.Withdraw(q.ID); werr == nil {
			b.cfg.Log.Info("question withdrawn by notifications/cancelled", "id", q.ID, "reason", c.call.reason)
		}
		return b.pendingResult(c, q), nil
	case ctx.Err() != nil:
		// A dropped connection is not a cancellation (MCP 2025-11-25,
		// basic/transports), nor is the client's own request timeout
		// (notifications/cancelled with a deadline or timeout reason):
		// keep the question for get_answer or a re-ask.
		b.cfg.Log.Info("client stopped waiting; question stays open", "id", q.ID)
		return b.pendingResult(c, q), nil
	default:
		return b.pendingResult(c, q), nil
	}
}

// keepAlive sends notifications/progress every ProgressEvery while ctx
// lasts, when the client gave a progress token. It returns a function that
// stops it and waits for it.
func (b *Bridge) keepAlive(ctx context.Context, c caller, q question.Question) (stop func()) {
	if c.progress == nil {
		return func() {}
	}
	srv := mcpserver.ServerFromContext(ctx)
	if srv == nil {
		srv = b.srv
	}
	every := b.progressEvery()
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		defer close(done)
		t := time.NewTicker(every)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				waited := time.Since(q.Created).Round(time.Second)
				_ = srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
					"progressToken": c.progress, "progress": n,
					"message": fmt.Sprintf("Waiting for the user to answer (%s so far)", waited),
				})
			}
		}
	}()
	return func() { cancel(); <-done }
}

// describeInvalid turns a validation error into one message naming the
// tool's own argument names.
func describeInvalid(spec *toolSpec, err error) string {
	var parts []string
	var walk func(error)
	walk = func(e error) {
		if fe, ok := e.(*question.FieldError); ok {
			parts = append(parts, spec.renameField(fe.Error()))
			return
		}
		if u, ok := e.(interface{ Unwrap() []error }); ok {
			for _, x := range u.Unwrap() {
				walk(x)
			}
		}
	}
	walk(err)
	if len(parts) == 0 {
		return spec.renameField(err.Error())
	}
	return strings.Join(parts, "; ")
}
