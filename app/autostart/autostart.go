// Package autostart starts Asktray at login: an XDG autostart entry on
// Linux and the BSDs, a LaunchAgent on macOS, the Run key on Windows, behind
// one SetStartAtLogin. Its calls block for the file system (or registry);
// any goroutine may make them.
package autostart

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/asktray/asktray/app/atomicfile"
)

// BackgroundFlag is the flag the start-at-login entry passes: start in the
// tray with no window, and exit quietly when asktray already runs.
const BackgroundFlag = "--background"

// IconName is the icon name the Linux package installs (FyneApp.toml's ID).
const IconName = "app.asktray.desktop"

// starter is one platform's start-at-login entry: written for an
// executable and its arguments, or removed. A removal of an entry that is
// not there succeeds.
type starter interface {
	write(exe string, args []string) error
	remove() error
}

// SetStartAtLogin writes (on) or removes (off) the entry that starts exe
// with args when the person logs in; exe must be an absolute path. It
// blocks for the write.
func SetStartAtLogin(on bool, exe string, args []string) error {
	s, err := platform()
	if err != nil {
		return err
	}
	if !on {
		return s.remove()
	}
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("autostart: executable %q is not an absolute path", exe)
	}
	return s.write(exe, args)
}

// fileStarter is an entry that is a file: the XDG desktop entry, the
// LaunchAgent plist.
type fileStarter struct {
	path    string
	dirMode os.FileMode
	what    string // "autostart entry", for errors
	content func(exe string, args []string) (string, error)
}

func (f fileStarter) remove() error {
	if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", f.what, err)
	}
	return nil
}

func (f fileStarter) write(exe string, args []string) error {
	body, err := f.content(exe, args)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(f.path), f.dirMode); err != nil {
		return fmt.Errorf("create the %s dir: %w", f.what, err)
	}
	if err := atomicfile.Write(f.path, []byte(body), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", f.what, err)
	}
	return nil
}

// LoginExecutable returns the absolute path a start at login should run:
// this executable with symlinks resolved, or the asktray found on PATH when
// that is the same file (a link such as ~/.local/bin/asktray then keeps
// working after an upgrade replaces what it points to). A binary that
// `go run` or `go test` built in a temporary dir is refused: it is gone
// after the run.
func LoginExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	return loginExecutable(exe, "asktray")
}

func loginExecutable(exe, name string) (string, error) {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	if strings.Contains(real, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("this asktray (%s) is a temporary build of go run; install asktray (make install) and start that one", real)
	}
	if onPath, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(onPath); err == nil && sameFile(abs, real) {
			return abs, nil
		}
	}
	return real, nil
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
