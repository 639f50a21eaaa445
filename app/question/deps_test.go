package question

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyStandardLibrary keeps the core free of Fyne, mcp-go and
// everything else outside the standard library but the leaf that cuts text
// (app/ellipsis).
func TestImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/asktray/asktray/app/ellipsis")
}
