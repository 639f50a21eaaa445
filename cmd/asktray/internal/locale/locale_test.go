package locale

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestNoLocaleNoise builds the real binary (the same way make build does, so
// the build cache is shared) and checks that a CLI command under the C.UTF-8
// locale prints nothing on stderr: this package's init must run before Fyne's.
func TestNoLocaleNoise(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "asktray")
	build := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", bin, "github.com/asktray/asktray/cmd/asktray")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, lang := range []string{"C.UTF-8", "C", "POSIX", "en_US.UTF-8"} {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "LANG="+lang, "LC_ALL=", "LC_MESSAGES=", "LANGUAGE=")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("LANG=%s: %v", lang, err)
		}
		if stderr.Len() != 0 {
			t.Errorf("LANG=%s: stderr %q", lang, stderr.String())
		}
	}
}
