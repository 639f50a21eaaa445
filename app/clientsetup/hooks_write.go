package clientsetup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/tailscale/hujson"

	"github.com/asktray/asktray/app/hook"
)

// Print writes what 'asktray config AGENT --hooks' prints: where the hooks
// go, the JSON, and what to know.
func (h Hooks) Print(w io.Writer) error {
	snip, err := h.Snippet()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s hooks\n\n", h.Title)
	if h.spec.Settings.OwnFile {
		fmt.Fprintf(w, "Save this as %s\n", h.Path)
	} else {
		fmt.Fprintf(w, "Add these to \"hooks\" in %s\n", h.Path)
	}
	fmt.Fprintf(w, "(or let 'asktray config %s --hooks --write' merge them in, keeping what is there):\n\n", h.Agent)
	if _, err := w.Write(snip); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", h.note())
	return nil
}

// note says what the hooks do, when the agent picks them up, and how to take
// them out.
func (h Hooks) note() string {
	s := fmt.Sprintf("Each hook runs 'asktray hook %s', which asks you in the tray and prints your answer. When Asktray\n"+
		"is not running, or you do not answer in time, it prints nothing and %s asks in its own prompt.\n"+
		"The hook reads your question deadline (now %d s) from Asktray each time, so changing it needs no\n"+
		"new entry; the timeout, %d s, is the longest deadline plus room to return.\n"+
		"'asktray config %s --hooks --remove' takes the hooks out again.\n",
		h.Agent, h.Title, int(h.Deadline.Seconds()), hook.InstalledTimeout(), h.Agent)
	if sp := h.spec; sp.HookLimit > 0 {
		// An agent that bounds its hooks itself and runs what they leave
		// undecided (Cline) is told apart: its note says the rest.
		s = fmt.Sprintf("The hook runs 'asktray hook %s', which asks you in the tray where your rules or the risk call\n"+
			"for it. %s waits at most %d s for it, so a tray question ends before then, whatever your\n"+
			"deadline (now %d s). When Asktray is not running it prints nothing within about a second.\n"+
			"'asktray config %s --hooks --remove' takes it out again.\n",
			h.Agent, h.Title, sp.HookLimit, int(h.Deadline.Seconds()), h.Agent)
	}
	if note := h.spec.Settings.Note; note != nil {
		s += note(h.Path)
	}
	return s
}

// Write merges the hooks into the agent's file, keeping everything else there:
// asktray's old hooks are replaced, so running it again changes nothing. The
// old file is backed up first and its mode kept. It reports to out and blocks
// on the file system only.
func (h Hooks) Write(out io.Writer) error { return h.apply(out, false) }

// Remove takes asktray's hooks out of the agent's file, as Write puts them
// in, and deletes asktray's own file (hook.Settings.OwnFile) when nothing
// else is left in it. It reports to out and blocks on the file system only.
func (h Hooks) Remove(out io.Writer) error { return h.apply(out, true) }

func (h Hooks) apply(out io.Writer, remove bool) error {
	if h.spec.Settings.Plugin != nil {
		return h.applyPlugin(out, remove)
	}
	return h.applyJSON(out, remove)
}

// applyJSON merges the hooks into, or takes them out of, the agent's JSON
// hooks file.
func (h Hooks) applyJSON(out io.Writer, remove bool) error {
	path, old, mode, exists, err := readConfigFile(h.Path)
	if err != nil {
		return err
	}
	if remove && !exists {
		fmt.Fprintf(out, "There is no %s; no asktray hooks to remove.\n", path)
		return nil
	}
	d, err := parseJSONDoc(old, h.spec.Settings.Comments)
	if err == nil {
		d.noTrailing = h.spec.Settings.NoTrailingCommas
	}
	if err == nil && remove {
		_, err = h.strip(d)
	} else if err == nil {
		err = h.install(d)
	}
	if err != nil {
		if !remove {
			if perr := h.Print(out); perr != nil {
				return perr
			}
		}
		return fmt.Errorf("%s: %w\nasktray left the file untouched; edit the asktray hooks in it by hand", path, err)
	}
	merged := d.bytes()
	if exists && sameJSON(old, merged) {
		if remove {
			fmt.Fprintf(out, "%s holds no asktray hooks; nothing to change.\n", path)
		} else {
			fmt.Fprintf(out, "%s already holds these asktray hooks; nothing to change.\n", path)
		}
		return nil
	}
	backup, err := prepare(path, old, exists)
	if err != nil {
		return err
	}
	if remove && h.spec.Settings.OwnFile && sameJSON(merged, h.emptyFile()) {
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("remove %s: %w", path, err)
		}
		fmt.Fprintf(out, "Removed %s, which held only the asktray hooks (a copy is in %s).\n", path, backup)
		return nil
	}
	if err := writeFile(path, merged, mode); err != nil {
		return err
	}
	h.report(out, path, backup, exists, remove)
	return nil
}

func (h Hooks) report(out io.Writer, path, backup string, exists, remove bool) {
	switch {
	case remove:
		fmt.Fprintf(out, "Removed the asktray hooks from %s.\n", path)
	case exists:
		fmt.Fprintf(out, "Added the asktray hooks to %s.\n", path)
	default:
		fmt.Fprintf(out, "Created %s with the asktray hooks.\n", path)
	}
	if backup != "" {
		fmt.Fprintf(out, "The previous file is in %s.\n", backup)
	}
	if !remove {
		fmt.Fprintln(out, h.note())
	} else if r := h.spec.Settings.Removed; r != "" {
		fmt.Fprintln(out, r)
	}
}

// emptyFile is the agent's own hooks file with no hooks left in it: its
// version alone, if it has one.
func (h Hooks) emptyFile() []byte {
	if v := h.spec.Settings.Version; v != 0 {
		return fmt.Appendf(nil, `{"version": %d}`, v)
	}
	return []byte(`{}`)
}

// sameJSON reports whether a and b hold the same JSON value, comments,
// layout and number spelling aside.
func sameJSON(a, b []byte) bool {
	va, errA := decodeLoose(a)
	vb, errB := decodeLoose(b)
	return errA == nil && errB == nil && reflect.DeepEqual(va, vb)
}

func decodeLoose(b []byte) (any, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(b)) == 0 {
		return map[string]any{}, nil
	}
	v, err := hujson.Parse(bytes.Clone(b)) // Standardize works in place
	if err != nil {
		return nil, err
	}
	v.Standardize()
	var out any
	err = json.Unmarshal(v.Pack(), &out)
	return out, err
}
