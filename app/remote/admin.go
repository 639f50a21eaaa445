package remote

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/asktray/asktray/app/datadir"
)

// Added is what Add did on a host, for the person: the CLI prints its
// Report, the Connect window shows it.
type Added struct {
	Host Host
	// Bins are the asktray binaries on the host's PATH.
	Bins []string
	// Hooked and HookFailed are the agents whose hooks the host's asktray
	// set up, or failed to (only when asktray is there).
	Hooked, HookFailed []string
}

// Add sets up the host named name ([user@]host[:port]) for the app whose
// data dir is dataDir: a new key for it, its channel dir and key file over
// ssh (sshCmd as ASKTRAY_SSH_COMMAND, "" for ssh), the host recorded in
// the hosts file, then the hooks of the agents found there when its
// asktray can set them up. The running app connects it on its next Sync.
// Errors name the host; a bad name is an error of ParseName. It blocks on
// ssh, at most until ctx ends. 'asktray remote add' and the Connect
// window both call it.
func Add(ctx context.Context, dataDir, sshCmd, name string) (Added, error) {
	if _, err := ParseName(name); err != nil {
		return Added{}, err
	}
	key := NewKey()
	dir, bins, err := Setup(ctx, sshCmd, name, key)
	if err != nil {
		return Added{}, err
	}
	path := filepath.Join(dataDir, datadir.HostsFile)
	hs, err := Load(path)
	if err != nil {
		return Added{}, err
	}
	a := Added{Host: Host{Name: name, Key: key, Dir: dir, Added: time.Now().UTC()}, Bins: bins}
	hs.Put(a.Host)
	if err := Save(path, hs); err != nil {
		return Added{}, err
	}
	if a.full() {
		if a.Hooked, a.HookFailed, err = InstallHooks(ctx, sshCmd, name); err != nil {
			return a, err
		}
	}
	return a, nil
}

// full reports whether the host has asktray itself, which can set the
// agents' hooks up there.
func (a Added) full() bool {
	for _, b := range a.Bins {
		if filepath.Base(b) == "asktray" {
			return true
		}
	}
	return false
}

// Report is what Add did, in sentences: where the host's hooks ask, and
// which agents' hooks were set up there, or what to install.
func (a Added) Report() []string {
	name := a.Host.Name
	out := []string{fmt.Sprintf("Added %s: its agents' hooks ask this desktop through %s/%s.", name, a.Host.Dir, datadir.RemoteSocket)}
	switch {
	case len(a.Bins) == 0:
		return append(out, fmt.Sprintf("No asktray on %s's PATH: install the .deb there, or copy this binary (or asktray-hook) into ~/.local/bin on it.", name))
	case !a.full():
		return append(out, fmt.Sprintf("Found %v there; set each agent's hooks up on %s with 'asktray-hook' as its hook command (docs/remote.md).", a.Bins, name))
	case len(a.Hooked) == 0 && len(a.HookFailed) == 0:
		return append(out, fmt.Sprintf("No agent found on %s; once one is there, run 'asktray config AGENT --hooks --write' on it.", name))
	}
	for _, ag := range a.Hooked {
		out = append(out, fmt.Sprintf("Set up %s's hooks on %s.", ag, name))
	}
	for _, ag := range a.HookFailed {
		out = append(out, fmt.Sprintf("Could not set up %s's hooks on %s: run 'asktray config %s --hooks --write' there to see why.", ag, name, ag))
	}
	return out
}

// Revoke removes the host named name from the hosts file of the app whose
// data dir is dataDir, and returns it: its key is revoked there, and the
// running app ends its connection on its next Sync. It blocks on the file.
// See Remove.
func Revoke(dataDir, name string) (Host, error) {
	path := filepath.Join(dataDir, datadir.HostsFile)
	hs, err := Load(path)
	if err != nil {
		return Host{}, err
	}
	h, ok := hs.Find(name)
	if !ok {
		return Host{}, fmt.Errorf("no remote host %q ('asktray remote list' shows them)", name)
	}
	hs.Remove(h.Name)
	if err := Save(path, hs); err != nil {
		return Host{}, err
	}
	return h, nil
}

// Remove revokes the host named name (Revoke), has the running app end its
// connection (sync; the CLI asks the app over its socket, the app calls
// Manager.Sync), then removes the key and sockets from the host over ssh
// (Teardown). The key is revoked whatever the host does: tidy is that
// step's error, nil when it worked; err is the revocation's. It blocks on
// the file, sync and ssh, at most until ctx ends. 'asktray remote rm' and
// the Connect window both call it.
func Remove(ctx context.Context, dataDir, sshCmd, name string, sync func() error) (h Host, tidy, err error) {
	if h, err = Revoke(dataDir, name); err != nil {
		return h, nil, err
	}
	if err := sync(); err != nil {
		return h, nil, err
	}
	return h, Teardown(ctx, sshCmd, h), nil
}
