//go:build linux

package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
)

// TestHook_DoctorRequestAllowsNothing: a server on the control socket that
// passes the hook's checks (the same executable, named by the instance
// file) and answers allow to everything gets its allow printed for a
// permission request, but for the doctor's test request the hook prints
// nothing: a test request is never an approval, whatever answers it.
func TestHook_DoctorRequestAllowsNothing(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := shortTempDir(t)
	if err := datadir.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	startFakeServer(t, self, dir, true)
	if r := runHook(recorded(t, hook.ClaudeCode, "PermissionRequest"), "claude-code", "--data-dir", dir); !strings.Contains(r.out, `"behavior":"allow"`) {
		t.Fatalf("the fake's allow does not reach the hook, so this test proves nothing: %+v", r)
	}
	for _, a := range hook.Agents() {
		payload := string(doctorPayloadFor(a))
		if r := runHook([]byte(payload), string(a), "--data-dir", dir); r.code != 0 || r.out != "" {
			t.Errorf("%s: the doctor's request printed %q", a, r.out)
		}
	}
}

// doctorPayloadFor is the test request 'asktray doctor' sends to agent a's
// hook, in its spelling.
func doctorPayloadFor(a hook.Agent) []byte {
	if a == hook.CopilotCLI {
		return []byte(`{"hookName":"AsktrayDoctor","sessionId":"asktray-doctor","cwd":"/tmp","message":"x"}`)
	}
	return []byte(`{"hook_event_name":"AsktrayDoctor","session_id":"asktray-doctor","cwd":"/tmp","message":"x"}`)
}
