package hookservice

import (
	"context"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
)

// Claude Code runs PreToolUse before every tool call, in every permission
// mode, and waits for it before anything else: its own permission check
// (the auto mode classifier, or Manual mode's dialog, which fires
// PermissionRequest) comes only after the hook returned no decision. Since
// 2.1.283 its default mode is auto, which fires PermissionRequest almost
// never, so PreToolUse is where the person's rules and the tray hold in
// every mode.

// deferKeep is how long a tool call that PreToolUse took to the tray and
// left undecided (dismissed, timed out, held while away, past the session's
// bound) is remembered, so that the PermissionRequest Manual mode then
// fires for the same call is not asked a second time. Claude Code sends it
// within a tenth of a second (2.1.332).
const deferKeep = time.Minute

// preAsked is a tool call PreToolUse took to the tray without a decision.
type preAsked struct {
	session, tool, input string
	at                   time.Time
}

// preToolUse decides Claude Code's PreToolUse for req, in this order: a
// deny rule denies, with its note as the reason the model reads; an allow
// rule allows; a call graded high risk (or destructive), or one an ask rule
// matches, is asked in the tray, whose allow allows and whose deny denies
// with the person's note; anything else gets no decision, at once, and
// Claude Code's own mode decides. Asktray's own MCP tools are allowed: each
// asks the person itself. It blocks while the tray asks; registered is
// called once the question is asked.
func (h *Service) preToolUse(ctx context.Context, req hook.Request, registered func()) hook.Reply {
	if hook.OwnTool(req.ToolName) {
		return hook.Reply{Behavior: hook.Allow}
	}
	q := approval(req, nil)
	ruling := h.Policy.Judge(q) // the rules, an ask rule included, matched once
	if !ruling.Matched && !policy.Guarded(q) {
		return hook.Reply{} // Claude Code's mode decides; nothing is asked
	}
	if !ruling.Matched || ruling.Rule.Decision == policy.Ask {
		if ruling.Hold == policy.Held || h.openCount(req.Agent, req.SessionID) >= question.ClampMaxPending(h.settings().MaxPending) {
			h.notePreAsked(req)
			return hook.Reply{}
		}
	}
	// A rule's decision goes through the Broker too (AskGated), so the
	// history records it as any rule decision.
	res, qid, ok := h.askAndWait(ctx, q, ruling, req, registered)
	rep := hook.Reply{}
	if ok {
		rep = replyFor(q, res)
		rep.QuestionID = qid
	}
	if rep.Behavior == "" {
		h.notePreAsked(req)
	}
	return rep
}

// notePreAsked remembers req's call as taken to the tray by PreToolUse with
// no decision.
func (h *Service) notePreAsked(req hook.Request) {
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	kept := h.pre[:0]
	for _, p := range h.pre {
		if now.Sub(p.at) <= deferKeep {
			kept = append(kept, p)
		}
	}
	h.pre = append(kept, preAsked{session: req.SessionID, tool: req.ToolName, input: inputKey(req.ToolInput), at: now})
}

// takePreAsked reports whether req, a PermissionRequest, is for a call
// PreToolUse already took to the tray (the person saw it, dismissed it or
// let it pass, or away held it), and forgets that call: Manual mode fires
// both events for one call, and the person is asked once.
func (h *Service) takePreAsked(req hook.Request) bool {
	if !spec(req.Agent).GatesToolUse || req.SessionID == "" {
		return false
	}
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, p := range h.pre {
		if p.session == req.SessionID && p.tool == req.ToolName && now.Sub(p.at) <= deferKeep && inputCovers(p.input, req.ToolInput) {
			h.pre = append(h.pre[:i], h.pre[i+1:]...)
			return true
		}
	}
	return false
}
