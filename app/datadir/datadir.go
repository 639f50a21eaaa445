// Package datadir is Asktray's data dir: where it is, its permissions (0700,
// or a user-only access list on Windows), the files in it (the history
// database, the bearer token, the instance file, the control socket, the
// single-instance lock, the log), the token and the instance file.
// Its calls block for the file system; any goroutine may make them.
package datadir

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/asktray/asktray/app/atomicfile"
)

// Names of the files in the data dir.
const (
	DatabaseFile = "history.db"
	TokenFile    = "token"
	InstanceFile = "instance.json"
	SocketFile   = "control.sock"
	LockFile     = "asktray.lock"
	LogDir       = "log"
	LogFile      = "asktray.log"
	// HostsFile lists the remote hosts the person added ('asktray remote
	// add'), with each host's key (0600); HostsDir holds the app's socket
	// for each host's connection.
	HostsFile = "remotes.json"
	HostsDir  = "hosts"
	// RemoteDir is, on a remote host, the dir (0700) of the channel to the
	// desktop: RemoteKeyFile, the key the desktop made for this host
	// (0600), and RemoteSocket, the socket SSH forwards to the desktop's app.
	RemoteDir     = "remote"
	RemoteKeyFile = "key"
	RemoteSocket  = "desktop.sock"
)

// Default returns the data dir used when none is given: $ASKTRAY_DATA_DIR,
// else $XDG_DATA_HOME/asktray or ~/.local/share/asktray on Linux and the BSDs,
// ~/Library/Application Support/Asktray on macOS, %AppData%\Asktray on Windows.
func Default() (string, error) {
	if d := os.Getenv("ASKTRAY_DATA_DIR"); d != "" {
		return filepath.Abs(d)
	}
	switch runtime.GOOS {
	case "darwin", "windows":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("find data dir: %w", err)
		}
		return filepath.Join(d, "Asktray"), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "asktray"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find data dir: %w", err)
	}
	return filepath.Join(home, ".local", "share", "asktray"), nil
}

// Ensure creates dir with mode 0700, or tightens an existing one to
// 0700; on Windows it gives dir an access list that allows the current user
// only, inherited by the files in it. It blocks for the file system calls.
func Ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	return restrictDir(dir)
}

// LoadOrCreateToken returns the bearer token kept in dir, making a random
// 256-bit one (0600) on first use.
func LoadOrCreateToken(dir string) (string, error) {
	path := filepath.Join(dir, TokenFile)
	b, err := os.ReadFile(path)
	if err == nil {
		tok := strings.TrimSpace(string(b))
		if len(tok) == 64 {
			if err := os.Chmod(path, 0o600); err != nil {
				return "", fmt.Errorf("restrict token file: %w", err)
			}
			return tok, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read token: %w", err)
	}
	return RegenerateToken(dir)
}

// RegenerateToken replaces the token in dir with a new random one and returns it.
func RegenerateToken(dir string) (string, error) {
	var b [32]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	if err := atomicfile.Write(filepath.Join(dir, TokenFile), []byte(tok+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write token: %w", err)
	}
	return tok, nil
}

// Instance describes a running app; it is written to the data dir so that the
// CLI and a second start can find it.
type Instance struct {
	PID     int    `json:"pid"`
	Version string `json:"version"`
	URL     string `json:"url"`
	Addr    string `json:"addr"`
	Socket  string `json:"socket"`
	DataDir string `json:"data_dir"`
	Started string `json:"started"`
	GUI     bool   `json:"gui"`
}

// ReadInstance reads the instance file of dir. It does not check that the
// process still runs; the control socket answering is the proof of that.
func ReadInstance(dir string) (Instance, error) {
	var in Instance
	b, err := os.ReadFile(filepath.Join(dir, InstanceFile))
	if err != nil {
		return in, fmt.Errorf("read instance file: %w", err)
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("parse instance file: %w", err)
	}
	return in, nil
}

// WriteInstance writes in as dir's instance file (0600), atomically.
func WriteInstance(dir string, in Instance) error {
	b, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, InstanceFile), append(b, '\n'), 0o600)
}

// ErrLocked is Lock's error when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// Lock takes dir's single-instance lock (LockFile) and returns the open
// file that holds it, or an error when another process holds it. Closing
// the file releases it.
func Lock(dir string) (*os.File, error) { return lockFile(filepath.Join(dir, LockFile)) }
