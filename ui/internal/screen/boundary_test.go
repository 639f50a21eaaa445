package screen

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyTheStandardLibrary keeps the screen reader a leaf that
// any UI package may use: the standard library (and Xlib through cgo) only.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".")
}
