//go:build linux

package testkit

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// User is a local account a test made.
type User struct {
	Name     string
	UID, GID uint32
	Home     string
}

// Credential returns the credentials that run a process as u.
func (u User) Credential() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: u.UID, Gid: u.GID}}
}

// NeedRoot skips t when the test does not run as root, and fails it in CI
// (CI=true), which runs as root, so that the test never goes unrun there.
func NeedRoot(t testing.TB, why string) {
	t.Helper()
	if os.Geteuid() == 0 {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("needs root (%s), and CI runs as root", why)
	}
	t.Skipf("needs root (%s); CI runs as root", why)
}

// NewUser makes a local account with a home dir of its own and password
// (none when password is ""), and deletes it when t ends. It runs useradd
// and chpasswd, so t must run as root (see NeedRoot).
func NewUser(t testing.TB, password string) User {
	t.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	name := "asktray-t" + hex.EncodeToString(b)
	home := filepath.Join(os.TempDir(), name)
	// Tests of several packages make users at once, and useradd gives up
	// at once when another holds the lock on /etc/passwd: try again.
	for deadline := time.Now().Add(time.Minute); ; {
		out, err := exec.Command("useradd", "--create-home", "--home-dir", home, "--shell", "/bin/sh", name).CombinedOutput()
		if err == nil {
			break
		}
		if !strings.Contains(string(out), "cannot lock") || time.Now().After(deadline) {
			t.Fatalf("useradd %s: %v\n%s", name, err, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", "--force", "--remove", name).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v\n%s", name, err, out)
		}
	})
	if password == "" {
		if out, err := exec.Command("passwd", "--delete", name).CombinedOutput(); err != nil {
			t.Fatalf("passwd --delete %s: %v\n%s", name, err, out)
		}
	} else {
		cmd := exec.Command("chpasswd")
		cmd.Stdin = strings.NewReader(name + ":" + password + "\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("chpasswd %s: %v\n%s", name, err, out)
		}
	}
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.ParseUint(u.Uid, 10, 32)
	gid, _ := strconv.ParseUint(u.Gid, 10, 32)
	return User{Name: name, UID: uint32(uid), GID: uint32(gid), Home: home}
}

// Give copies the file at path into a new world-readable dir (removed when
// t ends) as an executable anyone may run, so that a test's other user can
// run a binary that sits in a private build dir; it returns the copy's path.
func Give(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "asktray-give") //nolint:usetesting // t.TempDir's parent is 0700
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { //nolint:gosec // the other user must reach the copy
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(dst, b, 0o755); err != nil { //nolint:gosec // an executable for the test's other user
		t.Fatal(err)
	}
	return dst
}
