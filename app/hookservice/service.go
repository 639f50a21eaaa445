// Package hookservice serves the calls of `asktray hook AGENT`: it asks the
// person an agent's permission request (Claude Code, Codex, Copilot CLI),
// shows the agent's notifications as notices, and withdraws the tray
// question when the agent's own prompt was answered first. It tracks each
// agent session's open approvals and holds them while the person is away.
//
// It knows nothing of how the call arrives: app/control mounts it on the
// control socket (or pipe) at POST /v2/hook (acknowledged once the request
// is registered, then the reply) and POST /v1/hook (older hooks) and hands
// it the decoded hook.Request.
package hookservice

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/asktray/asktray/app/ellipsis"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/app/policy"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/app/toolcall"
)

// Settings are the person's settings a hook call reads.
type Settings struct {
	// Deadline is the person's question deadline; a hook waits at most this long.
	Deadline time.Duration
	// AskUserQuestion answers Claude Code's AskUserQuestion in the tray
	// (setting hook_ask_user_question, on by default).
	AskUserQuestion bool
	// MaxPending bounds the approvals one agent session may have open
	// (setting max_pending_per_session, the MCP tools' bound too); past it
	// a hook returns no decision at once and the agent asks in its own
	// prompt. Outside 1..question.MaxMaxPending it means
	// question.DefaultMaxPending.
	MaxPending int
}

// Service serves the calls of `asktray hook AGENT`: it asks the person an
// agent's permission request, shows its notifications, and withdraws the
// tray question when the agent's own prompt was answered first. Its methods
// are safe for concurrent use.
type Service struct {
	Broker *question.Broker
	// Policy, if set, supplies away mode; its rules decide through the
	// Broker's Gate like any approval's.
	Policy *policy.Policy
	// Settings returns the person's settings; nil means the defaults.
	Settings func() Settings
	Log      *slog.Logger
	// Home is the person's home directory, which notices write as "~";
	// "" means the process's own (os.UserHomeDir).
	Home string

	mu    sync.Mutex
	open  map[string]openHook        // pending hook approvals by question id
	moved map[sessionKey]sessionMove // the last moved-on event of each session
	// notices are the hook notices that may still be pending, by question
	// id: their session's next event makes them stale.
	notices map[string]sessionKey
	seen    map[sessionKey]sessionEvents // each session's event count
	// ended are the hook approvals that ended, by question id, until their
	// tool's post-tool event (proceeded.go).
	ended map[string]endedHook
	// pre are the tool calls PreToolUse took to the tray without a
	// decision, for the PermissionRequest of the same call (pretooluse.go).
	pre []preAsked
}

type sessionKey struct {
	agent   hook.Agent
	session string
}

// sessionMove is a session's last moved-on event: when, and for which tool (""
// for every one). An approval asked just before it but tracked just after
// learns of it here.
type sessionMove struct {
	at    time.Time
	tool  string
	input json.RawMessage // the tool's input, with tool
	// toolUseID is the call's id, with tool, when the event names it
	// (Claude Code's post-tool events and PermissionDenied).
	toolUseID string
	// keepTurn is the turn whose approvals the move leaves open ("" none):
	// a prompt sent into the running turn (keptTurn).
	keepTurn string
}

// movedKeep is how long a moved-on event is remembered for approvals still
// being asked.
const movedKeep = time.Minute

// openHook is a hook approval waiting for the person.
type openHook struct {
	agent            hook.Agent
	session, toolKey string
	input            string // inputKey of the tool's input
	turn             string // the agent's turn id (Codex), or ""
	toolUseID        string // the tool call's id (Claude Code's PreToolUse), or ""
}

// expiryBackstop is how long past its deadline a hook waits for the broker
// to end the question, should the broker's expiry be late (a journal retry).
const expiryBackstop = 5 * time.Second

func (h *Service) log() *slog.Logger {
	if h.Log != nil {
		return h.Log
	}
	return slog.Default()
}

func (h *Service) settings() Settings {
	s := Settings{Deadline: question.DefaultTimeout}
	if h.Settings != nil {
		s = h.Settings()
	}
	return s
}

