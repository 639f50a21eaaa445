package hookrun

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/procfs"
)

// Channel is a remote host's channel to the desktop's app: the key the
// desktop made for this host and the socket SSH forwards to the desktop.
// Its Key is "" on a machine that is no remote host.
type Channel struct {
	Key, Socket string
}

// RemoteChannel reads the remote host's channel in data dir dir
// (datadir.RemoteDir, set up by the desktop's 'asktray remote add'): a
// machine without its key file is no remote host and gets a zero Channel.
// The dir must be this user's and 0700, the key file this user's and not
// readable by others: otherwise it fails, naming the file, and the hook
// steps aside. It blocks on the files only.
func RemoteChannel(dir string) (Channel, error) {
	rdir := filepath.Join(dir, datadir.RemoteDir)
	kpath := filepath.Join(rdir, datadir.RemoteKeyFile)
	if _, err := os.Lstat(kpath); errors.Is(err, os.ErrNotExist) {
		return Channel{}, nil
	}
	if err := privateTo(rdir, true); err != nil {
		return Channel{}, err
	}
	if err := privateTo(kpath, false); err != nil {
		return Channel{}, err
	}
	b, err := os.ReadFile(kpath)
	if err != nil {
		return Channel{}, fmt.Errorf("remote key: %w", err)
	}
	key := strings.TrimSpace(string(b))
	if _, err := hex.DecodeString(key); err != nil || len(key) != 64 {
		return Channel{}, fmt.Errorf("remote key %s: not the 64 hex digits 'asktray remote add' writes", kpath)
	}
	return Channel{Key: key, Socket: filepath.Join(rdir, datadir.RemoteSocket)}, nil
}

// privateTo checks that path is this user's (a directory when dir) and that
// no one else may read or enter it.
func privateTo(path string, dir bool) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("remote channel: %w", err)
	}
	uid, ok := ownerOf(fi)
	switch {
	case dir != fi.IsDir() || !fi.Mode().IsDir() && !fi.Mode().IsRegular():
		return fmt.Errorf("remote channel: %s is not a regular %s", path, map[bool]string{true: "directory", false: "file"}[dir])
	case ok && uid != os.Getuid():
		return fmt.Errorf("remote channel: %s belongs to uid %d, not to this user", path, uid)
	case fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("remote channel: %s is mode %o; others must have no access (0700 dir, 0600 key)", path, fi.Mode().Perm())
	}
	return nil
}

// SSHServes is the check a remote host's hook makes of the process serving
// the channel's socket: its command name must be sshd's (sshd, or
// sshd-session since OpenSSH 9.8), the SSH server that forwards it to the
// desktop. A process of the host's user can name itself so; this raises
// the bar against an agent that binds the socket to answer its own hook,
// and is no guarantee (docs/remote.md). It reads /proc (Linux) and does
// not block.
func SSHServes(pid int) error {
	st, err := procfs.ReadStat(pid)
	if err != nil {
		return fmt.Errorf("the remote channel's server: %w", err)
	}
	if !strings.HasPrefix(st.Comm, "sshd") {
		return fmt.Errorf("the remote channel is served by %q (pid %d), not by sshd", st.Comm, pid)
	}
	return nil
}
