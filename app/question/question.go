// Package question models the questions agents ask, the answers people give and the Broker that owns the pending ones.
//
// A Broker holds the pending questions and is the single source of truth for
// them; it is safe for concurrent use. Subscribers run on the Broker's own
// event goroutine, never under its lock, and must not block: code that
// updates a UI switches to its own thread first (for Fyne, fyne.Do).
//
// This package imports only the standard library; deps_test.go enforces that.
package question

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"slices"
	"time"
)

// Kind says what sort of answer a question wants.
type Kind string

// The kinds of question.
const (
	KindText        Kind = "text"
	KindConfirm     Kind = "confirm"
	KindChoice      Kind = "choice"
	KindMultiChoice Kind = "multi_choice"
	KindForm        Kind = "form"
	KindApproval    Kind = "approval"
	KindNotice      Kind = "notice"
)

// Kinds lists every kind in a stable order.
var Kinds = []Kind{KindText, KindConfirm, KindChoice, KindMultiChoice, KindForm, KindApproval, KindNotice}

// Valid reports whether k is one of the known kinds.
func (k Kind) Valid() bool {
	return slices.Contains(Kinds, k)
}

// Client identifies the agent that asked.
type Client struct {
	Name      string `json:"name"`
	Version   string `json:"version,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	Title     string `json:"title,omitempty"`
}

// DisplayName returns the client's title, its name, or "unknown client".
func (c Client) DisplayName() string {
	switch {
	case c.Title != "":
		return c.Title
	case c.Name != "":
		return c.Name
	default:
		return "unknown client"
	}
}

// Option is one suggested answer or choice.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// Risk grades an approval request.
type Risk string

// The risk grades of an approval.
const (
	RiskLow    Risk = "low"
	RiskMedium Risk = "medium"
	RiskHigh   Risk = "high"
)

// Question is one prompt from an agent to the person.
//
// Fields that apply only to some kinds are ignored (and must be zero) for the
// others; Validate says which.
type Question struct {
	ID          string          `json:"id"`
	Kind        Kind            `json:"kind"`
	Client      Client          `json:"client"`
	Header      string          `json:"header,omitempty"`
	Message     string          `json:"message"`
	Options     []Option        `json:"options,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
	FreeText    bool            `json:"free_text,omitempty"`
	Multiline   bool            `json:"multiline,omitempty"`
	Placeholder string          `json:"placeholder,omitempty"`
	MinLength   int             `json:"min_length,omitempty"`
	MaxLength   int             `json:"max_length,omitempty"`
	MinSelect   int             `json:"min_select,omitempty"`
	MaxSelect   int             `json:"max_select,omitempty"`
	Destructive bool            `json:"destructive,omitempty"`
	YesLabel    string          `json:"yes_label,omitempty"`
	NoLabel     string          `json:"no_label,omitempty"`
	Risk        Risk            `json:"risk,omitempty"`
	Tool        string          `json:"tool,omitempty"`         // the MCP tool that asked, set by the bridge
	Action      string          `json:"action,omitempty"`       // an approval's short title, e.g. "Deploy to production" or "Bash"
	Details     string          `json:"details,omitempty"`      // an approval's Markdown body: the command, the paths, a diff
	AgentReason string          `json:"agent_reason,omitempty"` // why the agent wants an approval
	// Input is the input of the agent tool an approval is for
	// (permission_prompt, the agent hooks), a JSON object exactly as the
	// tool will run it: rules match its content (the command, the path).
	// Approvals only.
	Input json.RawMessage `json:"input,omitempty"`
	// Cut reports that Details leaves part of what the approval would run
	// out (a command or file beyond what fits), so the person cannot see
	// all of it and no front end lets them allow it (present.Unseen). Set
	// by whoever renders Details (app/toolcall). Approvals only.
	Cut bool `json:"cut,omitempty"`
	// Cwd is the working directory the approved action runs in, when the
	// agent says ("" otherwise). Approvals only.
	Cwd string `json:"cwd,omitempty"`
	// RiskWhy says why Risk is what it is, when Asktray graded it from
	// what the request does ("high: deletes files recursively, `rm -r`").
	// Approvals only.
	RiskWhy string `json:"risk_why,omitempty"`
	// AgentRules are standing permissions the asking agent would keep
	// itself (Claude Code's permission_suggestions), offered next to
	// Asktray's own rules. An approval answered {"agent_rule": "<label>"}
	// allows and picks one. Approvals only.
	AgentRules []Option `json:"agent_rules,omitempty"`
	// Origin says through which door the question came in (see Origin):
	// the rules and the front ends read it, never Tool, to tell an agent
	// tool's permission, a request_approval or an agent's own notice apart.
	Origin Origin `json:"origin,omitempty"`
	// AgentMode is the asking agent's permission mode when it asked, as
	// its hook said (Claude Code's permission_mode: default, acceptEdits,
	// auto, plan, …); "" when it did not say. Approvals only.
	AgentMode string `json:"agent_mode,omitempty"`
	// Host is where the asking agent runs when that is not this user on
	// this machine: the host the person added with 'asktray remote add'
	// ("build-01", "agent@localhost"), set only by the app from the
	// channel the question came in on, never from what the agent sent; ""
	// for an agent of this user here.
	Host        string    `json:"host,omitempty"`
	Created     time.Time `json:"created"`
	Deadline    time.Time `json:"deadline"`
	SnoozeUntil time.Time `json:"snooze_until,omitzero"`
	State       State     `json:"state"`
	// DeliverTo is where the question is being asked when not on the
	// desktop: DeliverClient while the asking client's own form shows it
	// (MCP elicitation); the desktop opens no dialog for it meanwhile.
	// Broker.SetDeliverTo changes it.
	DeliverTo string `json:"deliver_to,omitempty"`
}