// Handle answers one hook call, req, whose agent the caller has checked: a
// permission request blocks until the person (or a rule) decides, the
// hook's window ends or ctx is done (the hook went away), calling
// registered once its question is asked, before the wait; every other event
// returns at once. Every event of an agent's session (all but the doctor's
// test) first withdraws the notices that session sent before. An empty reply
// is no decision: the agent asks in its own prompt. Any goroutine may call
// it.
func (h *Service) Handle(ctx context.Context, req hook.Request, registered func()) hook.Reply {
	if req.Event == hook.Doctor {
		return h.doctor(ctx, req)
	}
	seq, late := h.staleNotices(req)
	var rep hook.Reply
	switch req.Event {
	case hook.PermissionRequest:
		rep = h.permission(ctx, req, registered)
	case hook.PreToolUse:
		switch {
		case !spec(req.Agent).GatesToolUse:
		case req.ToolName == hook.AskUserQuestion:
			if spec(req.Agent).AnswersQuestions && h.settings().AskUserQuestion {
				rep = h.askUserQuestion(ctx, req, registered)
			}
		default:
			rep = h.preToolUse(ctx, req, registered)
		}
	case hook.PermissionDenied:
		h.movedOn(req)
		h.blocked(ctx, req)
	case hook.Notification:
		h.notify(ctx, req, seq, late)
	case hook.PostToolUse, hook.PostToolUseFailure, hook.UserPromptSubmit, hook.Stop, hook.SessionEnd:
		h.movedOn(req)
	}
	return rep
}

// window is how long a hook call waits for the person: what the hook asked
// for, at most the person's deadline.
func (h *Service) window(req hook.Request) time.Duration {
	d := h.settings().Deadline
	if w := time.Duration(req.WaitMS) * time.Millisecond; w > 0 && w < d {
		d = w
	}
	return d
}

// approval is req's permission request as a tray approval, built as
// permission_prompt builds its own (toolcall.Approval), with sugg, the
// agent's own rule suggestions, offered beside the allow.
func approval(req hook.Request, sugg []hook.Suggestion) question.Question {
	c := toolcall.Call{Tool: req.ToolName, RenderAs: renderAs(req), Input: req.ToolInput, Cwd: req.Cwd, Preface: asksToo(req)}
	for _, s := range sugg {
		c.AgentRules = append(c.AgentRules, s.Label)
	}
	q := toolcall.Approval(c)
	q.Client, q.Tool, q.Host = question.Client{Name: string(req.Agent), SessionID: req.SessionID}, hook.Tool, req.Host
	q.AgentMode = ellipsis.Cut(req.PermissionMode, question.MaxAgentMode)
	return q
}

// suggestions are the rules req's agent offers to make with an allow, read
// once per request: the permission_suggestions of an agent that
// RemembersRules; none for the others.
func suggestions(req hook.Request) []hook.Suggestion {
	if !spec(req.Agent).RemembersRules {
		return nil
	}
	return hook.Suggestions(req.Suggestions)
}

// renderAs is the tool name to render req's input as: an agent's shell
// tools (hook.Spec.ShellTools) take a command like Claude Code's Bash.
func renderAs(req hook.Request) string {
	if spec(req.Agent).IsShellTool(req.ToolName) {
		return "Bash"
	}
	return req.ToolName
}

// spec is agent a's entry in the agent table; the zero Spec (no agent's
// differences) for one not in it, which the control API refuses anyway.
func spec(a hook.Agent) hook.Spec {
	sp, _ := hook.Lookup(a)
	return sp
}

// permission asks the person req's permission request and waits for the
// answer, at most the hook's window, calling registered once it is asked;
// it blocks.
func (h *Service) permission(ctx context.Context, req hook.Request, registered func()) hook.Reply {
	if req.ToolName == hook.AskUserQuestion {
		// Allowing Claude's own question answers nothing; the PreToolUse
		// hook (setting hook_ask_user_question) asks it instead.
		return hook.Reply{}
	}
	if spec(req.Agent).NamesMCPTools && hook.OwnTool(req.ToolName) {
		return hook.Reply{Behavior: hook.Allow} // it asks the person itself
	}
	if h.takePreAsked(req) {
		return hook.Reply{} // PreToolUse took this call to the tray already
	}
	sugg := suggestions(req)
	q := approval(req, sugg)
	// Away mode holds it (the mode hold, or handback, which never hands an
	// approval back) unless a rule decides it: the hook then returns no
	// decision at once and the agent asks in its own prompt.
	ruling := h.Policy.Judge(q)
	if ruling.Hold == policy.Held || h.openCount(req.Agent, req.SessionID) >= question.ClampMaxPending(h.settings().MaxPending) {
		return hook.Reply{}
	}
	res, qid, ok := h.askAndWait(ctx, q, ruling, req, registered)
	if !ok {
		return hook.Reply{}
	}
	rep := replyFor(q, res)
	rep.QuestionID = qid
	if label, ok := question.AgentRuleChoice(res.Value); ok && rep.Behavior == hook.Allow {
		for _, sg := range sugg {
			if sg.Label == label {
				rep.UpdatedPermissions = append(append(json.RawMessage("["), sg.Raw...), ']')
			}
		}
	}
	return rep
}

