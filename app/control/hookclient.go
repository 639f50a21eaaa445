package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// ErrNoAck means the app took the hook's connection but did not acknowledge
// the request within hook.Handshake: it is stopped (SIGSTOP), stuck or too
// busy, and the hook steps aside.
var ErrNoAck = fmt.Errorf("the app did not acknowledge the request within %s", hook.Handshake)

// replySlack is how long past the request's wait the client waits for the
// app's reply: the app ends the wait itself and answers at once then.
const replySlack = 2 * time.Second

// maxReply bounds the reply a hook reads.
const maxReply = 1 << 20

// Hook sends an agent's hook call and returns the app's decision. It blocks,
// never without a bound: at most hook.Handshake until the app acknowledges
// the request (POST /v2/hook's first line, once the question is
// registered), failing with an error wrapping ErrNoAck without it; then
// until the decision, at most the request's wait (req.WaitMS; 0 means
// hook.MaxDeadline) and replySlack, or ctx's end. An app older than the
// acknowledgement, which does not serve /v2/hook, is asked on /v1/hook with
// the overall bound only. Any goroutine may call it.
func (c *Client) Hook(ctx context.Context, req hook.Request) (hook.Reply, error) {
	wait := time.Duration(req.WaitMS) * time.Millisecond
	if wait <= 0 || wait > hook.MaxDeadline {
		wait = hook.MaxDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, wait+replySlack)
	defer cancel()
	hc := *c.hc
	hc.Timeout = 0 // bounded by ctx and the handshake instead
	rep, err := c.hookAcked(ctx, &hc, req)
	if !errors.Is(err, errOldApp) {
		return rep, err
	}
	return rep, c.with(&hc).do(ctx, http.MethodPost, "/v1/hook", req, &rep)
}

// errOldApp means the app does not serve POST /v2/hook.
var errOldApp = errors.New("the app does not serve /v2/hook")

// hookAcked is Hook on POST /v2/hook. It blocks like Hook.
func (c *Client) hookAcked(ctx context.Context, hc *http.Client, req hook.Request) (hook.Reply, error) {
	var rep hook.Reply
	hctx, hcancel := context.WithCancelCause(ctx)
	defer hcancel(nil)
	handshake := time.AfterFunc(hook.Handshake, func() { hcancel(ErrNoAck) })
	defer handshake.Stop()
	noAck := func(err error) error {
		if errors.Is(context.Cause(hctx), ErrNoAck) {
			return ErrNoAck
		}
		return err
	}
	resp, err := c.send(hctx, hc, http.MethodPost, "/v2/hook", req)
	if err != nil {
		return rep, noAck(err)
	}
	defer resp.Body.Close()
	body := io.LimitReader(resp.Body, maxReply)
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return rep, errOldApp
	default:
		b, _ := io.ReadAll(body)
		return rep, noAck(apiErrorOf(resp.StatusCode, b))
	}
	dec := json.NewDecoder(body)
	var ack hook.Ack
	if err := dec.Decode(&ack); err != nil {
		return rep, noAck(fmt.Errorf("read the acknowledgement: %w", err))
	}
	if !handshake.Stop() || !ack.Registered {
		return rep, ErrNoAck
	}
	if err := dec.Decode(&rep); err != nil {
		return hook.Reply{}, fmt.Errorf("read reply: %w", err)
	}
	return rep, nil
}
