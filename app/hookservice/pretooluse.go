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
// asks the person itself. An agent that would ask again after an allow in
// its current mode (hook.Spec.Approves) is asked nothing in the tray
// (notFinal), and one that would run a call the person left undecided gets
// it sent to its own prompt (undecided). It blocks while the tray asks; registered is
// called once the question is asked.
func (h *Service) preToolUse(ctx context.Context, req hook.Request, registered func()) hook.Reply {
	sp := spec(req.Agent)
	if sp.IsOwnTool(req.ToolName) {
		if !sp.ApprovesIn(req.PermissionMode) {
			return hook.Reply{} // the agent's own mode runs it
		}
		return hook.Reply{Behavior: hook.Allow}
	}
	q := approval(req, nil)
	ruling := h.Policy.Judge(q) // the rules, an ask rule included, matched once
	if !ruling.Matched && !policy.Guarded(q) {
		return hook.Reply{} // Claude Code's mode decides; nothing is asked
	}
	if !sp.ApprovesIn(req.PermissionMode) && !ruling.Decided {
		return notFinal(q)
	}
	if !ruling.Matched || ruling.Rule.Decision == policy.Ask {
		if ruling.Hold == policy.Held || h.openCount(req.Agent, req.SessionID) >= question.ClampMaxPending(h.settings().MaxPending) {
			h.notePreAsked(req)
			return undecided(sp, question.Result{})
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
		u := undecided(sp, res)
		rep.Behavior, rep.Message = u.Behavior, u.Message
	}
	return rep
}

// undecided is the reply to a call the tray took up and the person did not
// decide (res: dismissed, timed out; the zero Result when it was held while
// away or past the session's bound): no decision, so the agent's own mode
// decides; but an agent whose hook's allow is final in some mode
// (Spec.Approves: Gemini CLI's yolo) would then run it unasked, so it is
// sent to the agent's own prompt, and an agent that would run it unasked
// and has no such answer (Spec.RunsUndecided: Cline) gets a deny, which
// stops it, unless the person dismissed the question.
func undecided(sp hook.Spec, res question.Result) hook.Reply {
	switch {
	case sp.RunsUndecided && res.Outcome == question.Cancelled && res.DecidedBy == question.ByHuman:
		return hook.Reply{} // dismissed: left to the agent, as the dialog says
	case sp.RunsUndecided:
		return hook.Reply{Behavior: hook.Deny, Message: unansweredNote}
	case sp.Approves != nil:
		return hook.Reply{Behavior: hook.AskAgent}
	}
	return hook.Reply{}
}

// unansweredNote is the deny's message for a call the tray asked about and
// got no answer for, sent to an agent that would otherwise run it unasked
// (Spec.RunsUndecided).
const unansweredNote = "Asktray: no answer in the tray, so the call was stopped"

// notFinal answers a call the tray would ask about (graded high risk, or
// an ask rule matched) whose agent would ask the person again after the
// tray's allow (Gemini CLI outside yolo mode): nothing is asked in the tray
// (the person would answer twice); the call goes to the agent's own prompt
// with a warning. A rule that decides (a deny rule above all) still
// decides, through the Broker, before this.
func notFinal(q question.Question) hook.Reply {
	return hook.Reply{Behavior: hook.AskAgent, Message: "Asktray: " + string(q.Risk) + " risk. " +
		"The tray asks only in yolo mode, where its answer is final: decide here."}
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
