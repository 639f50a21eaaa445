package hookservice

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/question/present"
)

// A tray decision can come after the agent's own prompt was answered: Claude
// Code shows its dialog while the hook waits, and on its Yes the hook keeps
// running while the tool runs, until PostToolUse
// (https://github.com/anthropics/claude-code/issues/15433). Claude Code sends
// nothing in between (PreToolUse comes before the permission check, a
// permission_prompt notification only while its dialog waits), so a deny in
// the tray in that window is printed to a Claude Code that no longer reads
// it. The tool's PostToolUse then shows the agent had proceeded; the history
// row says so (question.ReasonAgentProceeded).

// endedHook is a hook approval that ended, remembered until its tool call's
// post-tool event, the session's end of turn, or endedKeep.
type endedHook struct {
	openHook
	at time.Time
}

// endedKeep bounds how long an ended hook approval waits for its tool's
// post-tool event (the longest question deadline: a command may run that
// long), and maxEnded how many are remembered; past it the oldest go.
const (
	endedKeep = question.MaxTimeout
	maxEnded  = 256
)

// inputKey is a tool input as compared between events: its JSON with the
// object keys sorted, or the raw bytes when it is not JSON.
func inputKey(raw json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// sameCall reports whether o is the tool call req's event is about: the same
// agent session and tool, and an input that holds every key of o's with the
// same value (an agent may report more of the input after the tool ran; Claude
// Code 2.1.332 reports the same). No permission request payload carries the
// tool call's id (Claude Code 2.1.332, Codex 0.171.0, Copilot CLI 1.0.102),
// so the input is what tells two calls of one tool apart.
func sameCall(o openHook, req hook.Request) bool {
	if o.toolUseID != "" && req.ToolUseID != "" {
		// Claude Code's PreToolUse, PostToolUse, PostToolUseFailure and
		// PermissionDenied name the call (2.1.332).
		return o.agent == req.Agent && o.session == req.SessionID && o.toolUseID == req.ToolUseID
	}
	return o.agent == req.Agent && o.session == req.SessionID && o.toolKey == req.ToolName && inputCovers(o.input, req.ToolInput)
}

// inputCovers reports whether ran, a tool input, holds every key of asked
// (an inputKey) with the same value, or equals it when either is no object.
func inputCovers(asked string, ran json.RawMessage) bool {
	if asked == inputKey(ran) {
		return true
	}
	var a, r map[string]any
	if json.Unmarshal([]byte(asked), &a) != nil || json.Unmarshal(ran, &r) != nil || a == nil || r == nil {
		return false
	}
	for k, v := range a {
		w, ok := r[k]
		if !ok || !reflect.DeepEqual(v, w) {
			return false
		}
	}
	return true
}

// answeredOpen returns the open approvals of req's session that req shows
// were answered in the agent: for a post-tool event (tool is not "") those
// of the same call, which are no longer tracked as open, so that their end
// is not remembered for a later post-tool event; for any other event all of
// them but those of the turn it keeps (keptTurn). The caller holds h.mu.
func (h *Service) answeredOpen(req hook.Request, tool string) []string {
	var ids []string
	keep := keptTurn(req)
	for id, o := range h.open {
		switch {
		case o.agent != req.Agent || o.session != req.SessionID:
		case keep != "" && o.turn == keep:
		case tool == "":
			ids = append(ids, id)
		case sameCall(o, req):
			ids = append(ids, id)
			delete(h.open, id)
		}
	}
	return ids
}

// rememberEnded keeps the ended approval id of o for its tool's post-tool
// event, dropping the oldest past maxEnded. The caller holds h.mu.
func (h *Service) rememberEnded(id string, o openHook, now time.Time) {
	if h.ended == nil {
		h.ended = map[string]endedHook{}
	}
	for len(h.ended) >= maxEnded {
		oldest := ""
		for eid, e := range h.ended {
			if oldest == "" || e.at.Before(h.ended[oldest].at) {
				oldest = eid
			}
		}
		delete(h.ended, oldest)
	}
	h.ended[id] = endedHook{openHook: o, at: now}
}

// forgetEnded drops the ended approvals that can no longer be the call of a
// post-tool event: those past endedKeep, those of o's call when o is a new
// request for it (it supersedes them), and, when o.toolKey is "", every one
// of o's session (its turn ended). The caller holds h.mu.
func (h *Service) forgetEnded(o openHook, now time.Time) {
	for id, e := range h.ended {
		same := e.agent == o.agent && e.session == o.session && (o.toolKey == "" || e.toolKey == o.toolKey && e.input == o.input)
		if same || now.Sub(e.at) > endedKeep {
			delete(h.ended, id)
		}
	}
}

// takeEnded returns the newest ended approval of req's tool call, and
// forgets it: one post-tool event is one call. The caller holds h.mu.
func (h *Service) takeEnded(req hook.Request) (string, bool) {
	best := ""
	for id, e := range h.ended {
		if sameCall(e.openHook, req) && (best == "" || e.at.After(h.ended[best].at)) {
			best = id
		}
	}
	if best == "" {
		return "", false
	}
	delete(h.ended, best)
	return best, true
}

// proceeded handles req's post-tool event for approvals that had already
// ended: the newest of that tool call, if the hook denied it, gets
// question.ReasonAgentProceeded in the history, since the tool ran all the
// same. Only PostToolUse counts: PostToolUseFailure may report a call that
// never ran. It calls the broker, not under h.mu.
func (h *Service) proceeded(req hook.Request) {
	if req.Event != hook.PostToolUse || req.SessionID == "" {
		return
	}
	h.mu.Lock()
	id, ok := h.takeEnded(req)
	h.mu.Unlock()
	if ok {
		h.markIfDenied(id, req)
	}
}

// markIfDenied annotates the ended approval id as question.ReasonAgentProceeded
// when the hook's reply to it was a deny; an allow, a dismissal or a timeout
// stays as it is.
func (h *Service) markIfDenied(id string, req hook.Request) {
	q, res, err := h.Broker.Get(id)
	if err != nil || res == nil || q.Kind != question.KindApproval || replyFor(q, *res).Behavior != hook.Deny || req.Event != hook.PostToolUse {
		return
	}
	if err := h.Broker.Annotate(id, question.ReasonAgentProceeded); err != nil {
		h.log().Error("hook: mark proceeded", "id", id, "err", err)
		return
	}
	h.log().Info("hook: the agent had already proceeded", "id", id, "agent", req.Agent, "outcome", res.Outcome)
}

// endAnswered withdraws each of ids as answered in the agent; one that ended
// meanwhile (decided in the same instant) is, after a post-tool event for
// its call, marked as markIfDenied says.
func (h *Service) endAnswered(ids []string, req hook.Request) {
	for _, id := range ids {
		err := h.Broker.WithdrawBecause(id, question.ReasonAnsweredInAgent)
		switch {
		case err == nil:
			h.log().Info("hook: answered in the agent", "id", id, "agent", req.Agent, "event", req.Event)
		case !errors.Is(err, question.ErrNotPending):
			h.log().Error("hook: withdraw", "id", id, "err", err)
		default:
			h.markIfDenied(id, req) // only after PostToolUse, which names the call
		}
	}
}

// asksToo leads the details of req's approval when its agent shows its own
// prompt while the tray asks (Claude Code) and sends nothing when that
// prompt is answered Yes, or when the hook could not tell whether the
// terminal asking is still there (req.Detached: Codex's app server asks):
// the tray cannot know, so it says so.
func asksToo(req hook.Request) string {
	switch {
	case spec(req.Agent).Approves != nil && req.Event == hook.PreToolUse:
		// Asked only where its allow is final (Gemini CLI's yolo mode).
		return "_" + hook.Title(req.Agent) + " runs in " + req.PermissionMode + " mode and waits for this answer: " +
			"Allow runs the call, Deny stops it; a dismissal hands it to " + hook.Title(req.Agent) + "'s own prompt._\n\n"
	case spec(req.Agent).Preface != "" && req.Event == hook.PreToolUse:
		return "_" + spec(req.Agent).Preface + "_\n\n"
	case spec(req.Agent).GatesToolUse && req.Event == hook.PreToolUse:
		return "" // the agent waits for PreToolUse before it asks anything
	case spec(req.Agent).AsksToo:
		return "_" + present.AgentAsksToo(hook.Title(req.Agent)) + "_\n\n"
	case req.Detached:
		// Codex's app server asks, and the hook found no terminal to watch.
		return "_" + present.AsksFromBackground(hook.Title(req.Agent)) + "_\n\n"
	}
	return ""
}
