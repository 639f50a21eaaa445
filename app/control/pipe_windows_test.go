package control

import (
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

func TestPipeName(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := pipeName("S-1-5-21-1-2-3-1000", filepath.Join(dir, "control.sock"))
	if !strings.HasPrefix(a, `\\.\pipe\asktray-`) || len(a) != len(`\\.\pipe\asktray-`)+32 {
		t.Fatalf("pipe name %q, want \\\\.\\pipe\\asktray- and 32 hex digits", a)
	}
	if b := pipeName("S-1-5-21-1-2-3-1000", strings.ToUpper(filepath.Join(dir, "control.sock"))); b != a {
		t.Errorf("the same path in capitals names %q, want %q (Windows paths ignore case)", b, a)
	}
	if b := pipeName("S-1-5-21-1-2-3-1001", filepath.Join(dir, "control.sock")); b == a {
		t.Error("another user's pipe has the same name")
	}
	if b := pipeName("S-1-5-21-1-2-3-1000", filepath.Join(dir, "other", "control.sock")); b == a {
		t.Error("another data dir's pipe has the same name")
	}
}

// TestControlPipe_SecurityDescriptor reads the access list of the pipe
// Listen made: protected (nothing inherited) and allowing exactly the user
// and SYSTEM. Wine, where CI runs this, has one user and does not check a
// pipe's access list when it is opened, so the list itself is what is
// checked here.
func TestControlPipe_SecurityDescriptor(t *testing.T) {
	t.Parallel()
	c, _ := newServer(t)
	conn, err := dialControl(context.Background(), c.path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h := windows.Handle(conn.(interface{ Fd() uintptr }).Fd())
	sd, err := windows.GetSecurityInfo(h, windows.SE_KERNEL_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	ctl, _, err := sd.Control()
	if err != nil {
		t.Fatal(err)
	}
	if ctl&windows.SE_DACL_PROTECTED == 0 {
		t.Errorf("the DACL is not protected (%s): entries can be inherited", sd)
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		t.Fatalf("no DACL (%v): everyone may open the pipe", err)
	}
	self, err := selfSID()
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			t.Fatal(err)
		}
		if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
			t.Errorf("entry %d is of type %d, want only access-allowed entries", i, ace.Header.AceType)
			continue
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)).String()
		allowed[sid] = true
	}
	if len(allowed) != 2 || !allowed[self] || !allowed["S-1-5-18"] {
		t.Errorf("the pipe allows %v (%s), want exactly the user %s and SYSTEM (S-1-5-18)", allowed, sd, self)
	}
}

// TestControlPipe_RefusesOtherOwner dials a live control pipe as if this
// process ran as another user: the pipe's server is not that user, so the
// client hangs up instead of sending it anything.
func TestControlPipe_RefusesOtherOwner(t *testing.T) {
	t.Parallel()
	c, _ := newServer(t)
	self, err := selfSID()
	if err != nil {
		t.Fatal(err)
	}
	name := pipeName(self, c.path)
	conn, err := dialPipe(context.Background(), name, self)
	if err != nil {
		t.Fatalf("the user's own pipe is refused: %v", err)
	}
	conn.Close()
	_, err = dialPipe(context.Background(), name, "S-1-5-21-1-2-3-1001")
	if !errors.Is(err, errOtherUser) || !strings.Contains(err.Error(), "served by "+self) {
		t.Fatalf("dial as another user = %v, want it refused as served by %s", err, self)
	}
}

// TestControlPipe_PeerIsTheClientsUser checks what the server's peer check
// compares: the SID in the token of the client's process, and an error for
// a connection that is not a pipe.
func TestControlPipe_PeerIsTheClientsUser(t *testing.T) {
	t.Parallel()
	self, err := selfSID()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := listenControl(filepath.Join(t.TempDir(), "c.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- "accept: " + err.Error()
			return
		}
		defer c.Close()
		u, err := peerUser(c)
		if err != nil {
			u = "error: " + err.Error()
		}
		got <- u
	}()
	conn, err := dialPipe(context.Background(), ln.Addr().String(), self)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if u := <-got; u != self {
		t.Errorf("peer user %q, want %q", u, self)
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if u, err := peerUser(a); err == nil {
		t.Errorf("peerUser of a net.Pipe = %q, want an error", u)
	}
}

// TestControlPipe_SecondListenFails: a pipe already served for a path is
// never shared; the second app for the same data dir fails to listen.
func TestControlPipe_SecondListenFails(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "c.sock")
	ln, err := listenControl(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ln2, err := listenControl(path); err == nil {
		ln2.Close()
		t.Fatal("a second listen on the same control pipe succeeded")
	}
}
