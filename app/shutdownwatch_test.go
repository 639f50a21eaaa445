package app

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log sink the watch's goroutine and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 10 s", what)
		}
	}
}

// TestShutdownWatch_UIHangs is a quit whose UI never returns (Fyne's
// deadlock as it stops): once the grace is over the watch logs every
// goroutine's stack and abandons the UI, so the app still shuts down.
func TestShutdownWatch_UIHangs(t *testing.T) {
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	abandoned := make(chan struct{})
	w := watchShutdown(ctx, slog.New(slog.NewTextHandler(&logs, nil)), 20*time.Millisecond, func() { close(abandoned) })
	w.inGUI.Store(true)
	cancel()
	select {
	case <-abandoned:
	case <-time.After(10 * time.Second):
		t.Fatal("a UI that never returned was not abandoned")
	}
	if l := logs.String(); !strings.Contains(l, "the UI did not stop; shutting down without it") || !strings.Contains(l, "TestShutdownWatch_UIHangs") {
		t.Errorf("the log does not say the UI hung with every goroutine's stack:\n%s", l)
	}
}

// TestShutdownWatch_ClosersHang is a shutdown that hangs after the UI
// returned: the watch logs the stacks and leaves the shutdown alone (the
// closers already run on the main goroutine).
func TestShutdownWatch_ClosersHang(t *testing.T) {
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	var abandoned sync.WaitGroup
	abandoned.Add(1) // Done only from abandon: a second Done would panic
	w := watchShutdown(ctx, slog.New(slog.NewTextHandler(&logs, nil)), 20*time.Millisecond, func() { abandoned.Done(); abandoned.Done() })
	w.inGUI.Store(false)
	cancel()
	waitFor(t, "log of a hung shutdown", func() bool { return strings.Contains(logs.String(), "still shutting down") })
	if strings.Contains(logs.String(), "without it") {
		t.Errorf("the watch abandoned a UI that had returned:\n%s", logs.String())
	}
}

// TestShutdownWatch_QuickShutdown is a shutdown that ends in time: the
// watch says nothing and abandons nothing.
func TestShutdownWatch_QuickShutdown(t *testing.T) {
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	abandoned := make(chan struct{})
	w := watchShutdown(ctx, slog.New(slog.NewTextHandler(&logs, nil)), 20*time.Millisecond, func() { close(abandoned) })
	w.inGUI.Store(true)
	cancel()
	w.done()
	select {
	case <-abandoned:
		t.Fatal("a shutdown that ended in time was abandoned")
	case <-time.After(200 * time.Millisecond): // ten times the grace
	}
	if l := logs.String(); l != "" {
		t.Errorf("a shutdown that ended in time was logged:\n%s", l)
	}
}
