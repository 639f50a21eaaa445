//go:build !linux

package remote

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/hook"
)

// Asker takes a host's hook requests (see the Linux build).
type Asker interface {
	Handle(ctx context.Context, req hook.Request, registered func()) hook.Reply
}

// Supported says whether this build serves remote hosts: not here.
const Supported = false

// ErrUnsupported means this build cannot serve remote hosts: the hosts'
// sockets are checked by the kernel's peer credentials, read on Linux only.
var ErrUnsupported = errors.New("remote hosts are served on Linux only")

// Manager serves no host here (see the Linux build).
type Manager struct {
	DataDir    string
	Asker      Asker
	SSHCommand string
	Log        *slog.Logger
}

// Start fails with ErrUnsupported when the hosts file lists hosts.
func (m *Manager) Start(context.Context) error {
	if hs, err := Load(filepath.Join(m.DataDir, datadir.HostsFile)); err != nil || len(hs.Hosts) > 0 {
		return errors.Join(err, ErrUnsupported)
	}
	return nil
}

// Sync fails with ErrUnsupported.
func (m *Manager) Sync() error { return ErrUnsupported }

// States is none.
func (m *Manager) States() []State { return nil }

// OnChange does nothing: no host changes here.
func (m *Manager) OnChange(func()) {}

// Close does nothing.
func (m *Manager) Close() {}

// Setup fails with ErrUnsupported.
func Setup(context.Context, string, string, string) (string, []string, error) {
	return "", nil, ErrUnsupported
}

// Teardown fails with ErrUnsupported.
func Teardown(context.Context, string, Host) error { return ErrUnsupported }

// InstallHooks fails with ErrUnsupported.
func InstallHooks(context.Context, string, string) ([]string, []string, error) {
	return nil, nil, ErrUnsupported
}
