package clientsetup

// 'asktray config AGENT --hooks' installs the hooks that run 'asktray hook
// AGENT'. The agent table (app/hook, one file per agent) says which events,
// with which matcher and timeout, where each agent keeps them and in which
// shape (hook.Settings): an event's list holds either matcher groups,
// {EVENT: [{"matcher": M, "hooks": [{"type": "command", COMMAND: C,
// TIMEOUT: SECONDS}]}]}, or (Flat) the handlers themselves.
//
// asktray's handlers are those whose command runs 'hook AGENT' of a program
// named asktray; everything else in the file is left as it is.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/hook"
)

// HookAgents lists the agents whose hooks 'asktray config AGENT --hooks'
// installs.
func HookAgents() []string {
	var out []string
	for _, a := range hook.Agents() {
		out = append(out, string(a))
	}
	return out
}

// Hooks is one agent's hooks setup.
type Hooks struct {
	Agent    hook.Agent
	Title    string
	spec     hook.Spec
	Path     string        // the file the hooks go in
	Deadline time.Duration // the person's question deadline now, for the note
	entries  []hook.Entry
	exe      string // the desktop binary, which hooks installed before the hook-only one run
}

// BuildHooks makes agent's hooks setup: the hooks run the hook-only binary
// sys.HookExe, else sys.Exe, with data dir dataDir. deadline, the person's question deadline, is only said in the
// note: the entries do not depend on it (the hook reads it at run time).
func BuildHooks(agent string, sys Sys, dataDir string, deadline time.Duration) (Hooks, error) {
	a, err := hook.ParseAgent(agent)
	if err != nil {
		return Hooks{}, err
	}
	sp, _ := hook.Lookup(a)
	exe := sys.Exe
	if sys.HookExe != "" {
		exe = sys.HookExe
	}
	h := Hooks{Agent: a, Title: sp.Title, Path: sp.Settings.File(sys.Home, sys.Getenv), spec: sp, Deadline: deadline,
		entries: hook.Entries(a, exe, dataDir), exe: sys.Exe}
	return h, nil
}

// group is the value asktray adds for entry e: a matcher group, or a
// handler when the agent's lists hold handlers (Flat).
func (h Hooks) group(e hook.Entry) any {
	if h.spec.Settings.Flat {
		return h.handler(e)
	}
	return struct {
		Matcher string `json:"matcher,omitempty"`
		Hooks   []any  `json:"hooks"`
	}{e.Matcher, []any{h.handler(e)}}
}

// ownKeys are the keys of a handler that asktray writes, in order, with
// their values for entry e; a handler's other keys are the person's.
func (h Hooks) ownKeys(e hook.Entry) ([]string, []any) {
	st := h.spec.Settings
	keys, vals := []string{"type", st.CommandKey}, []any{"command", e.Command()}
	if st.PowerShellKey != "" {
		keys, vals = append(keys, st.PowerShellKey), append(vals, powerShellCommand(e.Args))
	}
	return append(keys, st.TimeoutKey), append(vals, e.Timeout)
}

// handler is asktray's handler for entry e, as a JSON object with ownKeys'
// order.
func (h Hooks) handler(e hook.Entry) any {
	keys, vals := h.ownKeys(e)
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(plainJSON(k))
		b.WriteByte(':')
		b.Write(plainJSON(vals[i]))
	}
	b.WriteByte('}')
	return json.RawMessage(b.Bytes())
}

// plainJSON is v as compact JSON with &, < and > as they are (a PowerShell
// command starts with &); v is a string or a number.
func plainJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // strings and numbers always encode
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// powerShellCommand is args as a PowerShell command line (the call operator
// and single-quoted arguments).
func powerShellCommand(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", "''") + "'"
	}
	return "& " + strings.Join(q, " ")
}

// Snippet returns the hooks as the JSON that goes in the file.
func (h Hooks) Snippet() ([]byte, error) {
	if h.spec.Settings.Plugin != nil {
		return h.pluginSource(), nil
	}
	events := map[string][]any{}
	for _, e := range h.entries {
		events[e.Event] = append(events[e.Event], h.group(e))
	}
	doc := map[string]any{"hooks": events}
	if v := h.spec.Settings.Version; v != 0 {
		doc["version"] = v
	}
	return encodeJSON(doc)
}

// isOurs reports whether the hook command cmd runs 'asktray … hook AGENT'.
func isOurs(cmd string, a hook.Agent) bool {
	f := strings.Fields(strings.NewReplacer("'", " ", `"`, " ").Replace(cmd))
	for i := 1; i+1 < len(f); i++ {
		if f[i] == "hook" && f[i+1] == string(a) {
			prog := strings.ToLower(strings.Join(f[:i], " "))
			return strings.Contains(prog, "asktray")
		}
	}
	return false
}

// handlerOurs reports whether the decoded handler v is one of asktray's.
func (h Hooks) handlerOurs(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	// This very executable counts too, whatever its name, and so does the
	// hook-only binary beside it.
	var own []string
	if len(h.entries) > 0 && len(h.entries[0].Args) >= 3 {
		for _, exe := range []string{h.entries[0].Args[0], h.exe} {
			args := append([]string{exe}, h.entries[0].Args[1:3]...)
			own = append(own, hook.Entry{Args: args}.Command()+" ", powerShellCommand(args)+" ")
		}
	}
	for _, k := range []string{"command", "bash", "powershell"} {
		s, ok := m[k].(string)
		if ok && (isOurs(s, h.Agent) || slices.ContainsFunc(own, func(p string) bool { return strings.HasPrefix(s+" ", p) })) {
			return true
		}
	}
	return false
}

