package hook

import (
	"fmt"
	"slices"
	"strings"
)

// Agent names a coding agent whose hooks Asktray answers. The name is also
// the client name questions carry, so rules name it the same way.
type Agent string

// Spec is everything the rest of Asktray knows of one agent's hooks. Each
// agent declares its own in a file of this package (claude_code.go, …) and
// registers it from an init function; nothing outside this package branches
// on an agent's name.
type Spec struct {
	Name  Agent  // "claude-code": the command line's, the rules' and the questions' name
	Title string // "Claude Code": as a person calls it
	// Program is the command the agent's package installs ("claude"),
	// looked for on PATH to tell whether the agent is on this machine (the
	// first-run window); "" leaves that to the folder of its settings.
	Program string
	// Events are the hooks Asktray installs, in the agent's own spelling;
	// the first is the permission event.
	Events []Event
	// Spellings maps the agent's own event names, where they differ from
	// Claude Code's, to Claude Code's, which the rest of Asktray uses.
	Spellings map[string]string
	// CamelCase says the agent's payload spells its keys in camelCase and
	// names its event in hookName (sessionId, toolName, …) rather than
	// snake_case with hook_event_name.
	CamelCase bool
	// Answer is how the agent reads a decision on stdout.
	Answer Answer
	// RemembersRules says the agent offers its own "always allow" rules
	// (permission_suggestions) and takes the one the person picked back
	// with an allow (updatedPermissions).
	RemembersRules bool
	// AnswersQuestions says the agent's own multiple-choice questions
	// (AskUserQuestion) may be answered through its PreToolUse hook.
	AnswersQuestions bool
	// GatesToolUse says the agent's PreToolUse hook, installed for every
	// tool, decides each tool call in every permission mode (the rules
	// decide, the tray asks a high-risk one, the rest is left to the agent's
	// mode), and that a call it took to the tray is not asked again at its
	// PermissionRequest.
	GatesToolUse bool
	// NamesMCPTools says the agent names MCP tools mcp__SERVER__TOOL, so
	// Asktray's own (OwnTool) are recognised and never asked about.
	NamesMCPTools bool
	// OwnToolPrefix, when not "", starts the names the agent gives
	// Asktray's own MCP tools when it does not name them as Claude Code
	// does (Gemini CLI: "mcp_asktray_"); they are never asked about.
	OwnToolPrefix string
	// Approves, when not nil, reports whether the agent runs a call its
	// PreToolUse hook allowed without asking the person again, in its
	// permission mode mode (Payload.PermissionMode); nil is always. Where it
	// does not, the tray asks nothing (an allow would be asked twice): the
	// person's deny rules deny, and a call the tray would ask about is sent
	// to the agent's own prompt with a warning (AskAgent).
	Approves func(mode string) bool
	// Mode, when not nil, reads the agent's permission mode from the
	// command lines of the hook's parent and its ancestors (nearest first)
	// when its payload names none; "" when it cannot tell.
	Mode func(ancestors [][]string) string
	// PassesEvent says some of the agent's payloads do not name their
	// event, so each installed command passes --event.
	PassesEvent bool
	// AsksToo says the agent shows its own prompt while the hook runs and
	// sends nothing when that prompt is answered Yes, so the tray says so.
	AsksToo bool
	// ShellTools are the agent's tool names whose input is a shell command,
	// rendered and graded as Claude Code's Bash.
	ShellTools []string
	// Settings is where the hooks go and how an entry is written.
	Settings Settings
	// Trust reads the agent's own switches and reviews that decide whether
	// it runs an installed hook at all (asktray doctor); nil when it has
	// none.
	Trust func(TrustEnv) []TrustLine
	// Bind, when not nil, finds what bounds a permission request of this
	// agent when the hook's parent does not: Codex's hooks run from a
	// daemon that outlives the terminal asking. parent is the hook's parent
	// pid; procs reads processes (SystemProcs, or a test's). See Binding.
	Bind func(p Payload, parent int, procs Procs) Binding
	// Unwrap, when not nil, turns the agent's own payload (what its plugin
	// hands the hook) into the snake_case shape Parse reads; a payload
	// already in that shape (the doctor's test) passes unchanged.
	Unwrap func(data []byte) ([]byte, error)
	// HookLimit, when not 0, is how long in seconds the agent waits for a
	// hook before it goes on without it, a limit it lets no one set (Cline:
	// 120 s, after which it runs the call under its own setting). Each entry
	// passes it as --timeout, so the hook gives up (hook.Margin) before.
	HookLimit int
	// RunsUndecided says the agent runs a call its hook left undecided
	// without asking anyone, in its default setting (Cline's auto-approve),
	// and has no answer that opens its own prompt: a call the tray asked
	// about and got no answer for (timed out, held while away) is stopped
	// rather than run; a dismissal still leaves it to the agent.
	RunsUndecided bool
	// Preface, when not "", is what the tray's dialog says first of the
	// agent's PreToolUse questions: what the person's answer does there.
	Preface string
}

