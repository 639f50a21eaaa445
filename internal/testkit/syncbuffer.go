package testkit

import (
	"bytes"
	"sync"
)

// SyncBuffer is a bytes.Buffer that any goroutine may write and read at
// once: a child process's output, a logger's sink. Its zero value is ready
// to use.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p. It does not block beyond the lock.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
