package ui

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/asktray/asktray/app/doctor"
)

// TestConnectWindow_ChecksSetup taps Check setup with a stale Codex hook (an
// asktray that is gone) and a current Cursor entry in the home dir: the
// window shows the doctor's report, a FIX line naming the file and the key
// (and one for each turn event the older entry lacks), and the Cursor entry
// fine; the button works again afterwards. Its picture is
// docs/screenshots/connect-check.png with ASKTRAY_SCREENSHOTS=1.
func TestConnectWindow_ChecksSetup(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	tok := strings.Repeat("cd", 32)
	// The app's MCP listener as far as the probe goes: the guard takes the
	// token, then refuses a body that is not JSON.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+tok {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusUnsupportedMediaType)
	}))
	defer srv.Close()
	mcpURL := srv.URL + "/mcp"
	hooks := filepath.Join(home, ".codex", "hooks.json")
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	for path, body := range map[string]string{
		hooks:  `{"hooks":{"PermissionRequest":[{"hooks":[{"type":"command","command":"/old/asktray hook codex --data-dir /data","timeout":86406}]}]}}`,
		cursor: `{"mcpServers":{"asktray":{"url":"` + mcpURL + `","headers":{"Authorization":"Bearer ` + tok + `"}}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a := test.NewTempApp(t)
	useAppTheme(a) // for its screenshot
	c := newConnectWindow(a, "/data", func() (string, string) { return mcpURL, tok })
	c.testRequests = false
	done := make(chan doctor.Report, 1)
	c.checked = func(r doctor.Report) { done <- r }
	c.Show()
	test.Tap(c.check)
	var r doctor.Report
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the check did not finish")
	}
	want := "FIX  codex hooks: " + hooks + " hooks.PermissionRequest[0].hooks[0].command: runs /old/asktray, which does not exist"
	// The stale entry, its trust, and the turn events (Stop,
	// UserPromptSubmit) that an entry of before them lacks.
	missing := "FIX  codex hooks: " + hooks + " hooks.Stop: has no asktray hook: run 'asktray config codex --hooks --write'"
	if r.OK() || !strings.Contains(c.text.Text, want) || !strings.Contains(c.text.Text, missing) ||
		!strings.Contains(c.text.Text, "ok   cursor MCP: "+cursor+" mcpServers.asktray: connects to "+mcpURL+": Asktray answers there and takes the token") || len(r.Problems()) != 4 {
		t.Fatalf("report shown:\n%s", c.text.Text)
	}
	// It leads with what to fix, in sentences, before the full report.
	if !strings.HasPrefix(c.text.Text, "4 things to fix:\n1. codex hooks: ") ||
		!strings.Contains(c.text.Text, "runs /old/asktray, which does not exist") ||
		!strings.Contains(c.text.Text, "(in "+hooks+", hooks.PermissionRequest[0].hooks[0].command)\n4. codex trust: ") ||
		strings.Index(c.text.Text, "The full report:") < strings.Index(c.text.Text, "\n4. ") {
		t.Fatalf("summary:\n%s", c.text.Text)
	}
	c.win.Resize(fyne.NewSize(760, 560))
	saveConnectShot(t, c, "connect-check.png") // docs/screenshots with ASKTRAY_SCREENSHOTS=1
	if c.check.Disabled() || !strings.Contains(c.hint.Text, "asktray doctor") {
		t.Fatalf("after the check: button disabled %v, hint %q", c.check.Disabled(), c.hint.Text)
	}
	c.client.SetSelected("cursor")
	if !strings.Contains(c.text.Text, `"mcpServers"`) {
		t.Fatalf("picking a client shows its setup again: %q", c.text.Text)
	}
}
