//go:build !windows

package datadir

import (
	"fmt"
	"os"
)

// restrictDir makes dir readable by its owner only: mode 0700. It blocks for
// a stat and maybe a chmod.
func restrictDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("restrict data dir: %w", err)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil { //nolint:gosec // a directory needs its x bit; 0700 is owner-only
			return fmt.Errorf("restrict data dir: %w", err)
		}
	}
	return nil
}
