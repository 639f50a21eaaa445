package hook

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSystemProcs reads real processes from /proc: this one's command line
// and details, and a codex's (sleep under that name) Codex home, which
// comes from $CODEX_HOME, else $HOME/.codex, of its environment.
func TestSystemProcs(t *testing.T) {
	t.Parallel()
	p, ok := SystemProcs.Read(os.Getpid())
	if !ok || !slices.Equal(p.Argv, os.Args) || p.UID != -1 || p.Cwd != "" {
		t.Fatalf("Read(self) = %+v, %v; want only argv %q", p, ok, os.Args)
	}
	if _, ok := SystemProcs.Read(1 << 30); ok {
		t.Fatal("a missing process read")
	}
	if !slices.Contains(SystemProcs.PIDs(), os.Getpid()) {
		t.Fatal("PIDs lacks this process")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatalf("sleep, from coreutils, is needed: %v", err)
	}
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	codex := filepath.Join(dir, "codex")
	if err := os.Symlink(sleep, codex); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []string
		want string
	}{{[]string{"HOME=/home/ada"}, "/home/ada/.codex"}, {[]string{"HOME=/home/ada", "CODEX_HOME=/srv/codex/"}, "/srv/codex"}, {[]string{"PATH=/usr/bin:/bin"}, ""}} {
		cmd := exec.Command(codex, "30")
		cmd.Env, cmd.Dir = c.env, dir
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := cmd.Process.Pid
		running(t, pid)
		p, ok := readCodex(SystemProcs, pid)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if !ok || !slices.Equal(p.Argv, []string{codex, "30"}) || p.UID != os.Getuid() || p.Start == 0 || p.Cwd != dir || codexHome(p.Env) != c.want {
			t.Errorf("env %q: read %+v, %v; want Codex home %q, cwd %s, uid %d", c.env, p, ok, c.want, dir, os.Getuid())
		}
	}
}

// running waits until the child pid runs sleep with its own environment
// (before its exec, /proc shows this process's).
func running(t *testing.T, pid int) {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d", pid)
	for range 2000 {
		exe, _ := os.Readlink(dir + "/exe")
		env, _ := os.ReadFile(dir + "/environ")
		if strings.HasSuffix(exe, "/sleep") && len(env) > 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("pid %d never ran sleep", pid)
}
