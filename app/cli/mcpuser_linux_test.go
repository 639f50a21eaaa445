//go:build linux

package cli

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestMCP_RefusesAnotherUser is issue 33 item 7 against the real binary:
// another local user who read the token (from a command line in
// /proc/*/cmdline, as the one 'asktray config claude-code' used to print)
// and sends a valid MCP initialize with it gets 403, found by the uid that
// owns its loopback socket, as the question page refuses them; the same
// request from the app's own user is served. On f02af39 the other user's
// request was served (200).
func TestMCP_RefusesAnotherUser(t *testing.T) {
	testkit.NeedRoot(t, "to run curl as a second user")
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is missing; make deps installs it")
	}
	dir := shortTempDir(t)
	startApp(t, dir)
	r := run(t, dir, "url")
	m := regexp.MustCompile(`(http://\S+/mcp)\nAuthorization: Bearer (\S+)`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("asktray url: %+v", r)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},` +
		`"clientInfo":{"name":"claude-code","version":"2.1"}}}`
	curl := func(cred *testkit.User) string {
		t.Helper()
		cmd := exec.Command("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer "+m[2], //nolint:gosec // the test's own arguments
			"-H", "Content-Type: application/json", "-H", "Accept: application/json, text/event-stream", "--data", initialize, m[1])
		if cred != nil {
			cmd.SysProcAttr = cred.Credential()
		}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("curl: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	if got := curl(nil); got != "200" {
		t.Fatalf("the app's own user got %s", got)
	}
	other := testkit.NewUser(t, "")
	if got := curl(&other); got != "403" {
		t.Fatalf("another user (uid %d) with the token got %s, want 403", other.UID, got)
	}
}
