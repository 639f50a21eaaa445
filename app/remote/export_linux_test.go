package remote

import (
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/datadir"
)

// BenchHost runs a real sshd with a scratch user as a host connected to a
// Manager whose requests asker takes, for the benchmarks of package
// remote_test; it returns the host's socket and key.
func BenchHost(tb testing.TB, asker Asker) (sock, key string) {
	e := newSSHEnv(tb)
	e.mgr.Asker = asker
	h := e.add(tb)
	return filepath.Join(h.Dir, datadir.RemoteSocket), h.Key
}
