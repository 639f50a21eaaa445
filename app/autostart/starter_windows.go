package autostart

import (
	"errors"
	"fmt"

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

// runKey is the value RunValue under HKCU\RunKey, which Windows reads at
// login.
type runKey struct{}

func platform() (starter, error) { return runKey{}, nil }

func (runKey) remove() error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, RunKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("open the Run key: %w", err)
	}
	defer k.Close()
	if err := k.DeleteValue(RunValue); err != nil && !errors.Is(err, registry.ErrNotExist) {
		return fmt.Errorf("delete the Run value: %w", err)
	}
	return nil
}

func (runKey) write(exe string, args []string) error {
	k, _, err := registry.CreateKey(registry.CURRENT_USER, RunKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("open the Run key: %w", err)
	}
	defer k.Close()
	if err := k.SetStringValue(RunValue, windows.ComposeCommandLine(append([]string{exe}, args...))); err != nil {
		return fmt.Errorf("write the Run value: %w", err)
	}
	return nil
}
