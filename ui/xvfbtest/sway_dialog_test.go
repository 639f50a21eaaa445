//go:build linux

package xvfbtest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/app/settings"
	"github.com/asktray/asktray/internal/testkit"
)

// The tests below run the real binary (its X11 build, under XWayland) on a
// headless sway 1.7 (newSwaySession), with input through the compositor:
// keys from a virtual keyboard (virtual-keyboard-unstable-v1), clicks from a
// virtual pointer (wlr-virtual-pointer-unstable-v1), see wlInput. Focus, floating and sizes are read
// in sway's own tree (swaymsg -t get_tree), not through X11.

// TestSwayDialogKeyboardAndClick: on sway, a question's dialog appears,
// floats and takes sway's keyboard focus; an Enter typed before it armed
// restarts the arming delay and answers nothing; once armed, Enter answers
// Yes. The next question's dialog is answered by a click on No.
// ASKTRAY_SCREENSHOTS=DIR keeps a screenshot of the dialog on sway.
func TestSwayDialogKeyboardAndClick(t *testing.T) {
	d, s := newSwaySession(t, true, "resolution 1280x720")
	d.armDelay(t, 2500)
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	c := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(c, "ask_confirm", map[string]any{"question": "Run the **database migration** now?"})
	v := s.waitFocus(t, "e2e-agent asks")
	if v.Shell != "xwayland" || !v.floating {
		t.Fatalf("the dialog is a %s window, floating %v", v.Shell, v.floating)
	}
	s.press(t, keyEnter)
	if l := d.waitArmedLine(t, 1); strings.Contains(l, "arming_restarts=0") || sinceShown(t, l) < 2500 {
		t.Fatalf("the early Enter did not reach the dialog, or it armed before 2.5 s: %s", l)
	}
	select {
	case got := <-res:
		t.Fatalf("an Enter before the dialog armed answered it: %v", got)
	default:
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second) // let it paint the armed buttons
		s.screenshot(t, filepath.Join(dir, "sway-dialog.png"))
	}
	s.press(t, keyEnter)
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["confirmed"] != true || got["via"] != "dialog" {
		t.Fatalf("Enter once armed: client got %v", got)
	}
	if l := d.answeredLine(t, 1); !strings.Contains(l, "control=Yes input=key:") {
		t.Fatalf("not answered by a key: %s", l)
	}
	s.waitGone(t, "e2e-agent asks")

	res = testkit.CallToolAsync(c, "ask_confirm", map[string]any{"question": "Drop the **staging** database?"})
	v = s.waitFocus(t, "e2e-agent asks")
	d.waitArmedLine(t, 2)
	w := s.waitView(t, "e2e-agent asks").content()
	s.click(t, w.X+w.Width-148, w.Y+w.Height-26) // No, left of Yes at the bottom right
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["confirmed"] != false || got["via"] != "dialog" {
		t.Fatalf("a click on No: client got %v (dialog at %v)", got, v.Rect)
	}
	if l := d.answeredLine(t, 2); !strings.Contains(l, "control=No input=pointer") {
		t.Fatalf("not answered by the click: %s", l)
	}
	s.waitGone(t, "e2e-agent asks")
}

// TestSwayTypingElsewhereNeverReachesTheAnswer is issue 37 item 8 on sway:
// a person types a command line into a native Wayland window (zenity's
// entry, GTK on Wayland, stands in for their terminal) when a text
// question, then a choice with a note, pop up under XWayland and take
// sway's keyboard focus; the rest of each line goes to the dialog and none
// of it becomes part of the answer (see TestTypingElsewhereNeverReachesTheAnswer).
// ASKTRAY_SCREENSHOTS=DIR keeps a screenshot of the armed text question.
func TestSwayTypingElsewhereNeverReachesTheAnswer(t *testing.T) {
	need(t, "zenity")
	d, s := newSwaySession(t, true, "resolution 1280x720")
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	term := exec.Command("zenity", "--entry", "--title", "terminal", "--text", "$")
	term.Env = append(d.env, "GDK_BACKEND=wayland")
	if err := term.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = term.Process.Kill(); _ = term.Wait() })
	if v := s.waitFocus(t, "terminal"); v.Shell != "xdg_shell" {
		t.Fatalf("the terminal is a %s window, want a native Wayland one", v.Shell)
	}
	c := d.client(t, "e2e-agent")
	line := "make e2e 1 3 2 && git commit -am 'fix e2e tests 2 of 3' && git push origin feature/typing-guard"

	typed := s.typeAway(line)
	res := testkit.CallToolAsync(c, "ask_text", map[string]any{"question": "Which branch?", "default": "main"})
	s.waitFocus(t, "e2e-agent asks")
	d.typedIntoDialog(t, typed)
	d.waitArmed(t, 1)
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second) // let it paint
		s.screenshot(t, filepath.Join(dir, "sway-typing.png"))
	}
	s.typeText(t, "ok")
	s.press(t, keyEnter)
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["answer"] != "mainok" {
		t.Fatalf("the text answer took keys typed for another window: %v", got)
	}

	s.msg(t, `[title="^terminal$"]`, "focus")
	s.waitFocus(t, "terminal")
	typed = s.typeAway(line)
	res = testkit.CallToolAsync(c, "ask_multi_select", map[string]any{"question": "Which suites?", "free_text": true,
		"default": []string{"b"}, "options": []map[string]any{{"label": "a"}, {"label": "b"}, {"label": "c"}}})
	s.waitFocus(t, "e2e-agent asks")
	d.typedIntoDialog(t, typed)
	d.waitArmed(t, 2)
	s.press(t, keyEnter)
	got := testkit.WaitToolResult(t, res, 30*time.Second)
	if !reflect.DeepEqual(got["selected"], []any{"b"}) || (got["free_text"] != nil && got["free_text"] != "") {
		t.Fatalf("the choice took keys typed for another window: %v", got)
	}
}

