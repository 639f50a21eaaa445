package shellcmd

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsOnlyTheParser keeps the package to the standard library and
// the shell parser, so that the policy and the risk grader can use it.
func TestImportsOnlyTheParser(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, ".", "mvdan.cc/sh/v3/syntax", "mvdan.cc/sh/v3/fileutil")
}
