package clientsetup

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHooks_ClineKeepsTheirs: Cline's hook file has Cline's event name, so
// a PreToolUse of the person's is never replaced or removed (the error
// says to keep it as PreToolUse.sh, which Cline runs as well); asktray's
// own is written once, a rerun writes nothing, --remove deletes it.
func TestHooks_ClineKeepsTheirs(t *testing.T) {
	home := t.TempDir()
	h := hooksFor(t, "cline", home, nil)
	if h.Path != filepath.Join(home, ".cline", "hooks", "PreToolUse") {
		t.Fatalf("path %s", h.Path)
	}
	theirs := "#!/bin/sh\necho '{}'\n"
	if err := os.MkdirAll(filepath.Dir(h.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.Path, []byte(theirs), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(io.Writer) error{"write": h.Write, "remove": h.Remove} {
		var out bytes.Buffer
		err := f(&out)
		if err == nil || (name == "write" && !strings.Contains(err.Error(), "PreToolUse.sh")) {
			t.Errorf("%s over their hook: %v", name, err)
		}
		if b, _ := os.ReadFile(h.Path); string(b) != theirs {
			t.Errorf("%s changed their hook:\n%s", name, b)
		}
	}
	if err := os.Rename(h.Path, h.Path+".sh"); err != nil {
		t.Fatal(err)
	}
	out := run(t, func(b *bytes.Buffer) error { return h.Write(b) })
	b, _ := os.ReadFile(h.Path)
	if !strings.Contains(out, "Created "+h.Path) || !strings.Contains(string(b), "\nexec /opt/asktray/bin/asktray hook cline --timeout 120 --data-dir /data\n") {
		t.Errorf("output:\n%s\nfile:\n%s", out, b)
	}
	if !strings.Contains(out, "Cline waits at most 120 s for it") || strings.Contains(out, "86406") || strings.Contains(out, "asks in its own prompt") {
		t.Errorf("the note says what other agents' hooks do:\n%s", out)
	}
	if out := run(t, func(b *bytes.Buffer) error { return h.Write(b) }); !strings.Contains(out, "nothing to change") {
		t.Errorf("rerun:\n%s", out)
	}
	run(t, func(b *bytes.Buffer) error { return h.Remove(b) })
	if _, err := os.Stat(h.Path); !os.IsNotExist(err) {
		t.Errorf("asktray's hook is still there: %v", err)
	}
	if b, _ := os.ReadFile(h.Path + ".sh"); string(b) != theirs {
		t.Errorf("their PreToolUse.sh changed:\n%s", b)
	}
}