// armDelay sets the app's arming delay to ms in its settings, before it
// starts: a test that sends a key before the dialog arms then has that
// long, not the default 750 ms, however slow the machine is.
func (d *desktop) armDelay(t *testing.T, ms int) {
	t.Helper()
	if err := os.MkdirAll(d.dataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(map[string]int{"arm_delay_ms": ms})
	if err := os.WriteFile(filepath.Join(d.dataDir, settings.File), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// sinceShown reads since_shown_ms in a "dialog armed" log line.
func sinceShown(t *testing.T, line string) int {
	t.Helper()
	m := regexp.MustCompile(`since_shown_ms=(\d+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("no since_shown_ms in %s", line)
	}
	ms, _ := strconv.Atoi(m[1])
	return ms
}

// answeredLine waits until the app's log says that n questions were
// answered in a dialog and returns the nth such line.
func (d *desktop) answeredLine(t *testing.T, n int) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		b, _ := os.ReadFile(filepath.Join(d.dataDir, "log", "asktray.log"))
		var lines []string
		for l := range strings.SplitSeq(string(b), "\n") {
			if strings.Contains(l, `msg="question answered in dialog"`) {
				lines = append(lines, l)
			}
		}
		if len(lines) >= n {
			return lines[n-1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d answers in the log after 20 s, want %d:\n%s", len(lines), n, b)
		}
	}
}

// typeAway starts typing line through sway, a key every 80 ms, into the
// window with sway's keyboard focus; the channel gets the typing's end.
// The test's line takes about 8 s: under load the first dialog may take a
// few seconds to open, and the typing must go on for more than the arming
// delay after that.
func (s *swaySession) typeAway(line string) <-chan error {
	typed := make(chan error, 1)
	go func() { typed <- s.input.typeText(line, 80*time.Millisecond) }()
	return typed
}

// TestSwayNoTrayHostTellsOnce: on sway without a bar (no tray host) the
// real binary shows its status window by itself and one notification
// naming swaybar's tray and waybar (issue 37 item 1); the window is drawn,
// not left a blank rectangle (item 4). ASKTRAY_SCREENSHOTS=DIR keeps a
// screenshot.
func TestSwayNoTrayHostTellsOnce(t *testing.T) {
	d, s := newSwaySession(t, false, "resolution 1280x720")
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	s.waitPainted(t, s.waitView(t, "Asktray"))
	var told []string
	for deadline := time.Now().Add(20 * time.Second); len(told) == 0; time.Sleep(50 * time.Millisecond) {
		for _, n := range d.notes.notes() {
			if n.Summary == "Asktray has no tray icon here" {
				told = append(told, n.Body)
			}
		}
		if len(told) == 0 && time.Now().After(deadline) {
			t.Fatalf("no notification of the missing tray: %+v", d.notes.notes())
		}
	}
	if len(told) != 1 || !strings.Contains(told[0], "waybar") || !strings.Contains(told[0], "swaybar") {
		t.Fatalf("told %q", told)
	}
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		s.screenshot(t, filepath.Join(dir, "sway-no-tray.png"))
	}
}

// TestSwayDialogFloatsAndFits: a long approval's dialog floats and lies
// wholly inside a 1280×720 output, at scale 1 and at 1.5 (where sway gives
// XWayland a screen of 853×480 logical pixels and draws its windows 1.5
// times larger); once armed, Enter takes its default, Deny.
// ASKTRAY_SCREENSHOTS=DIR keeps a screenshot of each.
func TestSwayDialogFloatsAndFits(t *testing.T) {
	for _, tc := range []struct{ name, conf, shot string }{
		{"1280x720", "resolution 1280x720", "sway-720.png"},
		{"1280x720 at 150 %", "resolution 1280x720 scale 1.5", "sway-720-at-150.png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, s := newSwaySession(t, true, tc.conf)
			d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
			c := d.client(t, "e2e-agent")
			res := testkit.CallToolAsync(c, "request_approval", map[string]any{
				"action":  "Run the integration suite",
				"details": "```sh\n" + strings.Repeat("make -C services/payments test-integration SHARD=$i\n", 40) + "```",
				"reason":  strings.Repeat("The integration suite must pass before the release branch is cut. ", 5),
				"risk":    "high",
			})
			s.waitFocus(t, "e2e-agent asks")
			d.waitArmedLine(t, 1)
			v := s.waitView(t, "e2e-agent asks")
			if !v.floating {
				t.Errorf("sway tiled the dialog (%v)", v.Rect)
			}
			if !v.output.contains(v.frame()) {
				t.Errorf("the dialog with its title bar (%v) does not fit the output (%v)", v.frame(), v.output)
			}
			t.Logf("output %v, dialog with its title bar %v (window %v)", v.output, v.frame(), v.content())
			if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
				time.Sleep(time.Second) // let it paint the armed buttons
				s.screenshot(t, filepath.Join(dir, tc.shot))
			}
			s.press(t, keyEnter)
			if got := testkit.WaitToolResult(t, res, 30*time.Second); got["decision"] != "deny" || got["via"] != "dialog" {
				t.Fatalf("client got %v", got)
			}
		})
	}
}

// TestSwayDialogFitsTheOutputItOpensOn: two outputs side by side, the
// second at scale 2 (640×360 logical pixels, 360 rows of XWayland's
// 1920×720 screen) and focused, so sway opens the dialog there: a long
// approval floats wholly inside that output (it was 656 px tall and went
// off its top and bottom when only the screen's height counted), sway
// draws it at twice its size there, and Enter denies it once armed.
// ASKTRAY_SCREENSHOTS=DIR keeps a screenshot of that output.
func TestSwayDialogFitsTheOutputItOpensOn(t *testing.T) {
	d, s := newSwaySession(t, true, "resolution 1280x720")
	s.msg(t, "create_output")
	s.msg(t, "output HEADLESS-2 resolution 1280x720 position 1280 0 scale 2") // swaymsg splits commands at commas
	s.msg(t, "focus output HEADLESS-2")
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(d.x(t, "xrandr", "--listmonitors"), "Monitors: 2"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("XWayland did not show the second output within 20 s:\n%s", d.x(t, "xrandr", "--listmonitors"))
		}
	}
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	c := d.client(t, "e2e-agent")
	res := testkit.CallToolAsync(c, "request_approval", map[string]any{
		"action":  "Run the integration suite",
		"details": "```sh\n" + strings.Repeat("make -C services/payments test-integration SHARD=$i\n", 40) + "```",
		"risk":    "high",
	})
	s.waitFocus(t, "e2e-agent asks")
	d.waitArmedLine(t, 1)
	v := s.waitView(t, "e2e-agent asks")
	if v.output != (swayRect{1280, 0, 640, 360}) || !v.floating {
		t.Fatalf("the dialog opened on the output at %v, floating %v; want the focused one, 1280,0 640×360, floating", v.output, v.floating)
	}
	if !v.output.contains(v.frame()) {
		t.Errorf("the dialog with its title bar (%v) does not fit the output it opened on (%v)", v.frame(), v.output)
	}
	t.Logf("output %v, dialog with its title bar %v (window %v)", v.output, v.frame(), v.content())
	if dir := os.Getenv("ASKTRAY_SCREENSHOTS"); dir != "" {
		time.Sleep(time.Second) // let it paint the armed buttons
		s.screenshot(t, filepath.Join(dir, "sway-two-outputs.png"), "HEADLESS-2")
	}
	s.press(t, keyEnter)
	if got := testkit.WaitToolResult(t, res, 30*time.Second); got["decision"] != "deny" || got["via"] != "dialog" {
		t.Fatalf("client got %v", got)
	}
}
