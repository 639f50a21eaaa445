package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/asktray/asktray/app/atomicfile"
)

// SetStartAtLogin writes the LaunchAgent that starts exe with args at login
// (on), or removes it (off); both are idempotent. launchd reads
// ~/Library/LaunchAgents when the person logs in, so nothing is loaded now.
// It blocks for a file write and may be called from any goroutine.
func SetStartAtLogin(on bool, exe string, args []string) error {
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("find the LaunchAgents dir: %w", err)
	}
	path := LaunchAgentPath(home)
	if !on {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove launch agent: %w", err)
		}
		return nil
	}
	plist, err := LaunchAgentPlist(exe, args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil { //nolint:gosec // ~/Library/LaunchAgents is 0755 on every Mac
		return fmt.Errorf("create LaunchAgents dir: %w", err)
	}
	// 0644 like every LaunchAgent: launchd refuses group- or world-writable ones.
	if err := atomicfile.Write(path, []byte(plist), 0o644); err != nil {
		return fmt.Errorf("write launch agent: %w", err)
	}
	return nil
}
