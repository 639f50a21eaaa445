package atomicfile

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestStandardLibraryOnly keeps the package to the standard library, so
// that the core packages (app/policy) may use it.
func TestStandardLibraryOnly(t *testing.T) {
	testkit.ImportsOnly(t, ".")
}
