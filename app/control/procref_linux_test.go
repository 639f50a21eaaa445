package control

import (
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestProcRef_TiedToTheProcessThatConnected: a connection's process is
// read at accept, with a pidfd on this kernel; it stays valid while that
// process lives, and a pid that no longer names it (the process exited, or
// the pid names a process started at another time) is refused.
func TestProcRef_TiedToTheProcessThatConnected(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "p.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		if c, err := net.Dial("unix", sock); err == nil {
			defer c.Close()
			_, _ = c.Read(make([]byte, 1))
		}
	}()
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := connectedProc(c)
	defer r.close()
	if r.err != nil || (r.pidfd < 0 && kernelAtLeast(t, 6, 5)) {
		t.Fatalf("no process, or no pidfd (SO_PEERPIDFD, Linux 6.5) for a live peer: %+v", r)
	}
	if _, err := r.stat(); err != nil {
		t.Fatalf("the live process that connected: %v", err)
	}
	later := *r
	later.pidfd, later.start = -1, r.start+1 // as without a pidfd, the pid now another process's
	if _, err := later.stat(); err == nil || !strings.Contains(err.Error(), "started later") {
		t.Fatalf("a pid reused by a process started later: %v", err)
	}

	// An exited, reaped process: its pidfd says so whatever has its pid now.
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pfd, err := unix.PidfdOpen(cmd.Process.Pid, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	gone := &procRef{pid: r.pid, pidfd: pfd, start: r.start} // its pid the live one's, as if reused
	defer gone.close()
	if _, err := gone.stat(); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("a process that exited, its pid in use: %v", err)
	}
}

// kernelAtLeast reports whether the running kernel is major.minor or later.
func kernelAtLeast(t *testing.T, major, minor int) bool {
	t.Helper()
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		t.Fatal(err)
	}
	var ma, mi int
	if _, err := fmt.Sscanf(unix.ByteSliceToString(u.Release[:]), "%d.%d", &ma, &mi); err != nil {
		t.Fatal(err)
	}
	return ma > major || (ma == major && mi >= minor)
}
