// Package hook speaks the hook protocols of coding agents: which events
// Asktray installs, how each agent's stdin payload reads, and how each wants
// its decision printed. It is an agent table: each agent is one file here
// (claude_code.go, codex.go, copilot_cli.go, gemini_cli.go) declaring its Spec, and
// everything else (set-up, the doctor, the hook service, the command line,
// the Connect window) derives from the table; docs/architecture.md, "Adding
// an agent", lists the files a new agent touches.
//
// The command `asktray hook AGENT` (app/cli) reads a payload with Parse, sends
// the resulting Request over the control socket (app/control), and prints
// Format's bytes for the Reply it gets. Everything here is safe for
// concurrent use from any goroutine once the agents' init functions have
// run, and pure but for SystemProcs (and the Bind and Trust functions that
// read through what they are handed). It imports only the standard library
// and app/procfs; app/boundary_test.go enforces that.
package hook

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// Event names, normalized to Claude Code's spelling whatever the agent's own.
const (
	PermissionRequest  = "PermissionRequest"
	Notification       = "Notification"
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	UserPromptSubmit   = "UserPromptSubmit"
	Stop               = "Stop"
	SessionEnd         = "SessionEnd"
	// PermissionDenied is Claude Code's report that its auto mode's
	// classifier blocked a tool call (Claude Code 2.1.332): the call did
	// not run, and the person decided nothing.
	PermissionDenied = "PermissionDenied"
	// Doctor is the test request 'asktray doctor' sends through an
	// installed hook command; no agent sends it. The app shows it as a
	// notice, and the hook prints only an acknowledgement (DoctorAck), never
	// a decision.
	Doctor = "AsktrayDoctor"
)

// AskUserQuestion is the Claude Code tool whose multiple-choice questions the
// tray may answer (PreToolUse, setting hook_ask_user_question).
const AskUserQuestion = "AskUserQuestion"

// OwnToolPrefix starts the name Claude Code gives each of Asktray's own MCP
// tools ("mcp__asktray__ask_user"), the server's name being the one
// `asktray config claude-code` writes. Calling one asks the person in the
// tray, so the hooks never raise an approval for it: that would be a second
// tray question before the first.
const OwnToolPrefix = "mcp__asktray__"

// OwnToolNames are the names of Asktray's own MCP tools, in the order
// tools/list shows them: mcpbridge's ToolNames, which this package may not
// import (app/owntools_test.go keeps the two lists equal).
var OwnToolNames = []string{
	"ask_user", "ask_confirm", "ask_choice", "ask_multi_select", "ask_text", "ask_form",
	"request_approval", "permission_prompt", "notify", "get_answer", "cancel_question",
}

// OwnTool reports whether tool is one of Asktray's own MCP tools as Claude
// Code names them: the prefix and one of OwnToolNames exactly, so that a
// name another server or a made-up one carries under the prefix
// ("mcp__asktray__evil") is not taken for Asktray's.
func OwnTool(tool string) bool {
	name, ok := strings.CutPrefix(tool, OwnToolPrefix)
	return ok && slices.Contains(OwnToolNames, name)
}

// Tool is the tool name every hook approval carries, so rules match hook
// approvals as "permission_request:<agent's tool>" (e.g.
// "permission_request:Bash"), next to permission_prompt's and
// request_approval's.
const Tool = "permission_request"

// Events returns the events to install for agent a, spelled as a's config
// file spells them (nil for an agent not in the table). The first is always
// the permission event. Each agent's file says why it installs each.
func Events(a Agent) []string {
	sp, ok := Lookup(a)
	if !ok {
		return nil
	}
	out := make([]string, len(sp.Events))
	for i, e := range sp.Events {
		out[i] = e.Name
	}
	return out
}

// Matcher returns the matcher to install with event of agent a, or "" for
// every tool.
func Matcher(a Agent, event string) string {
	sp, _ := Lookup(a)
	for _, e := range sp.Events {
		if e.Name == event {
			return e.Matcher
		}
	}
	return ""
}

// Entry is one hook setup writes into an agent's config.
type Entry struct {
	Event string // as the agent spells it
	// Matcher is "" for every tool, which every entry Asktray installs is
	// (Claude Code's PreToolUse used to match only AskUserQuestion; a rerun
	// moves its handler to a group for every tool).
	Matcher string
	Args    []string // the command: Args[0] is the asktray executable
	// Timeout is in the agent's unit: seconds (Claude Code and Codex
	// "timeout", Copilot CLI "timeoutSec"), milliseconds where
	// Settings.TimeoutMS (Gemini CLI "timeout").
	Timeout int
}

// Command returns e's command line for a shell, each argument quoted when it
// needs to be.
func (e Entry) Command() string {
	q := make([]string, len(e.Args))
	for i, s := range e.Args {
		q[i] = shellQuote(s)
	}
	return strings.Join(q, " ")
}

// Margin is how long before the agent's hook timeout the hook gives up, so
// that it returns no decision (and the agent's own prompt appears) rather
// than being killed.
const Margin = 3 * time.Second

// MaxDeadline is the longest question deadline a person can set,
// question.MaxTimeout, written again here because app/hook stays free of
// the question model for the lean asktray-hook binary (app/hookclient and
// app/hookrun import only app/hook of the core);
// TestHook_InstalledEntryWaitsForAnyDeadline pins the two together.
const MaxDeadline = 24 * time.Hour

// InstalledTimeout is the hook timeout, in seconds, setup writes: the longest
// question deadline plus room to return. It does not depend on the person's
// settings, so that the entry setup writes is the same bytes on every run:
// Codex asks the person to review a hook again whenever its entry changes
// (it keeps a hash of each hook, keyed by the file, the event and the hook's
// place there). The hook reads the person's deadline at run time, from the
// app, and waits at most that long; notices and session events return at
// once.
func InstalledTimeout() int {
	return int((MaxDeadline + 2*Margin) / time.Second)
}

// Entries returns the hooks setup installs for agent a: exe is the asktray
// executable and dataDir the data dir to pass ("" for the default). The
// command line holds nothing but these (no deadline), so it stays the same
// when settings change. An agent some of whose payloads name no event
// (Spec.PassesEvent: Copilot CLI) gets --event in each entry, and one that
// bounds its hooks' run itself (Spec.HookLimit: Cline) that limit as
// --timeout and as the entry's timeout.
func Entries(a Agent, exe, dataDir string) []Entry {
	t := InstalledTimeout()
	sp, _ := Lookup(a)
	if sp.HookLimit > 0 {
		t = sp.HookLimit
	}
	if sp.Settings.TimeoutMS {
		t *= 1000
	}
	var out []Entry
	for _, ev := range Events(a) {
		args := []string{exe, "hook", string(a)}
		if sp.PassesEvent {
			args = append(args, "--event", ev)
		}
		if sp.HookLimit > 0 {
			args = append(args, "--timeout", strconv.Itoa(sp.HookLimit))
		}
		if dataDir != "" {
			args = append(args, "--data-dir", dataDir)
		}
		out = append(out, Entry{Event: ev, Matcher: Matcher(a, ev), Args: args, Timeout: t})
	}
	return out
}

// shellQuote quotes s for a POSIX shell unless it is plainly safe.
func shellQuote(s string) string {
	safe := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)
	}
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !safe(r) }) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
