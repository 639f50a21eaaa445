package clientsetup

// Reading back what is installed, for 'asktray doctor' (app/doctor): where a
// client's asktray entry is and what it holds, and which of an agent's hook
// handlers are asktray's. Nothing here writes.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/asktray/asktray/app/hook"
)

// Found is a client's asktray MCP entry as its file holds it.
type Found struct {
	Path   string         // the file read (a symlink followed)
	Exists bool           // the file exists
	Key    string         // where the entry is, dotted: "mcpServers.asktray"; "" when there is none
	Entry  map[string]any // the entry's keys (JSON numbers as json.Number)
}

// Installed reads t's file and returns the asktray entry in it, wherever the
// client reads servers from (for opencode also straight under "mcp"). A file
// that cannot be read or parsed is an error naming it. It blocks on the file
// system only.
func (t Target) Installed() (Found, error) {
	path, old, _, exists, err := readConfigFile(t.Path)
	if err != nil {
		return Found{Path: t.Path}, err
	}
	f := Found{Path: path, Exists: exists}
	if !exists {
		return f, nil
	}
	if t.rootPath == nil {
		return f, f.fromTOML(old)
	}
	d, err := parseJSONDoc(old, true)
	if err != nil {
		return f, fmt.Errorf("%s: %w", path, err)
	}
	for _, root := range append([][]string{t.rootPath}, t.altRoots...) {
		at := append(slices.Clone(root), ServerName)
		var m map[string]any
		ok, err := d.decode(&m, at...)
		if err != nil {
			return f, fmt.Errorf("%s: %w", path, err)
		}
		if ok {
			f.Key, f.Entry = strings.Join(at, "."), m
			return f, nil
		}
	}
	return f, nil
}

// fromTOML finds [mcp_servers.asktray] in Codex's config.toml.
func (f *Found) fromTOML(src []byte) error {
	var doc map[string]any
	if err := toml.Unmarshal(src, &doc); err != nil {
		return fmt.Errorf("%s: not TOML (%w)", f.Path, err)
	}
	servers, _ := doc["mcp_servers"].(map[string]any)
	if e, ok := servers[ServerName].(map[string]any); ok {
		f.Key, f.Entry = "mcp_servers."+ServerName, e
	}
	return nil
}

// FoundHook is one of asktray's handlers in an agent's hooks file.
type FoundHook struct {
	Event   string // as the file spells it
	Matcher string // the group's matcher ("" for none or a Flat list)
	// Group and Handler are its place: hooks[Event][Group], and in a
	// matcher group .hooks[Handler] (Handler -1 in a Flat list).
	Group, Handler int
	Key            string // the handler's place, dotted: "hooks.PermissionRequest[0].hooks[0]"
	Command        string // the shell command line (hook.Settings.CommandKey)
	Timeout        int    // seconds; 0 when the entry has none
	// HasMatcher: the group has a "matcher" key, even an empty one.
	HasMatcher bool
	// Raw is the handler's keys as the file holds them.
	Raw map[string]any
}

// Installed reads the agent's hooks file and returns asktray's handlers in
// it, in file order; exists is false when there is no file. It blocks on the
// file system only.
func (h Hooks) Installed() (found []FoundHook, exists bool, err error) {
	path, old, _, exists, err := readConfigFile(h.Path)
	if err != nil || !exists {
		return nil, exists, err
	}
	if h.spec.Settings.Plugin != nil {
		return h.installedPlugin(old), true, nil
	}
	d, err := parseJSONDoc(old, h.spec.Settings.Comments)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	var events map[string]any
	if _, err := d.decode(&events, "hooks"); err != nil {
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	for _, ev := range sortedKeys(events) {
		list, _ := events[ev].([]any)
		for i, g := range list {
			found = append(found, h.foundIn(ev, i, g)...)
		}
	}
	return found, true, nil
}

// foundIn returns asktray's handlers in v, the group (or, Flat, the
// handler) at hooks[ev][i].
func (h Hooks) foundIn(ev string, i int, v any) []FoundHook {
	at := fmt.Sprintf("hooks.%s[%d]", ev, i)
	st := h.spec.Settings
	if st.Flat {
		if !h.handlerOurs(v) {
			return nil
		}
		m := v.(map[string]any)
		return []FoundHook{{Event: ev, Group: i, Handler: -1, Key: at, Command: str(m[st.CommandKey]), Timeout: timeoutSec(st, m[st.TimeoutKey]), Raw: m}}
	}
	g, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []FoundHook
	_, hasMatcher := g["matcher"].(string)
	handlers, _ := g["hooks"].([]any)
	for j, hd := range handlers {
		if !h.handlerOurs(hd) {
			continue
		}
		m := hd.(map[string]any)
		out = append(out, FoundHook{Event: ev, Matcher: str(g["matcher"]), Group: i, Handler: j,
			Key: fmt.Sprintf("%s.hooks[%d]", at, j), Command: str(m[st.CommandKey]), Timeout: timeoutSec(st, m[st.TimeoutKey]), HasMatcher: hasMatcher, Raw: m})
	}
	return out
}

// Entries returns the hooks Write installs.
func (h Hooks) Entries() []hook.Entry { return slices.Clone(h.entries) }

// ReadJSON reads a JSON (or JSONC) file into a map; exists is false when
// there is none. For 'asktray doctor', which reads the agents' own settings.
// It blocks on the file system only.
func ReadJSON(path string) (m map[string]any, exists bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	d, err := parseJSONDoc(b, true)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := d.decode(&m); err != nil {
		return nil, true, fmt.Errorf("%s: %w", path, err)
	}
	return m, true, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// num is v, a decoded JSON number, as an int (0 when it is none).
// timeoutSec is a handler's timeout v in seconds, whatever the agent's unit
// (Settings.TimeoutMS: milliseconds, rounded up).
func timeoutSec(st hook.Settings, v any) int {
	n := num(v)
	if st.TimeoutMS && n > 0 {
		return (n + 999) / 1000
	}
	return n
}

func num(v any) int {
	switch n := v.(type) {
	case fmt.Stringer: // json.Number
		i, _ := strconv.Atoi(n.String())
		return i
	case float64:
		return int(n)
	}
	return 0
}

// PowerShellCommand is e's command line as Copilot CLI's "powershell" key
// holds it, which Copilot CLI runs on Windows.
func PowerShellCommand(e hook.Entry) string { return powerShellCommand(e.Args) }
