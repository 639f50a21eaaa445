//go:build linux

package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/internal/testkit"
)

// startFakeServer runs bin as a fake app on dir's control socket.
func startFakeServer(t *testing.T, bin, dir string, rewriteInstance bool) {
	t.Helper()
	env := []string{}
	if rewriteInstance {
		env = append(env, fakeInstanceEnv+"=1")
	}
	startFake(t, bin, dir, env)
}

// startFakeServerMode runs bin as a fake app on dir's control socket in
// mode (fakeSilent, fakeOld), naming itself in the instance file as the
// app does.
func startFakeServerMode(t *testing.T, bin, dir, mode string) {
	t.Helper()
	startFake(t, bin, dir, []string{fakeInstanceEnv + "=1", fakeModeEnv + "=" + mode})
}

func startFake(t *testing.T, bin, dir string, env []string) {
	t.Helper()
	cmd := exec.Command(bin) //nolint:gosec // the test binary or its copy
	cmd.Env = append(append(os.Environ(), testkit.ChildEnv, fakeServerEnv+"="+filepath.Join(dir, datadir.SocketFile)), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "serving\n" {
		t.Fatalf("the fake server did not start: %q", line)
	}
}

// TestHook_StepsAsideForAFakeServer: a same-user process that serves the
// control socket path answers every request with allow. The hook prints no
// decision (the agent asks in its own prompt) and says why on stderr, when
// the fake is another executable that wrote its own pid into the instance
// file, and when it is the same executable but not the process the
// instance file names. The real app passes the check in every other hook
// test.
func TestHook_StepsAsideForAFakeServer(t *testing.T) {
	t.Parallel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "not-asktray")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, b, 0o700); err != nil { //nolint:gosec // an executable copy for the test
		t.Fatal(err)
	}
	payload := recorded(t, hook.ClaudeCode, "PermissionRequest")
	for _, c := range []struct {
		name, bin string
		rewrite   bool
		why       string
	}{
		{"another executable that names itself in the instance file", other, true, "runs " + other},
		{"the same executable, not the instance file's process", self, false, "the instance file names pid"},
	} {
		dir := shortTempDir(t)
		if err := datadir.Ensure(dir); err != nil {
			t.Fatal(err)
		}
		writeInstancePID(t, dir, os.Getpid()) // an app that has gone, say
		startFakeServer(t, c.bin, dir, c.rewrite)
		r := runHook(payload, "claude-code", "--data-dir", dir)
		if r.code != 0 || r.out != "" || !strings.Contains(r.errOut, "not served by the running app") ||
			!strings.Contains(r.errOut, c.why) || !strings.Contains(r.errOut, "stepping aside") {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
}
