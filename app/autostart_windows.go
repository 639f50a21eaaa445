package app

import (
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// RunKey is the registry key, under HKEY_CURRENT_USER, whose values Windows
// runs when the person logs in; RunValue is Asktray's value in it. A var so
// that tests can use a scratch key.
var (
	RunKey   = `Software\Microsoft\Windows\CurrentVersion\Run`
	RunValue = "Asktray"
)

// SetStartAtLogin writes the Run value that starts exe (an absolute path)
// with args at login (on), or deletes it (off); both are idempotent. The
// command line is quoted as CommandLineToArgvW and Go's os.Args parse it.
// It blocks for the registry calls and may be called from any goroutine.
func SetStartAtLogin(on bool, exe string, args []string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, RunKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("open the Run key: %w", err)
	}
	defer k.Close()
	if !on {
		if err := k.DeleteValue(RunValue); err != nil && !errors.Is(err, registry.ErrNotExist) {
			return fmt.Errorf("delete the Run value: %w", err)
		}
		return nil
	}
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("autostart: executable %q is not an absolute path", exe)
	}
	if err := k.SetStringValue(RunValue, windows.ComposeCommandLine(append([]string{exe}, args...))); err != nil {
		return fmt.Errorf("write the Run value: %w", err)
	}
	return nil
}
