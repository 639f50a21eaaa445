package hookservice

import (
	"context"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
)

// blockedHeader heads the history row of a call Claude Code's auto mode
// blocked.
const blockedHeader = "Blocked by Claude Code's auto mode"

// blocked records req, Claude Code's PermissionDenied (its auto mode's
// classifier blocked the call; the call did not run), in the history: the
// call as an approval, ended auto_rejected, decided by the agent, reason
// agent_blocked, with the classifier's reason as its note, never as a
// decision of the person's. When the tray had allowed that very call (its
// PreToolUse, by tool_use_id), that row is marked too: the allow did not
// count. It blocks for the history write.
func (h *Service) blocked(ctx context.Context, req hook.Request) {
	if !spec(req.Agent).Installs(hook.PermissionDenied) || req.ToolName == "" {
		return
	}
	h.mu.Lock()
	id, ok := h.takeEnded(req)
	h.mu.Unlock()
	if ok {
		if _, res, err := h.Broker.Get(id); err == nil && res != nil && res.Outcome == question.Answered {
			if err := h.Broker.Annotate(id, question.ReasonAgentBlocked); err != nil {
				h.log().Error("hook: mark blocked", "id", id, "err", err)
			}
		}
	}
	q := approval(req, nil)
	q.Header = blockedHeader
	reason := req.Reason
	if reason == "" {
		reason = "Claude Code's auto mode gave no reason."
	}
	res := question.Result{Outcome: question.AutoRejected, DecidedBy: question.ByAgent, Reason: question.ReasonAgentBlocked,
		Note: clip(reason, question.MaxNote)}
	rec, err := h.Broker.Record(ctx, q, res)
	if err != nil {
		h.log().Error("hook: record what auto mode blocked", "agent", req.Agent, "err", err)
		return
	}
	h.log().Info("hook: blocked by the agent's auto mode", "id", rec.ID, "tool", req.ToolName, "reason", reason)
}
