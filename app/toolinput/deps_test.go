package toolinput

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyStandardLibrary keeps the renderer free of Fyne, MCP
// libraries and everything else outside the standard library (and its
// leaf app/ellipsis), so that the MCP bridge and the agent hooks can share
// it.
func TestImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "github.com/asktray/asktray/app/ellipsis")
}
