//go:build linux

package loopback

import (
	"bufio"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/asktray/asktray/internal/testkit"
)

// accept listens on addr, starts dial, and returns the server's view of the
// first connection: the peer's address and its own.
func accept(t *testing.T, network, addr string, dial func(port int)) (remote, local netip.AddrPort) {
	t.Helper()
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Skipf("no %s loopback here: %v", network, err)
	}
	t.Cleanup(func() { ln.Close() })
	go dial(ln.Addr().(*net.TCPAddr).Port)
	_ = ln.(*net.TCPListener).SetDeadline(time.Now().Add(20 * time.Second))
	c, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.RemoteAddr().(*net.TCPAddr).AddrPort(), c.LocalAddr().(*net.TCPAddr).AddrPort()
}

// TestOwner_Self: a connection this process makes, over IPv4 and IPv6, is
// found with this process's uid.
func TestOwner_Self(t *testing.T) {
	for _, c := range []struct{ network, addr string }{{"tcp4", "127.0.0.1:0"}, {"tcp6", "[::1]:0"}} {
		t.Run(c.network, func(t *testing.T) {
			host, _, _ := net.SplitHostPort(c.addr)
			remote, local := accept(t, c.network, c.addr, func(port int) {
				conn, err := net.Dial(c.network, net.JoinHostPort(host, fmt.Sprint(port)))
				if err == nil {
					t.Cleanup(func() { conn.Close() })
				}
			})
			uid, err := Owner(remote, local)
			if err != nil || uid != os.Getuid() {
				t.Fatalf("Owner(%s, %s) = %d, %v; want %d", remote, local, uid, err, os.Getuid())
			}
		})
	}
}

// TestOwner_OtherUser: a connection from a process of a user the test
// makes is found with that user's uid, not the server's.
func TestOwner_OtherUser(t *testing.T) {
	testkit.NeedRoot(t, "to run a process as a second user")
	u := testkit.NewUser(t, "")
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	remote, local := accept(t, "tcp4", "127.0.0.1:0", func(port int) {
		cmd := exec.Command("bash", "-c", fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d; read -r _ <&3", port))
		cmd.SysProcAttr = u.Credential()
		if err := cmd.Start(); err != nil {
			t.Error(err)
			return
		}
		<-done
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	uid, err := Owner(remote, local)
	if err != nil || uid != int(u.UID) {
		t.Fatalf("Owner = %d, %v; want the other user's %d", uid, err, u.UID)
	}
}

// TestOwner_Unknown: a peer with no socket on this machine is an error,
// never a uid.
func TestOwner_Unknown(t *testing.T) {
	t.Parallel()
	uid, err := Owner(netip.MustParseAddrPort("127.0.0.1:1"), netip.MustParseAddrPort("127.0.0.1:2"))
	if err == nil || uid != -1 {
		t.Fatalf("got %d, %v", uid, err)
	}
}

// TestParseProcAddr reads the kernel's notation of both families.
func TestParseProcAddr(t *testing.T) {
	t.Parallel()
	sc := bufio.NewScanner(strings.NewReader("  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid\n" +
		"   0: 0100007F:9C40 0100007F:1EFB 01 00000000:00000000 00:00000000 00000000  1001        0 1 1\n" +
		"   1: 00000000000000000000000001000000:9C41 00000000000000000000000001000000:1EFB 01 00000000:00000000 00:00000000 00000000  1002 0 2\n"))
	uid, ok, err := findOwner(sc, netip.MustParseAddrPort("127.0.0.1:40000"), netip.MustParseAddrPort("127.0.0.1:7931"))
	if err != nil || !ok || uid != 1001 {
		t.Fatalf("IPv4: %d %v %v", uid, ok, err)
	}
	a, err := parseProcAddr("00000000000000000000000001000000:9C41")
	if err != nil || a != netip.MustParseAddrPort("[::1]:40001") {
		t.Fatalf("IPv6: %v %v", a, err)
	}
}
