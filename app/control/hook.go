package control

import (
	"context"
	"net/http"

	"github.com/asktray/asktray/app/hook"
)

// HookHandler answers the calls of `asktray hook AGENT`; app/hookservice
// implements it. Handle blocks while the person decides, at most the
// request's window, and returns early when ctx is done (the hook went
// away); an empty reply is no decision. It is called on the request's
// goroutine.
type HookHandler interface {
	Handle(ctx context.Context, req hook.Request) hook.Reply
}

// hook is POST /v1/hook: it decodes and checks the hook's request and hands
// it to s.Hooks.
func (s *Server) hook(w http.ResponseWriter, r *http.Request) {
	var req hook.Request
	if err := decodeBody(r, &req); err != nil {
		writeError(w, err)
		return
	}
	if _, err := hook.ParseAgent(string(req.Agent)); err != nil {
		writeError(w, badRequest("agent", err.Error()))
		return
	}
	writeJSON(w, http.StatusOK, s.Hooks.Handle(r.Context(), req))
}