// DeliverClient is Question.DeliverTo while the asking client's own form
// (MCP elicitation) shows the question.
const DeliverClient = "client"

// State is "pending" or the Outcome that ended a question.
type State string

// StatePending marks a question nobody has decided yet.
const StatePending State = "pending"

// Outcome says how a question ended. One vocabulary is used everywhere: tool
// results, history, the CLI and the UI.
type Outcome string

// The outcomes.
const (
	Answered     Outcome = "answered"      // the person accepted with a value
	Declined     Outcome = "declined"      // the person said no to answering
	Cancelled    Outcome = "cancelled"     // the person dismissed it
	AutoRejected Outcome = "auto_rejected" // a timeout, a rule or away mode said no
	AutoApproved Outcome = "auto_approved" // a rule said yes
	Withdrawn    Outcome = "withdrawn"     // the agent took it back
	Interrupted  Outcome = "interrupted"   // the app stopped while it was pending
)

// Outcomes lists every outcome in a stable order.
var Outcomes = []Outcome{Answered, Declined, Cancelled, AutoRejected, AutoApproved, Withdrawn, Interrupted}

// Valid reports whether o is one of the known outcomes.
func (o Outcome) Valid() bool {
	return slices.Contains(Outcomes, o)
}

// Decider says who decided an outcome.
type Decider string

// The deciders.
const (
	ByHuman   Decider = "human"
	ByRule    Decider = "rule"
	ByTimeout Decider = "timeout"
	ByAgent   Decider = "agent"
	ByApp     Decider = "app"
)

// Reason explains an automatic outcome.
type Reason string

// The reasons for automatic outcomes.
const (
	ReasonTimeout Reason = "timeout"
	ReasonRule    Reason = "rule"
	ReasonAway    Reason = "away"
	// ReasonHandedBack ends a question that away mode handback gave back
	// to the agent, to ask the person in the agent's own chat.
	ReasonHandedBack Reason = "handed_back"
	ReasonStopped    Reason = "app_stopped"
	// ReasonAnsweredInAgent withdraws a question the agent's own prompt
	// answered first (its session moved on), so the tray need not.
	ReasonAnsweredInAgent Reason = "answered_in_agent"
	// ReasonAgentProceeded is said of a question afterwards
	// (Result.Afterwards): the agent went on without its outcome, as its
	// own prompt had been answered first, so the decision recorded here
	// did not count (an agent hook's deny, then the tool ran).
	ReasonAgentProceeded Reason = "agent_proceeded"
	// ReasonAgentBlocked ends what the agent's own automatic check blocked
	// before anyone was asked (Claude Code's auto mode classifier; outcome
	// AutoRejected, decided by the agent, its reason in the note), and is
	// said of an allowed question afterwards when that check blocked the
	// call all the same.
	ReasonAgentBlocked Reason = "agent_blocked"
	// ReasonHostDisconnected withdraws a question of a remote host whose
	// SSH connection to the desktop ended while it was pending (its hook
	// there stepped aside, so its agent asks in its own prompt).
	ReasonHostDisconnected Reason = "host_disconnected"
)

// Via says through which channel a decision came.
type Via string

