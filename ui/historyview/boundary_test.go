package historyview

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsNoDialogPolicyOrSetup keeps the history window to the store
// and the question model: not the question dialog (it opens one only
// through Window.OnOpenDialog), no policy, no client set-up, no control
// API and no MCP.
func TestImportsNoDialogPolicyOrSetup(t *testing.T) {
	t.Parallel()
	testkit.ImportsNone(t, ".",
		"github.com/asktray/asktray/ui/askdialog",
		"github.com/asktray/asktray/app/policy",
		"github.com/asktray/asktray/app/clientsetup",
		"github.com/asktray/asktray/app/control",
		"github.com/asktray/asktray/app/webask",
		"github.com/asktray/asktray/app/cli",
		"github.com/asktray/asktray/mcpbridge",
		"github.com/mark3labs/mcp-go",
		"fyne.io/systray",
	)
}
