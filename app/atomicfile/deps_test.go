package atomicfile

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStandardLibraryOnly keeps the package to the standard library, so
// that the core packages (app/policy) may use it.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for p := range strings.FieldsSeq(string(out)) {
		if p != "github.com/asktray/asktray/app/atomicfile" {
			t.Errorf("app/atomicfile depends on %s; it may import only the standard library", p)
		}
	}
}
