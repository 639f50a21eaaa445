package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"
)

// Handshake is how long the hook waits for the app to acknowledge a request
// (Ack) before it steps aside, printing no decision, so that the agent asks
// in its own prompt. An app that accepts the connection and answers nothing
// (stopped with SIGSTOP, or stuck) costs the agent at most this long; only a
// request the app acknowledged waits for the person. The real app
// acknowledges within milliseconds (docs/hooks.md, Speed).
const Handshake = time.Second

// Heartbeat is how often the app's socket for a remote host writes a
// newline (white space between the JSON lines) while the person decides,
// and RemoteSilence how long a remote host's hook waits without a byte
// before it steps aside: a connection that drops without closing (a
// network gone, an SSH server that never notices) holds no agent longer.
const (
	Heartbeat     = 5 * time.Second
	RemoteSilence = 3 * Heartbeat
)

// ErrHostDisconnected is the cause (context.Cause) of a hook request's
// context when the request came from a remote host whose SSH connection
// ended while it waited: the question it asked ends withdrawn with reason
// question.ReasonHostDisconnected, not as an agent that went away.
var ErrHostDisconnected = errors.New("the remote host disconnected")

// Ack is the first line of the app's reply on the acknowledged hook route
// (control's POST /v2/hook): the request is registered (a permission
// request's question is in the tray), so the hook may wait for the Reply,
// the second line.
type Ack struct {
	Registered bool `json:"registered"`
}

// Request is what `asktray hook` sends the app over the control socket: the
// parsed payload and how long the hook may wait for the person.
type Request struct {
	Payload
	// WaitMS is how long the hook waits for an answer before it gives up and
	// lets the agent ask in its own prompt.
	WaitMS int64 `json:"wait_ms"`
	// Detached says that the hook's parent outlives the agent's terminal
	// (Codex's app-server daemon) and the hook found no terminal it could
	// tell is the one asking: nothing ends the question when that terminal
	// closes but the agent's own events, so the dialog says the agent may
	// no longer be waiting there.
	Detached bool `json:"detached,omitempty"`
	// Host is where the hook runs when it asks over a remote host's
	// channel (app/remote), set by the app from that channel; it never
	// crosses the wire, so no hook can claim to be another host.
	Host string `json:"-"`
	// SentMS is when the hook sent the request (Unix milliseconds): the
	// app reads requests queued while it was stopped in any order, and
	// orders a session's events by it. 0 from hooks older than the field.
	SentMS int64 `json:"sent_ms,omitempty"`
}

// The behaviours of a Reply.
const (
	Allow = "allow"
	Deny  = "deny"
	// AskAgent sends the call to the agent's own prompt, even where its
	// mode would run it (Gemini CLI's "ask"); Message, when not "", is a
	// warning shown there. An agent without such an answer prints nothing
	// for it.
	AskAgent = "ask"
)

// Reply is the app's answer to a Request.
type Reply struct {
	// Behavior is Allow, Deny, AskAgent, or "" for no decision: the hook
	// prints nothing and the agent's own mode decides.
	Behavior string `json:"behavior,omitempty"`
	// Message is why, for the model, on Deny.
	Message string `json:"message,omitempty"`
	// UpdatedPermissions are the Claude Code permission_suggestions the
	// person picked with Allow, for Claude Code to remember (a JSON array).
	UpdatedPermissions json.RawMessage `json:"updated_permissions,omitempty"`
	// Answers answer an AskUserQuestion: question text to the chosen
	// label(s), several joined by ", ".
	Answers map[string]string `json:"answers,omitempty"`
	// QuestionID is the tray question, when one was asked.
	QuestionID string `json:"question_id,omitempty"`
}

// Format returns what the hook prints for reply r to payload p, or nil when
// it prints nothing (no decision, or an event that takes no output). A
// Doctor test request gets only DoctorAck, never a decision.
//
// The agent's Spec says how: its Answer's shape, with updatedPermissions
// only for an agent that RemembersRules (the person picked one of its own
// suggestions); deny carries message. An agent that GatesToolUse gets a
// PreToolUse decision (permissionDecision, with its reason); an
// AskUserQuestion answer (an agent that AnswersQuestions) is a PreToolUse
// allow whose updatedInput is the original input plus "answers". Each
// agent's file cites its documentation.
func Format(p Payload, r Reply) []byte {
	if p.Event == Doctor {
		return formatDoctor(r)
	}
	sp, ok := Lookup(p.Agent)
	if !ok {
		return nil
	}
	if sp.Answer == DecisionOnly && p.Event == PreToolUse {
		return formatDecision(r)
	}
	if sp.Answer == CancelOnly {
		return formatCancel(p, r)
	}
	if r.Behavior != Allow && r.Behavior != Deny {
		return nil
	}
	msg := ""
	if r.Behavior == Deny {
		msg = r.Message
	}
	switch {
	case p.Event == PermissionRequest:
		return formatPermission(sp, r, msg)
	case p.Event == PreToolUse && sp.AnswersQuestions && p.ToolName == AskUserQuestion:
		return formatAskUserQuestion(p, r)
	case p.Event == PreToolUse && sp.GatesToolUse:
		reason := msg
		if r.Behavior == Allow {
			reason = AllowReason
		}
		return encode(map[string]any{"hookSpecificOutput": preToolUse{HookEventName: PreToolUse, PermissionDecision: r.Behavior, PermissionDecisionReason: reason}})
	}
	return nil
}

