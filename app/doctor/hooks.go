package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/asktray/asktray/app/clientsetup"
	"github.com/asktray/asktray/app/hook"
)

// checkHooks checks agent's asktray hooks: one for every event asktray
// installs, each running this binary's 'asktray hook AGENT' with this data
// dir and a timeout that leaves room for the person's deadline; then the
// agent's own trust state and, with env.Test, a test request through the
// installed command.
func checkHooks(ctx context.Context, r *Report, env Env, agent string) {
	h, err := clientsetup.BuildHooks(agent, env.Sys, env.DataDir, env.Deadline)
	if err != nil {
		r.add(Line{Status: Problem, Client: agent, What: "hooks", Text: err.Error()})
		return
	}
	found, _, err := h.Installed()
	if err != nil {
		r.add(Line{Status: Problem, Client: agent, What: "hooks", File: h.Path,
			Text: fmt.Sprintf("cannot read it (%v): fix the file, then run 'asktray config %s --hooks --write'", err, agent)})
		return
	}
	if len(found) == 0 {
		r.add(Line{Status: Unused, Client: agent, What: "hooks", File: h.Path, Text: "no asktray hooks"})
		return
	}
	lines := hookEntryLines(env, h, found)
	for _, l := range lines {
		l.Client, l.What, l.File = agent, "hooks", h.Path
		r.add(l)
	}
	agentTrust(r, env, h, found)
	if env.Test {
		testRequest(ctx, r, env, h, found)
	}
}

// hookEntryLines compares the handlers found with those asktray installs.
func hookEntryLines(env Env, h clientsetup.Hooks, found []clientsetup.FoundHook) []Line {
	fix := fmt.Sprintf("run 'asktray config %s --hooks --write'", h.Agent)
	var out []Line
	want := h.Entries()
	seen := map[string]int{}
	for _, e := range want {
		n := 0
		for _, f := range found {
			if f.Event == e.Event && f.Matcher == e.Matcher {
				n++
			}
		}
		seen[e.Event] = n
		if n == 0 {
			out = append(out, Line{Status: Problem, Key: "hooks." + e.Event, Text: "has no asktray hook" + matcherNote(e.Matcher) + ": " + fix})
		}
	}
	for _, f := range found {
		for _, l := range handlerLines(env, h, f, fix, seen) {
			if !slices.Contains(out, l) { // a plugin's one entry serves every event
				out = append(out, l)
			}
		}
	}
	if len(out) == 0 {
		text := fmt.Sprintf("all %d asktray hooks run this asktray with this data dir", len(want))
		if env.Sys.HookExe != "" {
			text = fmt.Sprintf("all %d asktray hooks run this asktray's hook-only binary (%s) with this data dir", len(want), env.Sys.HookExe)
		}
		out = append(out, Line{Status: Fine, Text: text})
	}
	return out
}

func matcherNote(m string) string {
	if m == "" {
		return ""
	}
	return " with matcher " + m
}

// handlerLines checks one asktray handler found.
func handlerLines(env Env, h clientsetup.Hooks, f clientsetup.FoundHook, fix string, seen map[string]int) []Line {
	want := h.Entries()
	var e *hook.Entry
	for i := range want {
		if want[i].Event == f.Event && want[i].Matcher == f.Matcher {
			e = &want[i]
		}
	}
	st := settingsOf(h.Agent)
	cmdKey := f.Key + "." + st.CommandKey
	if e == nil {
		return []Line{{Status: Problem, Key: f.Key, Text: "is an asktray hook asktray no longer installs here: " + fix + " (it takes it out)"}}
	}
	var out []Line
	if seen[f.Event] > 1 {
		out = append(out, Line{Status: Problem, Key: f.Key, Text: fmt.Sprintf("is one of %d asktray hooks for %s, so each request asks twice: %s", seen[f.Event], f.Event, fix)})
		seen[f.Event] = 1 // said once
	}
	if f.Command != e.Command() {
		argv := shellWords(f.Command)
		why := ""
		switch {
		case len(argv) == 0:
			why = "is empty"
		case e.Args[0] != env.Sys.Exe && sameProgram(argv[0], env.Sys.Exe):
			why = fmt.Sprintf("runs the desktop binary %s for every hook call, while the hook-only %s beside it starts several times faster", argv[0], e.Args[0])
		case programProblem(argv[0], e.Args[0]) != "":
			why = programProblem(argv[0], e.Args[0])
		case dataDirProblem(env, argv) != "":
			why = dataDirProblem(env, argv)
		default:
			why = fmt.Sprintf("is %q, not what asktray writes (%q)", f.Command, e.Command())
		}
		out = append(out, Line{Status: Problem, Key: cmdKey, Text: why + ": " + fix})
	}
	if ps, ok := f.Raw[st.PowerShellKey].(string); ok && st.PowerShellKey != "" && ps != clientsetup.PowerShellCommand(*e) {
		out = append(out, Line{Status: Problem, Key: f.Key + "." + st.PowerShellKey,
			Text: fmt.Sprintf("is %q, not what asktray writes (%q); %s runs it on Windows: %s", ps, clientsetup.PowerShellCommand(*e), h.Title, fix)})
	}
	// An agent that bounds its hooks itself (Cline: 120 s) gets that bound,
	// and its tray questions end before it, whatever the deadline.
	if sp, _ := hook.Lookup(h.Agent); sp.HookLimit == 0 && f.Timeout > 0 && time.Duration(f.Timeout)*time.Second < env.Deadline+hook.Margin {
		out = append(out, Line{Status: Problem, Key: f.Key + "." + st.TimeoutKey,
			Text: fmt.Sprintf("is %d s, shorter than your question deadline (%d s) plus %d s, so the agent cuts the hook off: %s",
				f.Timeout, int(env.Deadline.Seconds()), int(hook.Margin.Seconds()), fix)})
	}
	return out
}

// settingsOf is how agent a keeps its hooks (its entry in app/hook's
// agent table).
func settingsOf(a hook.Agent) hook.Settings {
	sp, _ := hook.Lookup(a)
	return sp.Settings
}

// shellWords splits a POSIX shell command line into words, with the quoting
// hook.Entry.Command uses (single quotes, double quotes, backslashes); it is
// not a shell, only enough to name the program and its arguments.
func shellWords(s string) []string {
	var words []string
	var b strings.Builder
	in, quote, esc := false, rune(0), false
	for _, c := range s {
		switch {
		case esc:
			b.WriteRune(c)
			esc, in = false, true
		case quote == '\'' && c == '\'', quote == '"' && c == '"':
			quote = 0
		case quote == '\'':
			b.WriteRune(c)
		case c == '\\':
			esc, in = true, true
		case quote == 0 && (c == '\'' || c == '"'):
			quote, in = c, true
		case quote == 0 && (c == ' ' || c == '\t' || c == '\n'):
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteRune(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words
}
