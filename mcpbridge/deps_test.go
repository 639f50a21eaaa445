package mcpbridge

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDesktopOrStorage keeps the MCP bridge free of the UI toolkit, the
// notification library and the history's SQLite: it speaks MCP to the
// broker and nothing else.
func TestNoDesktopOrStorage(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for dep := range strings.FieldsSeq(string(out)) {
		for _, banned := range []string{"fyne.io/", "github.com/gen2brain/", "github.com/godbus/", "modernc.org/"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("mcpbridge depends on %s", dep)
			}
		}
	}
}
