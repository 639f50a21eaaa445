package cli

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

// TestProcRead reads real processes from /proc: of this one, which is no
// codex, only its command line; of a codex (sleep under that name) its
// command line, owner, start time, directory and Codex home ($CODEX_HOME,
// else $HOME/.codex, from its environment).
func TestProcRead(t *testing.T) {
	t.Parallel()
	if p, ok := procRead(os.Getpid()); !ok || !slices.Equal(p.argv, os.Args) || p.cwd != "" || p.codexHome != "" {
		t.Fatalf("procRead(self) = %+v, %v; want only argv %q", p, ok, os.Args)
	}
	if _, ok := procRead(1 << 30); ok {
		t.Fatal("a missing process read")
	}
	if !slices.Contains(procPIDs(), os.Getpid()) {
		t.Fatal("procPIDs lacks this process")
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
		p, ok := procRead(pid)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if !ok || !slices.Equal(p.argv, []string{codex, "30"}) || p.uid != os.Getuid() || p.start == 0 || p.cwd != dir || p.codexHome != c.want {
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
