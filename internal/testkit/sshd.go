//go:build linux

package testkit

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// SSHD is a real OpenSSH server on loopback that lets one user in with a
// key the test made.
type SSHD struct {
	// Host is how ssh reaches the user: user@127.0.0.1:port, as 'asktray
	// remote add' takes it.
	Host string
	// Port is sshd's port on loopback; the host key is known as
	// [127.0.0.1]:port and as [localhost]:port, so user@localhost:port
	// reaches the user too.
	Port int
	// Command is an ssh command line with the test's key and known_hosts,
	// for ASKTRAY_SSH_COMMAND.
	Command string
}

// NeedSSHD skips t off CI when it cannot run sshd (not root, or no
// openssh-server), and fails it in CI (CI=true), where .ci/deps.sh
// installs openssh-server and tests run as root.
func NeedSSHD(t testing.TB) {
	t.Helper()
	NeedRoot(t, "to make a scratch user and run sshd")
	if _, err := os.Stat("/usr/sbin/sshd"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("sshd is missing: .ci/deps.sh installs openssh-server")
		}
		t.Skip("sshd is missing (openssh-server); CI installs it")
	}
}

// StartSSHD runs sshd on a free loopback port that lets u in with a new
// key (in u's authorized_keys), and stops it when t ends; sshd's log is
// shown when t failed. extra are more lines of sshd_config ("SetEnv
// PATH=…"). See NeedSSHD.
func StartSSHD(t testing.TB, u User, extra ...string) SSHD {
	t.Helper()
	NeedSSHD(t)
	keys := t.TempDir()
	for _, k := range []string{"id", "hostkey"} {
		if b, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(keys, k)).CombinedOutput(); err != nil { //nolint:gosec // ssh-keygen into the test's own temp dir
			t.Fatalf("ssh-keygen: %v\n%s", err, b)
		}
	}
	sshDir := filepath.Join(u.Home, ".ssh")
	auth := filepath.Join(sshDir, "authorized_keys")
	pub, err := os.ReadFile(filepath.Join(keys, "id.pub"))
	if err == nil {
		err = os.MkdirAll(sshDir, 0o700)
	}
	if err == nil {
		err = os.WriteFile(auth, pub, 0o600) //nolint:gosec // the scratch user's own authorized_keys
	}
	for _, p := range []string{sshDir, auth} {
		if err == nil {
			err = os.Chown(p, int(u.UID), int(u.GID))
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	port := runSSHD(t, keys, u.Name, extra)
	hostPub, err := os.ReadFile(filepath.Join(keys, "hostkey.pub"))
	if err != nil {
		t.Fatal(err)
	}
	known := filepath.Join(keys, "known_hosts")
	if err := os.WriteFile(known, fmt.Appendf(nil, "[127.0.0.1]:%d,[localhost]:%d %s", port, port, hostPub), 0o600); err != nil { //nolint:gosec // the test's own temp dir
		t.Fatal(err)
	}
	return SSHD{
		Host: u.Name + "@127.0.0.1:" + strconv.Itoa(port),
		Port: port,
		Command: "ssh -F none -i " + filepath.Join(keys, "id") + " -o UserKnownHostsFile=" + known +
			" -o StrictHostKeyChecking=yes -o LogLevel=ERROR",
	}
}

// runSSHD starts sshd for user with the host key in keys and returns its
// port once it accepts connections.
func runSSHD(t testing.TB, keys, user string, extra []string) int {
	t.Helper()
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil { //nolint:gosec // sshd's privilege separation dir
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cfg := filepath.Join(keys, "sshd_config")
	conf := fmt.Sprintf("Port %d\nListenAddress 127.0.0.1\nHostKey %s\nPidFile none\nUsePAM no\nStrictModes no\n"+
		"PasswordAuthentication no\nKbdInteractiveAuthentication no\nAllowUsers %s\nAllowStreamLocalForwarding yes\n",
		port, filepath.Join(keys, "hostkey"), user) + strings.Join(extra, "\n") + "\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	var log SyncBuffer
	cmd := exec.Command("/usr/sbin/sshd", "-D", "-e", "-f", cfg)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("sshd's log:\n%s", log.String())
		}
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return port
		}
		if time.Now().After(deadline) {
			t.Fatalf("sshd did not listen on %s within 30 s:\n%s", addr, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// HookBinary builds the static hook-only binary (cmd/asktray-hook, as
// packaging builds it: CGO_ENABLED=0) into a dir that a test's other user
// may read (Give), and returns its path.
func HookBinary(t testing.TB) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "asktray-hook")
	cmd := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", out, "github.com/asktray/asktray/cmd/asktray-hook")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build asktray-hook: %v\n%s", err, b)
	}
	return Give(t, out)
}
