package hookservice

import (
	"context"
	"strings"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// doctor shows the test request of 'asktray doctor' (hook.Doctor), sent
// through an installed hook command, as a notice, and returns at once with
// the notice's id and no decision: a test is never an approval. req.Message
// names the hook file the command came from.
func (h *Service) doctor(ctx context.Context, req hook.Request) hook.Reply {
	name := hook.Title(req.Agent)
	from := ""
	if f := strings.TrimSpace(req.Message); f != "" {
		from = " in " + f
	}
	q := question.Question{
		Kind: question.KindNotice, Client: question.Client{Name: string(req.Agent), SessionID: req.SessionID}, Host: req.Host,
		Header: clip("Asktray doctor: "+name+" hook works", question.MaxHeader),
		Message: clip("A test request from 'asktray doctor' reached Asktray through the "+name+" hook"+from+
			". This is a notice only: nothing was asked and nothing was allowed.", question.MaxMessage),
	}
	asked, err := h.Broker.Ask(ctx, q)
	if err != nil {
		h.log().Error("hook: doctor notice", "agent", req.Agent, "err", err)
		return hook.Reply{}
	}
	return hook.Reply{QuestionID: asked.ID}
}
