//go:build !windows

package control

import (
	"context"
	"errors"
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"
)

// TestHook_StepsAsideFromASilentSocket: a socket that takes the connection
// and answers nothing (an app stopped with SIGSTOP leaves its listening
// socket to the kernel, which still accepts; a process that accepts and
// reads but never writes) costs the hook at most the handshake.
func TestHook_StepsAsideFromASilentSocket(t *testing.T) {
	t.Parallel()
	for _, accept := range []bool{false, true} {
		sock := filepath.Join(t.TempDir(), "c.sock")
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		if accept {
			go func() {
				for {
					conn, err := ln.Accept()
					if err != nil {
						return
					}
					go func() { defer conn.Close(); _, _ = io.Copy(io.Discard, conn) }()
				}
			}()
		}
		start := time.Now()
		rep, err := NewClient(sock).Hook(context.Background(), permissionReq)
		if took := time.Since(start); !errors.Is(err, ErrNoAck) || rep.Behavior != "" || took > handshakeBound {
			t.Errorf("accepting %v: %+v, %v after %v", accept, rep, err, took)
		}
	}
}

// TestClient_EveryCallIsBounded: the calls other than Hook give up after
// callTimeout on a socket that takes the connection and answers nothing
// (here with the bound shortened, the mechanism being the same).
func TestClient_EveryCallIsBounded(t *testing.T) {
	t.Parallel()
	sock := filepath.Join(t.TempDir(), "c.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	c := NewClient(sock)
	if c.hc.Timeout != callTimeout || callTimeout <= 0 || callTimeout > time.Minute {
		t.Fatalf("timeout %v, callTimeout %v", c.hc.Timeout, callTimeout)
	}
	c.hc.Timeout = 300 * time.Millisecond
	start := time.Now()
	if _, err := c.Status(context.Background()); err == nil || time.Since(start) > handshakeBound {
		t.Fatalf("status from a silent socket: %v after %v", err, time.Since(start))
	}
}