// The channels a decision can come through.
const (
	ViaDialog       Via = "dialog"
	ViaNotification Via = "notification"
	ViaCLI          Via = "cli"
	// ViaTerminal is the CLI answering from its controlling terminal, which
	// the app checked was really there; an answer that approves also
	// carried the person's login password (or that terminal's grace).
	ViaTerminal    Via = "terminal"
	ViaWeb         Via = "web"
	ViaElicitation Via = "elicitation"
	ViaRule        Via = "rule"
)

// Result is how a question ended.
type Result struct {
	Outcome   Outcome         `json:"outcome"`
	DecidedBy Decider         `json:"decided_by"`
	Reason    Reason          `json:"reason,omitempty"`
	Via       Via             `json:"via,omitempty"`
	Value     json.RawMessage `json:"value,omitempty"`
	Note      string          `json:"note,omitempty"`
	RuleID    string          `json:"rule_id,omitempty"`
	// RuleScope is how far the rule named by RuleID reaches, as it stood
	// when it decided (or was made with the answer): "session" or "always"
	// (app/policy's Scope); "" without a rule.
	RuleScope string    `json:"rule_scope,omitempty"`
	DecidedAt time.Time `json:"decided_at"`
	// Afterwards is what was learnt of the outcome after it was recorded,
	// e.g. ReasonAgentProceeded; "" for nothing. Broker.Annotate sets it.
	Afterwards Reason `json:"afterwards,omitempty"`
}

// Action is what a person does with a question.
type Action string

// The actions a person can take; they match MCP elicitation's.
const (
	Accept  Action = "accept"
	Decline Action = "decline"
	Cancel  Action = "cancel"
)

// Response is a person's reply to a question.
type Response struct {
	Action Action          `json:"action"`
	Value  json.RawMessage `json:"value,omitempty"`
	Note   string          `json:"note,omitempty"`
	Via    Via             `json:"via,omitempty"`
	// RuleID names the rule the person made together with this answer
	// ("Always allow…", "Always deny…"); the result carries it.
	RuleID string `json:"rule_id,omitempty"`
	// RuleScope is that rule's scope ("session" or "always"); the result
	// carries it.
	RuleScope string `json:"rule_scope,omitempty"`
}

// NewID returns a fresh unguessable id: 128 random bits, base64url without
// padding. It never starts with '-' or '_', so that a command line such as
// 'asktray answer ID' does not read it as a flag; redrawing those 2 in 64
// cases leaves the id uniformly random over the rest.
func NewID() string {
	for {
		var b [16]byte
		_, _ = rand.Read(b[:]) // crypto/rand.Read never returns an error.
		id := base64.RawURLEncoding.EncodeToString(b[:])
		if id[0] != '-' && id[0] != '_' {
			return id
		}
	}
}

// Timeout limits for a question's deadline.
const (
	MinTimeout     = 10 * time.Second
	MaxTimeout     = 24 * time.Hour
	DefaultTimeout = 300 * time.Second
)

// TimeoutSeconds is a timeout of s seconds (an agent's timeout_seconds,
// the person's default_timeout_seconds) as a question's: ClampTimeout of
// it, and never a product that overflows a time.Duration: more seconds
// than MaxTimeout is MaxTimeout, zero or fewer is DefaultTimeout.
func TimeoutSeconds(s int64) time.Duration {
	switch {
	case s <= 0:
		return DefaultTimeout
	case s > int64(MaxTimeout/time.Second):
		return MaxTimeout
	}
	return ClampTimeout(time.Duration(s) * time.Second)
}

// ClampTimeout returns d held within MinTimeout..MaxTimeout, or DefaultTimeout when d is zero or negative.
func ClampTimeout(d time.Duration) time.Duration {
	switch {
	case d <= 0:
		return DefaultTimeout
	case d < MinTimeout:
		return MinTimeout
	case d > MaxTimeout:
		return MaxTimeout
	default:
		return d
	}
}

// The per-session bound (the setting max_pending_per_session): how many
// questions one session of an agent may have pending at once. The MCP bridge
// bounds a client session's questions (and, separately, its notices) by it,
// and the agent hooks an agent session's open approvals; both read the one
// setting.
const (
	DefaultMaxPending = 20
	MaxMaxPending     = 1000
)

// ClampMaxPending returns the per-session bound the setting n asks for: n
// when it is within 1..MaxMaxPending, else (0 is "not set")
// DefaultMaxPending.
func ClampMaxPending(n int) int {
	if n < 1 || n > MaxMaxPending {
		return DefaultMaxPending
	}
	return n
}
