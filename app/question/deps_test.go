package question

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyStandardLibrary keeps the core free of Fyne, mcp-go and
// everything else outside the standard library.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".")
}
