package control

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestOnlyMountsTheHooks: the person's control channel mounts the agent
// hooks (POST /v1/hook) through HookHandler and never imports the service
// behind it (app/hookservice), MCP or the UI.
func TestOnlyMountsTheHooks(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsNone(t, ".", m+"app/hookservice", m+"mcpbridge", m+"ui", "fyne.io/")
}