// strip removes asktray's handlers from d, and the groups, event lists and
// hooks object they leave empty. It reports whether it removed any.
func (h Hooks) strip(d *jsonDoc) (bool, error) {
	return h.stripBut(d, nil)
}

// place is a handler's place in the file: hooks[event][group], and
// hooks[event][group].hooks[handler] in a matcher group (handler -1 when
// the agent's lists hold handlers).
type place struct {
	event          string
	group, handler int
}

// stripBut is strip leaving the handlers at keep alone.
func (h Hooks) stripBut(d *jsonDoc, keep map[place]bool) (bool, error) {
	var events map[string]any
	if ok, err := d.decode(&events, "hooks"); !ok || err != nil {
		return false, err
	}
	removed := false
	for _, ev := range slices.Sorted(maps.Keys(events)) {
		list, ok := events[ev].([]any)
		if !ok {
			continue
		}
		n := len(list)
		for i, g := range slices.Backward(list) {
			r, left, err := h.stripGroup(d, place{ev, i, -1}, g, keep)
			if err != nil {
				return removed, err
			}
			removed = removed || r
			if r && left == 0 {
				n--
			}
		}
		if n == 0 && len(list) > 0 {
			if err := d.remove("hooks", ev); err != nil {
				return removed, err
			}
			delete(events, ev)
		}
	}
	if removed && len(events) == 0 {
		return removed, d.remove("hooks")
	}
	return removed, nil
}

// stripGroup removes asktray's handlers but those at keep from the group
// (or, in a Flat list, the handler) v at at. It returns whether it removed
// any and how many handlers are left there.
func (h Hooks) stripGroup(d *jsonDoc, at place, v any, keep map[place]bool) (bool, int, error) {
	idx := strconv.Itoa(at.group)
	if h.spec.Settings.Flat {
		if h.handlerOurs(v) && !keep[at] {
			return true, 0, d.remove("hooks", at.event, idx)
		}
		return false, 1, nil
	}
	g, ok := v.(map[string]any)
	if !ok {
		return false, 1, nil
	}
	handlers, _ := g["hooks"].([]any)
	left := len(handlers)
	for j, hd := range slices.Backward(handlers) {
		if h.handlerOurs(hd) && !keep[place{at.event, at.group, j}] {
			if err := d.remove("hooks", at.event, idx, "hooks", strconv.Itoa(j)); err != nil {
				return true, left, err
			}
			left--
		}
	}
	if left == len(handlers) {
		return false, left, nil
	}
	if left == 0 {
		return true, 0, d.remove("hooks", at.event, idx)
	}
	return true, left, nil
}

// install puts asktray's hooks into d. An asktray handler already there for
// an event stays in its place and only the keys asktray owns change (none
// when it is already right); every other group and handler keeps its bytes
// and its place. Codex keys its review of each hook by that place
// (file:event:group:handler) and a hash of the handler, so moving a group
// would make it ask about someone else's hooks too. Further asktray handlers
// go; an event with none gets a new group at the end of its list.
func (h Hooks) install(d *jsonDoc) error {
	if v := h.spec.Settings.Version; v != 0 && d.find("version") == nil {
		if err := d.set([]string{"version"}, v); err != nil {
			return err
		}
	}
	if _, err := d.object([]string{"hooks"}); err != nil {
		return err
	}
	var events map[string]any
	if _, err := d.decode(&events, "hooks"); err != nil {
		return err
	}
	keep, placed := map[place]bool{}, map[string]bool{}
	for _, e := range h.entries {
		v, ok := events[e.Event]
		if !ok {
			continue
		}
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("hooks.%s is not a list", e.Event)
		}
		if at, ok := h.keeper(list, e); ok {
			keep[at], placed[e.Event] = true, true
			if err := h.update(d, at, e); err != nil {
				return err
			}
		}
	}
	if _, err := h.stripBut(d, keep); err != nil {
		return err
	}
	for _, e := range h.entries {
		if placed[e.Event] {
			continue
		}
		var err error
		if d.find("hooks", e.Event) == nil {
			err = d.add([]string{"hooks", e.Event}, []any{h.group(e)})
		} else {
			err = d.add([]string{"hooks", e.Event, "-"}, h.group(e))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// keeper finds the first asktray handler in list, an event's groups (or,
// Flat, its handlers), that can stay as entry e's: in matcher groups, one
// in a group whose matcher is e's.
func (h Hooks) keeper(list []any, e hook.Entry) (place, bool) {
	for i, v := range list {
		if h.spec.Settings.Flat {
			if h.handlerOurs(v) {
				return place{e.Event, i, -1}, true
			}
			continue
		}
		g, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if m, _ := g["matcher"].(string); m != e.Matcher {
			continue
		}
		handlers, _ := g["hooks"].([]any)
		for j, hd := range handlers {
			if h.handlerOurs(hd) {
				return place{e.Event, i, j}, true
			}
		}
	}
	return place{}, false
}

// update sets the keys asktray owns in the handler at at to entry e's,
// leaving those already right and every other key as they are.
func (h Hooks) update(d *jsonDoc, at place, e hook.Entry) error {
	path := []string{"hooks", at.event, strconv.Itoa(at.group)}
	if at.handler >= 0 {
		path = append(path, "hooks", strconv.Itoa(at.handler))
	}
	keys, vals := h.ownKeys(e)
	for i, k := range keys {
		if err := d.setMember(path, k, vals[i]); err != nil {
			return err
		}
	}
	return nil
}
