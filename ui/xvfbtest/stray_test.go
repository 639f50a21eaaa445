package xvfbtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// TestTypingElsewhereNeverReachesTheAnswer is item 8 of issue 37 on the
// real binary: a person types a command line into another window (zenity's
// entry stands in for their terminal) when a text question, then a choice
// with a note, pop up and take keyboard focus. The rest of each line, its
// letters, spaces and digits ("e2e 1 3 2"), goes to the dialog; none of it
// becomes part of the answer: the text field keeps only its default, and
// the choice keeps its default pick and an empty note. Once the dialog has
// armed (the app logs it), what the person types is theirs.
func TestTypingElsewhereNeverReachesTheAnswer(t *testing.T) {
	typeElsewhere(t, newDesktop(t))
}

// TestTypingElsewhereNeverReachesTheAnswerUnderI3 is the same under the
// i3 tiling window manager, which gives every new window focus as sway
// does.
func TestTypingElsewhereNeverReachesTheAnswerUnderI3(t *testing.T) {
	d := newSession(t)
	startI3(t, d)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	typeElsewhere(t, d)
}

// typeElsewhere types into another window while a text question, then a
// choice, pop up on d (see TestTypingElsewhereNeverReachesTheAnswer).
func typeElsewhere(t *testing.T, d *desktop) {
	need(t, "zenity")
	term := exec.Command("zenity", "--entry", "--title", "terminal", "--text", "$")
	term.Env = d.env
	if err := term.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = term.Process.Kill(); _ = term.Wait() })
	termWin := d.waitWindow(t, "terminal", 20*time.Second)
	s := d.client(t, "e2e-agent")
	line := "make e2e 1 3 2 && git commit -am 'fix e2e tests 2 of 3' && git push origin feature/typing-guard"

	d.x(t, "xdotool", "windowfocus", "--sync", termWin)
	typed := d.typeAway(t, line)
	res := testkit.CallToolAsync(s, "ask_text", map[string]any{"question": "Which branch?", "default": "main"})
	w := d.waitFocused(t, "e2e-agent asks")
	d.typedIntoDialog(t, typed)
	d.waitArmed(t, 1)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "type", "--delay", "60", "ok")
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["answer"] != "mainok" {
		t.Fatalf("the text answer took keys typed for another window: %v", got)
	}

	d.x(t, "xdotool", "windowfocus", "--sync", termWin)
	typed = d.typeAway(t, line)
	res = testkit.CallToolAsync(s, "ask_multi_select", map[string]any{"question": "Which suites?", "free_text": true,
		"default": []string{"b"}, "options": []map[string]any{{"label": "a"}, {"label": "b"}, {"label": "c"}}})
	d.waitFocused(t, "e2e-agent asks")
	d.typedIntoDialog(t, typed)
	d.waitArmed(t, 2)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	got := testkit.WaitToolResult(t, res, 30*time.Second)
	if !reflect.DeepEqual(got["selected"], []any{"b"}) || (got["free_text"] != nil && got["free_text"] != "") {
		t.Fatalf("the choice took keys typed for another window: %v", got)
	}
}

// typeAway starts typing line, one key some 60 ms apart, into the focused
// window; the channel gets xdotool's end.
func (d *desktop) typeAway(t *testing.T, line string) <-chan error {
	t.Helper()
	typing := exec.Command("xdotool", "type", "--delay", "120", line)
	typing.Env = d.env
	if err := typing.Start(); err != nil {
		t.Fatal(err)
	}
	typed := make(chan error, 1)
	go func() { typed <- typing.Wait() }()
	return typed
}

// waitFocused waits for the window titled title to have keyboard focus.
func (d *desktop) waitFocused(t *testing.T, title string) string {
	t.Helper()
	w := d.waitWindow(t, title, 20*time.Second)
	deadline := time.Now().Add(30 * time.Second)
	for d.x(t, "xdotool", "getwindowfocus") != w {
		if time.Now().After(deadline) {
			t.Fatalf("%q did not take keyboard focus", title)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return w
}

// typedIntoDialog waits for the typing to end and checks that it went on
// long enough after the dialog took focus to matter.
func (d *desktop) typedIntoDialog(t *testing.T, typed <-chan error) {
	t.Helper()
	focused := time.Now()
	if err := <-typed; err != nil {
		t.Fatalf("xdotool type: %v", err)
	}
	if typedFor := time.Since(focused); typedFor < 2*time.Second {
		t.Fatalf("typing went on only %v after the dialog took focus; the test needs more than the arming delay", typedFor)
	}
}

// waitArmed waits until the app's log says that n dialogs have armed, and
// that keys were typed into the last one before it armed.
func (d *desktop) waitArmed(t *testing.T, n int) {
	t.Helper()
	if l := d.waitArmedLine(t, n); strings.Contains(l, "arming_restarts=0") {
		t.Fatalf("nothing typed reached the dialog, so the test proves nothing: %s", l)
	}
}

// waitArmedLine waits until the app's log says that n dialogs have armed
// and returns the nth such line.
func (d *desktop) waitArmedLine(t *testing.T, n int) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		b, _ := os.ReadFile(filepath.Join(d.dataDir, "log", "asktray.log"))
		var armed []string
		for l := range strings.SplitSeq(string(b), "\n") {
			if strings.Contains(l, `msg="dialog armed"`) {
				armed = append(armed, l)
			}
		}
		if len(armed) >= n {
			return armed[n-1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d dialogs armed within 20 s, want %d:\n%s", len(armed), n, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
