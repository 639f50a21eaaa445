package procfs

import (
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSocketHolders: the process holding a socket is found by the socket's
// inode, and an inode nobody holds finds none.
func TestSocketHolders(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var link string
	_ = raw.Control(func(fd uintptr) { link, err = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd)) })
	if err != nil {
		t.Fatal(err)
	}
	inode, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]"), 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", link, err)
	}
	if got := SocketHolders(inode); !slices.Contains(got, os.Getpid()) {
		t.Fatalf("SocketHolders(%d) = %v, want this process %d among them", inode, got, os.Getpid())
	}
	if got := SocketHolders(1<<62 + 7); len(got) != 0 {
		t.Fatalf("an inode nobody holds: %v", got)
	}
}
