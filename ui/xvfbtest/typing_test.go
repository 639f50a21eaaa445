package xvfbtest

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestTypingElsewhereNeverConfirms is a person typing a command line in
// another window (zenity's entry stands in for their terminal) when a
// non-destructive confirm pops up on the real binary and takes keyboard
// focus: the rest of their line, and the Enter that ends it, go to the
// dialog. Every key pressed before the dialog is armed starts the arming
// delay again, so that Enter leaves the question pending; an Enter once the
// delay has passed with no key pressed answers it.
func TestTypingElsewhereNeverConfirms(t *testing.T) {
	need(t, "zenity")
	d := newDesktop(t)
	term := exec.Command("zenity", "--entry", "--title", "terminal", "--text", "$")
	term.Env = d.env
	if err := term.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = term.Process.Kill(); _ = term.Wait() })
	d.x(t, "xdotool", "windowfocus", "--sync", d.waitWindow(t, "terminal", 20*time.Second))
	s := d.client(t, "e2e-agent")

	// About 90 keys some 60 ms apart (xdotool waits half its delay after a
	// press and half after the release): over 5 s of typing, ending with
	// Enter.
	line := "git log --oneline origin/main..HEAD && git push --set-upstream origin feature/typing-guard"
	typing := exec.Command("sh", "-c", `xdotool type --delay 120 "$1" && xdotool key Return`, "sh", line)
	typing.Env = d.env
	if err := typing.Start(); err != nil {
		t.Fatal(err)
	}
	typed := make(chan error, 1)
	go func() { typed <- typing.Wait() }()
	time.Sleep(500 * time.Millisecond)
	res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": "Push **feature** to origin?"})
	w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)
	deadline := time.Now().Add(5 * time.Second)
	for d.x(t, "xdotool", "getwindowfocus") != w {
		if time.Now().After(deadline) {
			t.Fatal("the dialog did not take keyboard focus")
		}
		time.Sleep(20 * time.Millisecond)
	}
	focused := time.Now()
	if err := <-typed; err != nil {
		t.Fatalf("xdotool type: %v", err)
	}
	if typedFor := time.Since(focused); typedFor < 2*time.Second {
		t.Fatalf("typing went on only %v after the dialog took focus; the test needs more than the arming delay", typedFor)
	}
	time.Sleep(200 * time.Millisecond)
	if out, _ := d.cli("pending"); !strings.Contains(out, "Push") {
		t.Fatalf("the Enter ending a line typed into the dialog answered it:\n%s", out)
	}
	select {
	case got := <-res:
		t.Fatalf("the client got an answer from typing: %v", got)
	default:
	}

	// Once the delay has passed with no key pressed, Enter takes the default button: Yes.
	d.waitArmedLine(t, 1)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["status"] != "answered" || got["confirmed"] != true || got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
}
