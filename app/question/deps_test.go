package question

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyStandardLibrary keeps the core free of Fyne, mcp-go and
// everything else outside the standard library.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for p := range strings.FieldsSeq(string(out)) {
		if p != "github.com/asktray/asktray/app/question" {
			t.Errorf("app/question depends on %s; it may import only the standard library", p)
		}
	}
}
