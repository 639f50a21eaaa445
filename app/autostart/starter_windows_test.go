package autostart

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"testing"

	"golang.org/x/sys/windows"
	"golang.org/x/sys/windows/registry"
)

// TestSetStartAtLogin_RunKey: on writes a Run value whose command line
// parses back to the executable and its arguments (spaces and quotes kept);
// off deletes it, twice without error.
func TestSetStartAtLogin_RunKey(t *testing.T) {
	RunKey = fmt.Sprintf(`Software\AsktrayTest-%d\Run`, os.Getpid())
	t.Cleanup(func() {
		_ = registry.DeleteKey(registry.CURRENT_USER, RunKey)
		_ = registry.DeleteKey(registry.CURRENT_USER, RunKey[:len(RunKey)-len(`\Run`)])
	})
	exe := `C:\Program Files\Asktray\asktray.exe`
	args := []string{BackgroundFlag, "--data-dir", `C:\Users\a b\AppData\Roaming\Ask "tray"`}
	if err := SetStartAtLogin(true, exe, args); err != nil {
		t.Fatal(err)
	}
	k, err := registry.OpenKey(registry.CURRENT_USER, RunKey, registry.QUERY_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	line, _, err := k.GetStringValue(RunValue)
	if err != nil {
		t.Fatal(err)
	}
	got, err := windows.DecomposeCommandLine(line)
	if err != nil || !slices.Equal(got, append([]string{exe}, args...)) {
		t.Fatalf("Run value %q parses to %q, %v", line, got, err)
	}
	for range 2 {
		if err := SetStartAtLogin(false, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := k.GetStringValue(RunValue); !errors.Is(err, registry.ErrNotExist) {
		t.Errorf("after off the Run value is still there: %v", err)
	}
}