// Event is one hook Asktray installs for an agent.
type Event struct {
	Name    string // as the agent's settings file spells it
	Matcher string // "" for every tool
}

// Answer is how an agent reads a hook's decision.
type Answer int

// The ways an agent reads a decision.
const (
	// HookSpecific is {"hookSpecificOutput": {"hookEventName":
	// "PermissionRequest", "decision": {"behavior": …, "message": …}}}
	// (Claude Code, Codex).
	HookSpecific Answer = iota
	// BehaviorOnly is {"behavior": …, "message": …} (Copilot CLI).
	BehaviorOnly
	// ReplyBody is the body of opencode's permission reply route,
	// {"reply": "once"|"reject", "message": …}, which asktray's plugin
	// posts as it is.
	ReplyBody
	// DecisionOnly is {"decision": "allow"|"deny"|"ask", "reason": …,
	// "systemMessage": …} (Gemini CLI's BeforeTool).
	DecisionOnly
	// CancelOnly is {"cancel": true, "errorMessage": …} for a deny, which
	// stops the agent's whole task, and nothing for an allow (Cline's
	// PreToolUse, which has no allow).
	CancelOnly
)

// Settings says where an agent keeps its hooks and how an entry looks.
type Settings struct {
	// File is the hooks file, from the home dir and the environment.
	File func(home string, getenv func(string) string) string
	// Flat says an event's list holds handlers; otherwise it holds matcher
	// groups, {"matcher": M, "hooks": [handlers]}.
	Flat bool
	// CommandKey, TimeoutKey and PowerShellKey are a handler's keys for the
	// POSIX command line, the timeout and (when not "") a PowerShell
	// command line.
	CommandKey, TimeoutKey, PowerShellKey string
	// TimeoutMS says the timeout is in milliseconds (Gemini CLI), not
	// seconds.
	TimeoutMS bool
	// Comments says the agent's loader takes comments (and trailing commas,
	// unless NoTrailingCommas) in the file, so set-up keeps them and reading
	// it back (asktray doctor) takes them too.
	Comments bool
	// NoTrailingCommas says the agent refuses a file with a trailing comma
	// (Gemini CLI), so set-up adds none.
	NoTrailingCommas bool
	// Version, when not 0, is the file's top-level "version".
	Version int
	// OwnFile says the file is asktray's own: removing the hooks deletes it
	// when nothing else is left in it.
	OwnFile bool
	// Note says when the agent picks the hooks up and what it asks of the
	// person; file is the hooks file.
	Note func(file string) string
	// Removed, when not "", is said after the hooks are taken out.
	Removed string
	// Plugin, when not nil, says the agent runs no hook commands from a
	// settings file but loads a plugin: the file (asktray's own) is the
	// plugin's source, which runs the first entry's command.
	Plugin *Plugin
}