// formatPermission is agent sp's answer to a permission request, in the
// shape of its Answer; msg is the deny's message.
func formatPermission(sp Spec, r Reply, msg string) []byte {
	switch sp.Answer {
	case BehaviorOnly:
		return encode(struct {
			Behavior string `json:"behavior"`
			Message  string `json:"message,omitempty"`
		}{r.Behavior, msg})
	case ReplyBody:
		reply := "once"
		if r.Behavior == Deny {
			reply = "reject"
		}
		return encode(struct {
			Reply   string `json:"reply"`
			Message string `json:"message,omitempty"`
		}{reply, msg})
	}
	d := decision{Behavior: r.Behavior, Message: msg}
	if sp.RemembersRules && r.Behavior == Allow && len(r.UpdatedPermissions) > 0 {
		d.UpdatedPermissions = r.UpdatedPermissions
	}
	return encode(map[string]any{"hookSpecificOutput": struct {
		HookEventName string   `json:"hookEventName"`
		Decision      decision `json:"decision"`
	}{PermissionRequest, d}})
}

// formatDecision is Gemini CLI's BeforeTool answer
// (https://geminicli.com/docs/hooks/reference/): a deny's reason is what the
// model reads (Gemini CLI 0.61.0: "Tool execution blocked: REASON"); an ask
// opens Gemini's own confirmation, its systemMessage shown there; an allow
// runs the call only where Gemini would not ask anyway (its yolo mode, an
// allow-listed tool).
func formatDecision(r Reply) []byte {
	type out struct {
		Decision      string `json:"decision"`
		Reason        string `json:"reason,omitempty"`
		SystemMessage string `json:"systemMessage,omitempty"`
	}
	switch r.Behavior {
	case Allow:
		return encode(out{Decision: Allow})
	case Deny:
		return encode(out{Decision: Deny, Reason: r.Message})
	case AskAgent:
		return encode(out{Decision: AskAgent, SystemMessage: r.Message})
	}
	return nil
}

// formatCancel is Cline's PreToolUse answer (Cline 3.0.65, observed): a
// deny is {"cancel": true, "errorMessage": MESSAGE}, which stops Cline's
// whole task before the call runs (the model never reads the message); an
// allow, or no decision, prints nothing and Cline's own setting decides.
func formatCancel(p Payload, r Reply) []byte {
	if p.Event != PreToolUse || r.Behavior != Deny {
		return nil
	}
	msg := r.Message
	if msg == "" {
		msg = "Denied in Asktray"
	}
	return encode(struct {
		Cancel       bool   `json:"cancel"`
		ErrorMessage string `json:"errorMessage"`
	}{true, msg})
}

// StepAside is what the hook prints when it got no answer from the app (none
// running, frozen, or the wait ended) for payload p: nothing, so the agent's
// own mode decides, except where that mode would run the call unasked
// (Spec.Approves reports the hook's allow final there): the hook never
// allows by itself, so it sends the call to the agent's own prompt.
func StepAside(p Payload) []byte {
	sp, ok := Lookup(p.Agent)
	if !ok || p.Event != PreToolUse || sp.Approves == nil || !sp.Approves(p.PermissionMode) {
		return nil
	}
	return Format(p, Reply{Behavior: AskAgent, Message: StepAsideNote})
}

// StepAsideNote is the warning the agent's own prompt shows when the hook
// had no answer from Asktray.
const StepAsideNote = "Asktray did not answer: decide here."

// AllowReason is the permissionDecisionReason of a PreToolUse allow, which
// Claude Code shows the person, not the model.
const AllowReason = "Allowed in Asktray"

// preToolUse is Claude Code's PreToolUse decision
// (https://code.claude.com/docs/en/hooks#pretooluse-decision-control): a
// deny's reason is what the model reads (Claude Code 2.1.332 prefixes it
// with "PreToolUse:TOOL hook error: "), an allow runs the call without
// Claude Code's own permission check, its auto mode's classifier included.
type preToolUse struct {
	HookEventName            string         `json:"hookEventName"`
	PermissionDecision       string         `json:"permissionDecision"`
	PermissionDecisionReason string         `json:"permissionDecisionReason,omitempty"`
	UpdatedInput             map[string]any `json:"updatedInput,omitempty"`
}

type decision struct {
	Behavior           string          `json:"behavior"`
	Message            string          `json:"message,omitempty"`
	UpdatedPermissions json.RawMessage `json:"updatedPermissions,omitempty"`
}

// formatAskUserQuestion answers Claude Code's AskUserQuestion: allow with
// the original input plus answers ("allow" alone does not answer it); deny
// with a reason.
func formatAskUserQuestion(p Payload, r Reply) []byte {
	type out = preToolUse
	if r.Behavior == Deny {
		return encode(map[string]any{"hookSpecificOutput": out{HookEventName: PreToolUse, PermissionDecision: Deny, PermissionDecisionReason: r.Message}})
	}
	if len(r.Answers) == 0 {
		return nil
	}
	in := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(p.ToolInput))
	dec.UseNumber()
	if dec.Decode(&in) != nil {
		return nil
	}
	in["answers"] = r.Answers
	return encode(map[string]any{"hookSpecificOutput": out{HookEventName: PreToolUse, PermissionDecision: Allow, UpdatedInput: in}})
}

// encode is v as one line of compact JSON, with &, < and > as they are.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return b.Bytes()
}

// DoctorAck is what the hook prints for a Doctor test request that reached
// the app: the notice it shows. It carries no decision an agent reads.
type DoctorAck struct {
	Received   bool   `json:"asktray_doctor_received"`
	QuestionID string `json:"question_id"`
}

// formatDoctor acknowledges a Doctor test request the app took (one that
// names its notice), whatever else the reply says: a test allows nothing.
func formatDoctor(r Reply) []byte {
	if r.QuestionID == "" {
		return nil
	}
	return encode(DoctorAck{Received: true, QuestionID: r.QuestionID})
}
