package mcpbridge

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestNoDesktopOrStorage keeps the MCP bridge free of the UI toolkit, the
// notification library and the history's SQLite: it speaks MCP to the
// broker and nothing else.
func TestNoDesktopOrStorage(t *testing.T) {
	t.Parallel()
	testkit.ImportsNone(t, ".", "fyne.io/", "github.com/gen2brain/", "github.com/godbus/", "modernc.org/")
}
