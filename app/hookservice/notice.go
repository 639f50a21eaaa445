package hookservice

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// noticeText words an agent's notification for a person, saying who and
// where: the header names the agent and what its own terminal does ("Claude
// Code is asking in its terminal"), the message starts with the project
// (noticeWhere) and goes on with the agent's own words ("payments-service
// (session 3f2a1b9c…): Claude needs your permission to use Bash"), or a
// sentence of ours when it sent none. home is the person's home directory.
// Claude Code's types: https://code.claude.com/docs/en/hooks#notification;
// Copilot CLI's: https://docs.github.com/en/copilot/reference/hooks-reference#notification-hook.
func noticeText(req hook.Request, home string) (header, msg string) {
	name := hook.Title(req.Agent)
	var doing, fallback string
	switch req.NotificationType {
	case "permission_prompt", "ToolPermission": // Gemini CLI 0.61.0: ToolPermission
		doing, fallback = " is asking in its terminal", name+" needs your permission."
	case "agent_needs_input", "elicitation_dialog", "elicitation_url_dialog":
		doing, fallback = " is asking in its terminal", name+" needs your input."
	case "idle_prompt", "agent_idle":
		doing, fallback = " is waiting in its terminal", name+" has finished and is waiting for your next message."
	case "agent_completed", "shell_completed":
		doing, fallback = " has finished", "A background task of "+name+" has finished."
	default:
		fallback = name + " sent a notification."
		if t := strings.TrimSpace(req.Title); t != "" {
			doing = ": " + t
		}
	}
	msg = strings.TrimSpace(req.Message)
	if msg == "" {
		msg = fallback
	}
	if where := noticeWhere(req.Cwd, req.SessionID, home); where != "" {
		msg = where + ": " + msg
	}
	return clip(name+doing, question.MaxHeader), clip(msg, question.MaxMessage)
}

// noticeWhere names the project and the session a notice comes from:
// "payments-service (session 3f2a1b9c…)". The project is the last element
// of the working directory the agent reported, "~" for the home directory
// home; the session is its id's first 8 characters (present.ShortSession).
// Either is left out when the agent did not send it.
func noticeWhere(cwd, session, home string) string {
	project := present.Project(cwd)
	switch {
	case cwd != "" && present.HomePath(cwd, home) == "~":
		project = "~"
	case cwd != "" && project == "":
		project = cwd // the root
	}
	if session == "" {
		return project
	}
	s := "session " + present.ShortSession(session)
	if project == "" {
		return s
	}
	return project + " (" + s + ")"
}

// home is the person's home directory: Service.Home, else the process's.
func (h *Service) home() string {
	if h.Home != "" {
		return h.Home
	}
	d, _ := os.UserHomeDir() // "" when unknown: the path stays as it is
	return d
}

// notify shows req's notification in the tray and the history, as a notice,
// and returns at once. A permission prompt of a session whose request the
// tray already shows adds nothing. seq is what staleNotices returned for req:
// the notice is withdrawn (reason answered in the agent) by its session's
// next event of any kind, since it is stale then, even one that arrived while
// it was being asked. late (from staleNotices) says that the session sent
// a later event before this notification was read (an app stopped for a
// while reads what queued meanwhile in any order): the notice is stale at
// once and is withdrawn as soon as it is asked.
func (h *Service) notify(ctx context.Context, req hook.Request, seq uint64, late bool) {
	if req.NotificationType == "permission_prompt" && h.sessionOpen(req.Agent, req.SessionID) {
		return
	}
	header, msg := noticeText(req, h.home())
	q := question.Question{
		Kind: question.KindNotice, Client: question.Client{Name: string(req.Agent), SessionID: req.SessionID}, Host: req.Host,
		Tool: noticeTool, Origin: question.OriginAgentNotice, Header: header, Message: msg,
	}
	asked, err := h.Broker.Ask(ctx, q)
	if err != nil {
		h.log().Error("hook: notice", "agent", req.Agent, "err", err)
		return
	}
	if late || req.SessionID != "" && !h.trackNotice(asked.ID, sessionKey{req.Agent, req.SessionID}, seq) {
		h.withdrawNotices([]string{asked.ID})
	}
}

// sessionEvents counts the hook events of one session, so that a notice
// asked while the next event of its session arrived is known to be stale.
type sessionEvents struct {
	n  uint64
	at time.Time
	// sent is the newest hook.Request.SentMS of the session's events.
	sent int64
}

// staleNotices withdraws the notices of req's session, as any event of the
// session shows it moved on from them: the person answered in the agent's
// terminal (PostToolUse, PermissionRequest, UserPromptSubmit…), the session
// ended (Stop, SessionEnd), or a new notification replaces them. It returns
// the session's event count, req included, for notify, and whether the
// session sent a later event before req was read (by hook.Request.SentMS);
// it blocks until the withdrawals are durable.
func (h *Service) staleNotices(req hook.Request) (seq uint64, late bool) {
	if req.SessionID == "" {
		return 0, false
	}
	k := sessionKey{req.Agent, req.SessionID}
	now := time.Now()
	var stale []string
	h.mu.Lock()
	if h.seen == nil {
		h.seen = map[sessionKey]sessionEvents{}
	}
	for sk, s := range h.seen {
		if now.Sub(s.at) > movedKeep {
			delete(h.seen, sk)
		}
	}
	s := h.seen[k]
	s.n++
	s.at = now
	late = req.SentMS > 0 && req.SentMS < s.sent
	s.sent = max(s.sent, req.SentMS)
	h.seen[k] = s
	for id, nk := range h.notices {
		if nk == k {
			stale = append(stale, id)
			delete(h.notices, id)
		}
	}
	h.mu.Unlock()
	h.withdrawNotices(stale)
	return s.n, late
}

// withdrawNotices ends the notices ids as answered in the agent; one the
// person acknowledged, or that ended otherwise, is left as it is.
func (h *Service) withdrawNotices(ids []string) {
	for _, id := range ids {
		_ = h.Broker.WithdrawBecause(id, question.ReasonAnsweredInAgent)
	}
}

// maxNotices bounds the notices remembered for withdrawal; past it those no
// longer pending are forgotten.
const maxNotices = 256

// noticeTool is the Tool of a notice made from an agent's own notification
// (the history says "via notification"); its Origin,
// question.OriginAgentNotice, is what the front ends read.
const noticeTool = "notification"

// trackNotice remembers notice id of session k, asked at the session's
// event seq, so that the session's next event withdraws it. It reports
// false, remembering nothing, when that event came already.
func (h *Service) trackNotice(id string, k sessionKey, seq uint64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s, ok := h.seen[k]; ok && s.n != seq {
		return false
	}
	if h.notices == nil {
		h.notices = map[string]sessionKey{}
	}
	if len(h.notices) >= maxNotices {
		for nid := range h.notices {
			if _, res, err := h.Broker.Get(nid); err != nil || res != nil {
				delete(h.notices, nid)
			}
		}
	}
	h.notices[id] = k
	return true
}
