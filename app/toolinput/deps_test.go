package toolinput

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyStandardLibrary keeps the renderer free of Fyne, MCP
// libraries and everything else outside the standard library, so that the
// MCP bridge and the agent hooks can share it.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for p := range strings.FieldsSeq(string(out)) {
		if p != "github.com/asktray/asktray/app/toolinput" {
			t.Errorf("app/toolinput depends on %s; it may import only the standard library", p)
		}
	}
}
