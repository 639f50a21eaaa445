package askdialog

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsNoStoreSetupOrHistoryView keeps the question dialog to the
// question model, its presentation and the policy: no history store, no
// client set-up, no control API, no MCP, no SQLite, and not the history
// window (the tray joins the two with a callback).
func TestImportsNoStoreSetupOrHistoryView(t *testing.T) {
	t.Parallel()
	testkit.ImportsNone(t, ".",
		"github.com/asktray/asktray/app/history",
		"github.com/asktray/asktray/app/clientsetup",
		"github.com/asktray/asktray/app/control",
		"github.com/asktray/asktray/app/webask",
		"github.com/asktray/asktray/app/cli",
		"github.com/asktray/asktray/mcpbridge",
		"github.com/asktray/asktray/ui/historyview",
		"github.com/mark3labs/mcp-go",
		"modernc.org/sqlite",
		"fyne.io/systray",
	)
}