// ask asks q, decided by ruling, the policy's judgement of it: the rules
// are matched once per hook request. Without a policy the broker's own
// gate decides.
func (h *Service) ask(ctx context.Context, q question.Question, ruling policy.Ruling) (question.Question, error) {
	if h.Policy == nil {
		return h.Broker.Ask(ctx, q)
	}
	return h.Broker.AskGated(ctx, q, ruling.Result, ruling.Decided)
}

// askAndWait asks q for req, decided by ruling, calls registered, and waits up to the hook's
// window. The question's deadline is the window's end, so the dialog counts
// down the time the hook really waits, and the broker ends it there (timed
// out, as any question); a window shorter than question.MinTimeout, which
// no deadline may be, ends as withdrawn (reason timeout). On the hook's
// going away it withdraws q; ok is false then, or when q could not be
// asked.
func (h *Service) askAndWait(ctx context.Context, q question.Question, ruling policy.Ruling, req hook.Request, registered func()) (question.Result, string, bool) {
	window := h.window(req)
	start := time.Now()
	q.Deadline = start.Add(window)
	asked, err := h.ask(ctx, q, ruling)
	if err != nil {
		h.log().Error("hook: ask", "agent", req.Agent, "err", err)
		return question.Result{}, "", false
	}
	o := openHook{agent: req.Agent, session: req.SessionID, toolKey: req.ToolName, input: inputKey(req.ToolInput), turn: req.TurnID, toolUseID: req.ToolUseID}
	if h.track(asked.ID, o, start) {
		h.withdrawAnswered(asked.ID, req)
	}
	defer h.untrack(asked.ID)
	registered()
	end := start.Add(window)
	if window >= question.MinTimeout {
		end = asked.Deadline.Add(expiryBackstop) // the broker ends it at its deadline
	}
	wctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	res, err := h.Broker.Wait(wctx, asked.ID)
	if err == nil {
		return res, asked.ID, true
	}
	why := question.ReasonTimeout
	switch {
	case errors.Is(context.Cause(ctx), hook.ErrHostDisconnected):
		why = question.ReasonHostDisconnected
	case ctx.Err() != nil:
		why = "" // the hook went away: the agent timed it out, or exited
	}
	if werr := h.Broker.WithdrawBecause(asked.ID, why); werr != nil && errors.Is(werr, question.ErrNotPending) && ctx.Err() == nil {
		// Answered in the same instant: the answer stands.
		if _, r, gerr := h.Broker.Get(asked.ID); gerr == nil && r != nil {
			return *r, asked.ID, true
		}
	}
	return question.Result{}, asked.ID, false
}

// replyFor maps the outcome of approval q to the agent's decision. Only the
// person, or a rule the person made, decides; anything else is no decision,
// so that the agent asks in its own prompt. A deny says why in the words of
// question.Guide.
func replyFor(q question.Question, res question.Result) hook.Reply {
	switch {
	case res.Outcome == question.Answered, res.Outcome == question.AutoApproved:
		return hook.Reply{Behavior: hook.Allow}
	case res.Outcome == question.Declined,
		res.Outcome == question.AutoRejected && (res.Reason == question.ReasonRule || res.Reason == question.ReasonAway):
		return hook.Reply{Behavior: hook.Deny, Message: question.Guide(q, res).Text()}
	}
	return hook.Reply{}
}

