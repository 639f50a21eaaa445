package hookservice

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: the hook service sits beside app/hook, below the control
// channel that mounts it; it knows the question, the rules and how a tool's
// input is shown and graded (and the approval built from them, app/toolcall), and nothing of sockets, the UI, MCP or storage.
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/hook", m+"app/question", m+"app/policy", m+"app/risk", m+"app/toolinput", m+"app/toolcall",
		m+"app/shellcmd", m+"app/atomicfile", m+"app/procfs", m+"app/ellipsis", "mvdan.cc/sh/v3")
}
