// Package atomicfile writes files so that no reader ever sees one half-written.
//
// It imports only the standard library, so the core packages (app/policy)
// can share it with app.
package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Write writes data to path with mode through a temporary file in the same
// dir, synced, and a rename, so the file is never seen half-written. It
// blocks for the write and the fsync; any goroutine may call it.
func Write(path string, data []byte, mode fs.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(mode); err != nil && runtime.GOOS != "windows" {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
