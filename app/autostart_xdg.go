//go:build !darwin && !windows

package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/asktray/asktray/app/atomicfile"
)

// SetStartAtLogin writes the XDG autostart entry that starts exe with args
// at login (on), or removes it (off). Both are idempotent. It blocks for a
// file write and may be called from any goroutine.
func SetStartAtLogin(on bool, exe string, args []string) error {
	path, err := AutostartPath()
	if err != nil {
		return err
	}
	if !on {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove autostart entry: %w", err)
		}
		return nil
	}
	entry, err := AutostartEntry(exe, args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create autostart dir: %w", err)
	}
	// 0644 like every desktop entry: it holds no secret.
	if err := atomicfile.Write(path, []byte(entry), 0o644); err != nil {
		return fmt.Errorf("write autostart entry: %w", err)
	}
	return nil
}
