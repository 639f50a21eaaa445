package control

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"

	"github.com/asktray/asktray/app/hook"
)

// HookHandler answers the calls of `asktray hook AGENT`; app/hookservice
// implements it. Handle blocks while the person decides, at most the
// request's window, and returns early when ctx is done (the hook went
// away); an empty reply is no decision. It calls registered once the request
// is registered (a permission request's question asked), before it starts
// to wait for the person, and never after it returns; a call that returns
// at once need not call it. It is called on the request's goroutine.
type HookHandler interface {
	Handle(ctx context.Context, req hook.Request, registered func()) hook.Reply
}

// hook is POST /v1/hook, the route of hooks older than the acknowledgement:
// it decodes and checks the hook's request, hands it to s.Hooks and writes
// the reply once there is one.
func (s *Server) hook(w http.ResponseWriter, r *http.Request) {
	req, ok := decodeHook(w, r)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, s.Hooks.Handle(r.Context(), req, func() {}))
}

// hookAcked is POST /v2/hook: like /v1/hook, but the reply is two lines of
// JSON, a hook.Ack as soon as the request is registered (flushed at once),
// then the hook.Reply. The hook waits hook.Handshake for the first line and
// steps aside without it, so a stopped app holds no agent.
func (s *Server) hookAcked(w http.ResponseWriter, r *http.Request) {
	req, ok := decodeHook(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	rc := http.NewResponseController(w)
	enc := json.NewEncoder(w)
	var once sync.Once
	ack := func() {
		once.Do(func() {
			w.WriteHeader(http.StatusOK)
			_ = enc.Encode(hook.Ack{Registered: true})
			_ = rc.Flush()
		})
	}
	rep := s.Hooks.Handle(r.Context(), req, ack)
	ack()
	_ = enc.Encode(rep)
}

// decodeHook decodes and checks a hook's request, writing the error response
// when it is not one.
func decodeHook(w http.ResponseWriter, r *http.Request) (hook.Request, bool) {
	var req hook.Request
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return req, false
	}
	if _, err := hook.ParseAgent(string(req.Agent)); err != nil {
		writeError(w, badRequest("agent", err.Error()))
		return req, false
	}
	return req, true
}