// track records the open approval id and reports whether its session
// already moved on since start.
func (h *Service) track(id string, o openHook, start time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open == nil {
		h.open = map[string]openHook{}
	}
	h.open[id] = o
	h.forgetEnded(o, time.Now())
	m, ok := h.moved[sessionKey{o.agent, o.session}]
	return ok && o.session != "" && !m.at.Before(start) && (m.keepTurn == "" || o.turn != m.keepTurn) &&
		(m.tool == "" || m.ofCall(o))
}

// ofCall reports whether m, a post-tool event, is about o's call: by the
// call's id when both name one (two calls of one command are told apart),
// else by the tool and its input.
func (m sessionMove) ofCall(o openHook) bool {
	if m.toolUseID != "" && o.toolUseID != "" {
		return m.toolUseID == o.toolUseID
	}
	return m.tool == o.toolKey && inputCovers(o.input, m.input)
}

// untrack forgets the open approval id, which ended, and remembers it for
// its tool's post-tool event, unless that event already came.
func (h *Service) untrack(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if o, ok := h.open[id]; ok {
		h.rememberEnded(id, o, time.Now())
	}
	delete(h.open, id)
}

// movedOn withdraws the open hook approvals of req's session that req shows
// were answered in the agent, or no longer waited for: after PostToolUse or
// PostToolUseFailure, the approvals of that tool call; after
// UserPromptSubmit, Stop or SessionEnd, all, except that a prompt naming
// the turn an approval was asked in leaves it (keptTurn). After
// PostToolUse, an approval of that call the hook had already denied is
// marked as the agent having proceeded (proceeded.go).
// Claude Code shows its own dialog while the hook waits and does not stop the
// hook when the person answers there
// (https://github.com/anthropics/claude-code/issues/15433), and Codex runs
// the hook from an app-server daemon that outlives the terminal that asked,
// so these events are how the tray learns it.
func (h *Service) movedOn(req hook.Request) {
	if req.SessionID == "" {
		return
	}
	tool := ""
	if req.Event == hook.PostToolUse || req.Event == hook.PostToolUseFailure || req.Event == hook.PermissionDenied {
		tool = req.ToolName
	}
	now := time.Now()
	var ids []string
	h.mu.Lock()
	if h.moved == nil {
		h.moved = map[sessionKey]sessionMove{}
	}
	for k, m := range h.moved {
		if now.Sub(m.at) > movedKeep {
			delete(h.moved, k)
		}
	}
	h.moved[sessionKey{req.Agent, req.SessionID}] = sessionMove{at: now, tool: tool, input: req.ToolInput, toolUseID: req.ToolUseID, keepTurn: keptTurn(req)}
	ids = h.answeredOpen(req, tool)
	if req.Event == hook.Stop || req.Event == hook.SessionEnd {
		h.forgetEnded(openHook{agent: req.Agent, session: req.SessionID}, now)
	}
	h.mu.Unlock()
	h.endAnswered(ids, req)
	h.proceeded(req)
}

// keptTurn is the turn whose approvals req leaves open, or "": a
// UserPromptSubmit that names a turn (Codex's turn_id) begins that turn, so
// it ends the approvals of every other turn of the session, while one that
// names the turn an approval was asked in is input sent into that running
// turn, which still waits. A Stop ends its turn, and every event without a
// turn id (Claude Code's) ends them all.
func keptTurn(req hook.Request) string {
	if req.Event == hook.UserPromptSubmit {
		return req.TurnID
	}
	return ""
}

// withdrawAnswered ends the open approval id as answered in the agent.
func (h *Service) withdrawAnswered(id string, req hook.Request) {
	if err := h.Broker.WithdrawBecause(id, question.ReasonAnsweredInAgent); err != nil {
		if !errors.Is(err, question.ErrNotPending) {
			h.log().Error("hook: withdraw", "id", id, "err", err)
		}
		return
	}
	h.log().Info("hook: answered in the agent", "id", id, "agent", req.Agent, "event", req.Event)
}

// openCount is how many hook approvals of agent a's session are open.
func (h *Service) openCount(a hook.Agent, session string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, o := range h.open {
		if o.agent == a && o.session == session {
			n++
		}
	}
	return n
}

// sessionOpen reports whether a hook approval of agent a's session is open.
func (h *Service) sessionOpen(a hook.Agent, session string) bool {
	return h.openCount(a, session) > 0
}

// clip cuts s to at most n runes, the last one "…".
func clip(s string, n int) string { return ellipsis.Cut(s, n) }
