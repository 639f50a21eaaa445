package ui

import (
	"strings"

	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/remote"
)

// remoteHostsLine says how each remote host's connection is, for the status
// window: "Remote hosts: build-01 connected · agent@localhost
// reconnecting (Connection refused; retrying in 4s)"; "" when there is
// none.
func remoteHostsLine(states []remote.State) string {
	if len(states) == 0 {
		return ""
	}
	parts := make([]string, 0, len(states))
	for _, s := range states {
		parts = append(parts, present.Visible(s.Name)+" "+hostWords(s))
	}
	return "Remote hosts: " + strings.Join(parts, present.Sep)
}

// refreshRemoteHosts brings the status window's line of remote hosts up to
// date. Runs on the Fyne goroutine.
func (t *tray) refreshRemoteHosts() {
	s := t.status
	if s == nil || t.env.RemoteHosts == nil {
		return
	}
	if line := remoteHostsLine(t.env.RemoteHosts()); line != "" {
		s.hosts.SetText(line)
		s.hosts.Show()
	} else {
		s.hosts.Hide()
	}
}
