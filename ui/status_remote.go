package ui

import (
	"strings"

	"github.com/asktray/asktray/app/question/present"
	"github.com/asktray/asktray/app/remote"
)

// remoteHostsLine says how each remote host's connection is, for the status
// window: "Remote hosts: build-01 connected · agent@localhost down
// (Connection refused; retrying in 4s)"; "" when there is none.
func remoteHostsLine(states []remote.State) string {
	if len(states) == 0 {
		return ""
	}
	parts := make([]string, 0, len(states))
	for _, s := range states {
		p := present.Visible(s.Name) + " " + s.State
		if s.State == remote.Down && s.Error != "" {
			p += " (" + present.Visible(s.Error) + ")"
		}
		parts = append(parts, p)
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
