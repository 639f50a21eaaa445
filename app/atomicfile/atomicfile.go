// Package atomicfile writes files so that no reader ever sees one half-written.
//
// It imports only the standard library, so the core packages (app/policy)
// can share it with app.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Write writes data to path with mode through a temporary file in the same
// dir, synced, and a rename, then syncs the dir, so the file is never seen
// half-written and the new content survives a crash once Write returns. It
// blocks for the write and the fsyncs; any goroutine may call it.
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
	if err := os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir flushes dir's entries to disk, so that a rename into it survives
// a crash: fsync on the file makes its data durable, but on Linux and other
// Unix systems the new name is durable only once the directory is synced
// too (fsync(2)). Windows cannot open a directory for syncing, and NTFS
// journals the rename, so there it does nothing. It is a variable so that
// a test can see it called.
var syncDir = func(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync dir: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync dir %s: %w", dir, err)
	}
	return nil
}
