package xvfbtest

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/internal/testkit"
)

// TestDialogAnsweredWithKeyboard: a real MCP client asks; the dialog window
// of the real binary appears on the X server; keys typed with xdotool answer
// it; the client gets the answer; a notification was shown on the bus.
func TestDialogAnsweredWithKeyboard(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": "Run the **database migration** now?"})
	w := d.waitWindow(t, "e2e-agent asks", 20*time.Second)

	// Keys typed before the answer controls arm do nothing.
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	time.Sleep(100 * time.Millisecond)
	if out, _ := d.cli("pending"); !strings.Contains(out, "database migration") {
		t.Fatalf("an early Enter answered the question:\n%s", out)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second)
		d.screenshot(t, dir+"/xvfb-confirm.png")
	}
	// After the arming delay, Enter takes the default button: Yes.
	d.waitArmedLine(t, 1)
	d.x(t, "xdotool", "windowfocus", "--sync", w)
	d.x(t, "xdotool", "key", "--clearmodifiers", "Return")
	got := testkit.WaitToolResult(t, res, 30*time.Second)
	if got["status"] != "answered" || got["confirmed"] != true || got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !d.windowGone("e2e-agent asks") {
		if time.Now().After(deadline) {
			t.Fatal("the dialog stayed open after the answer")
		}
		time.Sleep(20 * time.Millisecond)
	}
	notes := d.notes.notes()
	if len(notes) == 0 || notes[0].Summary != "e2e-agent asks" || !strings.Contains(notes[0].Body, "database migration") || notes[0].App != "Asktray" {
		t.Fatalf("notifications %+v", notes)
	}
}

// TestWithdrawClosesDialog: the agent withdraws its question and the window goes away.
func TestWithdrawClosesDialog(t *testing.T) {
	d := newDesktop(t)
	s := d.client(t, "e2e-agent")
	r, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_text", Arguments: map[string]any{"question": "Name the branch", "wait": false}})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	b, _ := json.Marshal(r.StructuredContent)
	_ = json.Unmarshal(b, &m)
	d.waitWindow(t, "e2e-agent asks", 20*time.Second)
	if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "cancel_question", Arguments: map[string]any{"question_id": m["question_id"]}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !d.windowGone("e2e-agent asks") {
		if time.Now().After(deadline) {
			t.Fatal("a withdrawn question's dialog stayed open")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSecondStartShowsStatusWindow: with no tray host, starting asktray again
// shows the running app's status window and says so.
func TestSecondStartShowsStatusWindow(t *testing.T) {
	d := newBareSession(t)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	// The UI comes up a moment after the MCP server answers; a person's
	// second start comes later still.
	var out string
	var err error
	for deadline := time.Now().Add(15 * time.Second); ; {
		out, err = d.cli("--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(out, "already running") {
			t.Fatalf("second start: %v\n%q", err, out)
		}
		if strings.Contains(out, "Its window is now shown") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the running app never showed its window:\n%s", out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	d.waitWindow(t, "Asktray", 10*time.Second)
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second)
		d.screenshot(t, dir+"/xvfb-status.png")
	}
}
