package ui

import (
	"testing"

	"github.com/asktray/asktray/app/remote"
)

// TestRemoteHostsLine: the status window names each remote host with its
// connection's state, and why a host is down; nothing without hosts.
func TestRemoteHostsLine(t *testing.T) {
	t.Parallel()
	if got := remoteHostsLine(nil); got != "" {
		t.Fatalf("no hosts: %q", got)
	}
	got := remoteHostsLine([]remote.State{
		{Name: "build-01", State: remote.Connected},
		{Name: "agent@localhost", State: remote.Down, Error: "Connection refused; retrying in 4s"},
	})
	want := "Remote hosts: build-01 connected  ·  agent@localhost reconnecting (Connection refused; retrying in 4s)"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
