package winetest

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// wineDesktop turns on Wine's virtual desktop for the prefix: every Wine
// window is then drawn inside one X window, "Default - Wine desktop", and
// Wine gives its windows focus as Windows does (with no X window manager
// and no virtual desktop they never get focus).
func (w *wine) wineDesktop(t *testing.T) {
	t.Helper()
	for _, args := range [][]string{
		{"reg", "add", `HKCU\Software\Wine\Explorer`, "/v", "Desktop", "/d", "Default", "/f"},
		{"reg", "add", `HKCU\Software\Wine\Explorer\Desktops`, "/v", "Default", "/d", "1280x800", "/f"},
	} {
		if r := w.runCmd(t, w.command("", nil, "wine", args...)); r.code != 0 {
			t.Fatalf("wine %v: %+v", args, r)
		}
	}
	// Those commands started a wineserver and Wine's desktop process with
	// no display, which linger a few seconds after them: an app started
	// into that session finds a desktop it cannot draw on ("Failed to
	// create helper window", then a panic in GLFW). Wait until they are
	// gone, so the app starts a new session on the display.
	if r := w.runCmd(t, w.command("", nil, "wineserver", "-w")); r.code != 0 {
		t.Fatalf("wineserver -w: %+v", r)
	}
}

// waitXWindow waits for a visible X window whose name matches pattern and returns its id.
func waitXWindow(t *testing.T, display, pattern string, timeout time.Duration) string {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		cmd := exec.Command("xdotool", "search", "--onlyvisible", "--name", pattern)
		cmd.Env = []string{"DISPLAY=" + display}
		out, _ := cmd.Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			return ids[0]
		}
		if time.Now().After(deadline) {
			tree, _ := exec.Command("xwininfo", "-display", display, "-root", "-tree").CombinedOutput()
			t.Fatalf("no X window %q after %v; the windows:\n%s", pattern, timeout, tree)
		}
	}
}

// TestWineDesktop runs the app with its UI on Wine's virtual desktop, on
// an Xvfb display: an agent's ask_confirm opens the dialog, which is active
// the moment it is shown (no focus event follows), so it must arm from
// being shown active: an Enter typed at once does nothing, an Enter after
// the arming delay answers Yes, and the agent receives answered via the
// dialog. Windows toasts fail under Wine (no WinRT XML); the app logs that
// and the dialog does not depend on it.
func TestWineDesktop(t *testing.T) {
	w := newWine(t)
	for _, tool := range []string{"Xvfb", "xdotool", "xwininfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing (make deps installs it): %v", tool, err)
		}
	}
	display := startXvfb(t)
	w.wineDesktop(t)
	d := w.newDataDir(t)
	const armDelay = 2 * time.Second // long enough that the early Enter surely comes before it
	a := w.start(t, d, display, []string{"ASKTRAY_TEST_ONLY_ARM_DELAY_MS=2000"}, "--ask", "desktop")
	desk := waitXWindow(t, display, "Wine desktop", 30*time.Second)

	s := a.client(t, "wine-agent")
	res := testkit.CallToolAsync(s, "ask_confirm", map[string]any{"question": "Run the migration under Wine?"})
	qs := w.waitPending(t, d, 1)
	a.waitLog(t, "id="+qs[0].ID+" kind=confirm reused_window=", 60*time.Second) // the "dialog shown" line
	shown := time.Now()

	x(t, display, "xdotool", "windowfocus", "--sync", desk)
	x(t, display, "xdotool", "key", "--clearmodifiers", "Return")
	if early := time.Since(shown); early >= armDelay {
		t.Fatalf("the early Enter took %v, not before the arming delay of %v: the machine is too slow for this check", early, armDelay)
	}
	time.Sleep(500 * time.Millisecond)
	if strings.Contains(a.log(), "question answered") {
		t.Fatalf("an Enter typed before the dialog armed answered it:\n%s", a.log())
	}

	time.Sleep(time.Until(shown.Add(armDelay + time.Second)))
	x(t, display, "xdotool", "windowfocus", "--sync", desk)
	x(t, display, "xdotool", "key", "--clearmodifiers", "Return")
	got := testkit.WaitToolResult(t, res, 60*time.Second)
	if got["status"] != "answered" || got["confirmed"] != true || got["via"] != "dialog" {
		t.Fatalf("the agent got %v, want confirmed via the dialog (a dialog that never armed ignores the Enter)", got)
	}
	if !strings.Contains(a.log(), "control=Yes input=key:Return") {
		t.Errorf("the answer is not logged as typed:\n%s", a.log())
	}
	if !strings.Contains(a.log(), "cannot show notifications") {
		t.Logf("the toast did not fail this time (Wine shows none, so it usually does):\n%s", a.log())
	}
	// With its UI up, a quit used to end in a crash under Wine (exit code 2,
	// "exitsyscall: syscall frame is no longer valid" in ExitProcess):
	// cmd/asktray's exit on Windows says why it no longer does.
	quit(t, w, a)
}
