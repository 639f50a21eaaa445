package app

import (
	"context"
	"testing"
	"time"

	"github.com/asktray/asktray/app/remote"
	"github.com/asktray/asktray/internal/testkit"
)

// TestRemoteHostsWiring: the Env the UI gets adds a host as 'asktray
// remote add' does (over a real sshd, a scratch user on loopback), the app
// connects it and tells the UI that the hosts changed, and removing it
// revokes it at once and tidies the host up.
func TestRemoteHostsWiring(t *testing.T) {
	testkit.NeedSSHD(t)
	u := testkit.NewUser(t, "")
	sshd := testkit.StartSSHD(t, u)
	t.Setenv("ASKTRAY_SSH_COMMAND", sshd.Command)
	env := runApp(t, t.TempDir(), "127.0.0.1:0")
	if env.AddRemoteHost == nil || env.RemoveRemoteHost == nil || env.OnRemoteHostsChange == nil {
		t.Fatal("the UI gets no way to add or remove hosts")
	}
	changed := make(chan struct{}, 64)
	env.OnRemoteHostsChange(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer env.OnRemoteHostsChange(nil)
	a, err := env.AddRemoteHost(context.Background(), sshd.Host)
	if err != nil || a.Host.Name != sshd.Host || len(a.Report()) != 2 {
		t.Fatalf("add: %v %+v", err, a)
	}
	connected := func() bool {
		s := env.RemoteHosts()
		return len(s) == 1 && s[0].Name == sshd.Host && s[0].State == remote.Connected
	}
	for deadline := time.Now().Add(30 * time.Second); !connected(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not connected within 30 s: %+v", env.RemoteHosts())
		}
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the UI was not told of the hosts' change")
	}
	h, tidy, err := env.RemoveRemoteHost(context.Background(), sshd.Host)
	if err != nil || tidy != nil || h.Name != sshd.Host || len(env.RemoteHosts()) != 0 {
		t.Fatalf("remove: %v, tidy %v, host %+v, left %+v", err, tidy, h, env.RemoteHosts())
	}
	if _, _, err := env.RemoveRemoteHost(context.Background(), sshd.Host); err == nil {
		t.Fatal("removing it again worked")
	}
}