// Plugin is how asktray writes and reads back its plugin file.
type Plugin struct {
	// Source is the plugin file running e's command.
	Source func(e Entry) []byte
	// Read finds the command and timeout in a plugin file Source wrote;
	// ok is false when it holds none.
	Read func(src []byte) (args []string, timeout int, ok bool)
	// Shared, when not "", says the file's name is the agent's own, not
	// asktray's (Cline's hooks/PreToolUse): a file of that name asktray did
	// not write is the person's, and set-up leaves it as it is and says
	// Shared, what the person can do with it.
	Shared string
}

// Binding is what bounds an agent's permission request besides its hook's
// parent process.
type Binding struct {
	// Watch, when not nil, reports whether what asks is still there; the
	// hook polls it and gives up when it turns false.
	Watch func() bool
	// Detached says the hook's parent outlives the agent's terminal and no
	// terminal could be told to be the one asking (Request.Detached).
	Detached bool
}

var table []Spec

// register adds sp to the agent table; each agent's file calls it from
// init. It panics on a spec that would make the table ambiguous, which is a
// programming error.
func register(sp Spec) {
	if sp.Name == "" || sp.Title == "" || len(sp.Events) == 0 || sp.Settings.File == nil {
		panic(fmt.Sprintf("hook: agent %q: a name, a title, events and a settings file are required", sp.Name))
	}
	if _, ok := Lookup(sp.Name); ok {
		panic(fmt.Sprintf("hook: agent %q registered twice", sp.Name))
	}
	table = append(table, sp)
	slices.SortFunc(table, func(a, b Spec) int { return strings.Compare(string(a.Name), string(b.Name)) })
}

// Agents lists every agent in the table, by name. It does not block.
func Agents() []Agent {
	out := make([]Agent, len(table))
	for i, sp := range table {
		out[i] = sp.Name
	}
	return out
}

// Specs lists every agent's spec, by name. It does not block.
func Specs() []Spec { return slices.Clone(table) }

// Lookup returns agent a's spec; ok is false for an agent not in the
// table. It does not block.
func Lookup(a Agent) (Spec, bool) {
	for _, sp := range table {
		if sp.Name == a {
			return sp, true
		}
	}
	return Spec{}, false
}

// Title is agent a as a person calls it ("Claude Code"), or its name when
// it is not in the table.
func Title(a Agent) string {
	if sp, ok := Lookup(a); ok {
		return sp.Title
	}
	return string(a)
}

// Names is the agents' names joined with sep, for usage strings and
// errors: "claude-code|codex|copilot-cli".
func Names(sep string) string {
	names := make([]string, len(table))
	for i, sp := range table {
		names[i] = string(sp.Name)
	}
	return strings.Join(names, sep)
}

// ParseAgent returns the agent named s, or an error listing the agents.
func ParseAgent(s string) (Agent, error) {
	if _, ok := Lookup(Agent(s)); ok {
		return Agent(s), nil
	}
	return "", fmt.Errorf("agent: %q is not one of %s", s, Names(", "))
}

// IsShellTool reports whether tool, a tool name of this agent, runs a shell
// command.
func (sp Spec) IsShellTool(tool string) bool { return slices.Contains(sp.ShellTools, tool) }

// Installs reports whether the agent's hooks include event, in Claude
// Code's spelling.
func (sp Spec) Installs(event string) bool {
	return slices.ContainsFunc(sp.Events, func(e Event) bool { return NormalizeEvent(e.Name) == event })
}

// PermissionEvent is the agent's permission event as its file spells it.
func (sp Spec) PermissionEvent() string { return sp.Events[0].Name }

// IsOwnTool reports whether tool, a tool name of this agent, is one of
// Asktray's own MCP tools, which ask the person themselves.
func (sp Spec) IsOwnTool(tool string) bool {
	if sp.NamesMCPTools && OwnTool(tool) {
		return true
	}
	return sp.OwnToolPrefix != "" && strings.HasPrefix(tool, sp.OwnToolPrefix) && len(tool) > len(sp.OwnToolPrefix)
}

// ApprovesIn reports whether the agent runs a call its PreToolUse hook
// allowed without asking again, in permission mode mode (Spec.Approves).
func (sp Spec) ApprovesIn(mode string) bool { return sp.Approves == nil || sp.Approves(mode) }
