package clientsetup

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/asktray/asktray/app/hook"
)

// An agent that loads plugins rather than running hook commands
// (hook.Settings.Plugin: opencode) gets asktray's own plugin file, whose
// source runs 'asktray hook AGENT'. The file is asktray's alone: a rerun
// writes it again only when its bytes would change, and --remove deletes it.
// Where the file's name is the agent's (Plugin.Shared: Cline's
// hooks/PreToolUse), a file there that asktray did not write is left as it
// is.

// pluginSource is the plugin file for h.
func (h Hooks) pluginSource() []byte { return h.spec.Settings.Plugin.Source(h.entries[0]) }

// applyPlugin writes (or, remove, deletes) asktray's plugin file, backing up
// a file that differs. It reports to out and blocks on the file system only.
func (h Hooks) applyPlugin(out io.Writer, remove bool) error {
	path, old, mode, exists, err := readConfigFile(h.Path)
	if err != nil {
		return err
	}
	want := h.pluginSource()
	switch {
	case remove && !exists:
		fmt.Fprintf(out, "There is no %s; no asktray plugin to remove.\n", path)
		return nil
	case remove:
		if _, _, ok := h.spec.Settings.Plugin.Read(old); !ok {
			return fmt.Errorf("%s is not asktray's plugin; asktray left it untouched", path)
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		fmt.Fprintf(out, "Removed %s, asktray's plugin for %s.\n", path, h.Title)
		if r := h.spec.Settings.Removed; r != "" {
			fmt.Fprintln(out, r)
		}
		return nil
	case exists && bytes.Equal(old, want):
		fmt.Fprintf(out, "%s already is this asktray plugin; nothing to change.\n", path)
		return nil
	case exists && h.spec.Settings.Plugin.Shared != "":
		if _, _, ok := h.spec.Settings.Plugin.Read(old); !ok {
			return fmt.Errorf("%s: %s; asktray left it untouched", path, h.spec.Settings.Plugin.Shared)
		}
	}
	backup, err := prepare(path, old, exists)
	if err != nil {
		return err
	}
	if err := writeFile(path, want, mode); err != nil {
		return err
	}
	h.report(out, path, backup, exists, false)
	return nil
}

// installedPlugin reads asktray's plugin file back as one handler per event
// it takes (hook.Settings.Plugin.Read): the command it runs and its
// timeout, under the key "hooks.entry" (one line holds them, for every
// event).
func (h Hooks) installedPlugin(src []byte) []FoundHook {
	args, timeout, ok := h.spec.Settings.Plugin.Read(src)
	if !ok {
		return nil
	}
	cmd := hook.Entry{Args: args}.Command()
	var out []FoundHook
	for i, e := range h.entries {
		out = append(out, FoundHook{Event: e.Event, Group: i, Handler: -1, Key: "hooks.entry", Command: cmd, Timeout: timeout,
			Raw: map[string]any{"command": cmd, "timeout": timeout}})
	}
	return out
}
