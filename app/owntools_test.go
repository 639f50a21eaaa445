package app

import (
	"slices"
	"testing"

	"github.com/asktray/asktray/app/hook"
	"github.com/asktray/asktray/mcpbridge"
)

// TestOwnToolNamesAreTheBridgeTools: the hooks allow, unasked, exactly
// Asktray's own MCP tools (hook.OwnTool). app/hook may not import
// mcpbridge, so it keeps their names itself; this keeps them the bridge's
// tool list, so a tool added there is not asked about twice and a name
// dropped there is not allowed unasked.
func TestOwnToolNamesAreTheBridgeTools(t *testing.T) {
	t.Parallel()
	if !slices.Equal(hook.OwnToolNames, mcpbridge.ToolNames) {
		t.Fatalf("hook.OwnToolNames %v, mcpbridge.ToolNames %v", hook.OwnToolNames, mcpbridge.ToolNames)
	}
	for _, name := range mcpbridge.ToolNames {
		if !hook.OwnTool(hook.OwnToolPrefix + name) {
			t.Errorf("OwnTool(%q) is false", hook.OwnToolPrefix+name)
		}
	}
}
