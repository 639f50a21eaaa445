package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/remote"
)

// remoteHostStates is how each remote host's connection is now; nil when
// the app serves none. Any goroutine may call it.
func (t *tray) remoteHostStates() []remote.State {
	if t.env.RemoteHosts == nil {
		return nil
	}
	return t.env.RemoteHosts()
}

// hostsKey is what the tray menu shows of the hosts: each name and state
// (not ssh's last complaint, whose retry time changes every attempt).
func hostsKey(states []remote.State) string {
	var b strings.Builder
	for _, s := range states {
		fmt.Fprintf(&b, "\x00%s\x00%s", s.Name, s.State)
	}
	return b.String()
}

// remoteHostsItem is the tray menu's "Remote hosts: 1 of 2 connected",
// whose submenu names each host and its state and opens the Connect
// window's Remote hosts tab; nil without hosts.
func (t *tray) remoteHostsItem() *fyne.MenuItem {
	if len(t.hosts) == 0 {
		return nil
	}
	up := 0
	var sub []*fyne.MenuItem
	for _, s := range t.hosts {
		if s.State == remote.Connected {
			up++
		}
		words := s.State
		if s.State == remote.Down {
			words = "reconnecting"
		}
		sub = append(sub, fyne.NewMenuItem(present.Visible(s.Name)+": "+words, t.connect.showRemote))
	}
	it := fyne.NewMenuItem(fmt.Sprintf("Remote hosts: %d of %d connected", up, len(t.hosts)), nil)
	it.ChildMenu = fyne.NewMenu("", sub...)
	return it
}

// remoteHostsChanged brings the tray menu, the status window and the
// Connect window up to date with the hosts' connections. It runs on the
// Fyne goroutine.
func (t *tray) remoteHostsChanged() {
	t.refresh()
	t.refreshRemoteHosts()
	t.connect.hostsChanged()
}

// followRemoteHosts has the hosts' changes reach the tray
// (remoteHostsChanged) until the returned stop. It runs on the Fyne
// goroutine.
func (t *tray) followRemoteHosts() (stop func()) {
	if t.env.OnRemoteHostsChange == nil {
		return func() {}
	}
	t.env.OnRemoteHostsChange(func() { t.gate.do(t.remoteHostsChanged) })
	return func() { t.env.OnRemoteHostsChange(nil) }
}
