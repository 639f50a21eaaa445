package hookrun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/internal/testkit"
)

// TestImports keeps the hook process small: it starts for every tool call
// an agent makes (cmd/asktray-hook links it).
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/hook", m+"app/hookclient", m+"app/datadir", m+"app/atomicfile",
		m+"app/procfs", m+"app/ellipsis", "golang.org/x/sys")
	testkit.ImportsNone(t, ".", "net/http", "crypto/tls")
}

// TestSameExecutable: the app must run the named executable (or, with none
// named, the hook's own); another file is refused, naming both.
func TestSameExecutable(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the check reads /proc: it is Linux's")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := sameExecutable(os.Getpid(), ""); err != nil {
		t.Errorf("own executable: %v", err)
	}
	if err := sameExecutable(os.Getpid(), self); err != nil {
		t.Errorf("named own executable: %v", err)
	}
	other := filepath.Join(t.TempDir(), "asktray")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	err = sameExecutable(os.Getpid(), other)
	if err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("another file: err %v, want one naming %s", err, other)
	}
	if err := sameExecutable(os.Getpid(), filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing executable passed the check")
	}
}

// TestMain_NoAppNoDecision: with nothing on the socket the hook prints no
// decision and returns at once (the agent decides as if no hook ran).
func TestMain_NoAppNoDecision(t *testing.T) {
	t.Parallel()
	payload, err := os.ReadFile(filepath.Join("..", "hook", "testdata", "claude-code", "auto", "allowed-PreToolUse.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	start := time.Now()
	Main(context.Background(), []string{"claude-code", "--data-dir", t.TempDir()},
		IO{In: bytes.NewReader(payload), Out: &out, Err: &errOut}, Options{Dial: dialForTest})
	if out.Len() != 0 {
		t.Errorf("no app: printed %q, want nothing", out.String())
	}
	if took := time.Since(start); took > hook.Handshake {
		t.Errorf("no app: took %s, more than the handshake bound %s", took, hook.Handshake)
	}
}

// TestMain_BadCommandLine says what is wrong on stderr and prints nothing.
func TestMain_BadCommandLine(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"no-such-agent"}, {"claude-code", "--no-such-flag"}} {
		var out, errOut bytes.Buffer
		Main(context.Background(), args, IO{In: strings.NewReader("{}"), Out: &out, Err: &errOut}, Options{Dial: dialForTest})
		if out.Len() != 0 || !strings.HasPrefix(errOut.String(), "asktray hook: ") {
			t.Errorf("%q: out %q, err %q; want nothing and one line naming asktray hook", args, out.String(), errOut.String())
		}
	}
}
