package uitheme

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImportsNothingOfAsktray keeps the theme a leaf:
// Fyne and the standard library only.
func TestImportsNothingOfAsktray(t *testing.T) {
	t.Parallel()
	testkit.ImportsNone(t, ".",
		"github.com/asktray/asktray/app",
		"github.com/asktray/asktray/mcpbridge",
		"github.com/asktray/asktray/assets",
		"github.com/asktray/asktray/ui/askdialog",
		"github.com/asktray/asktray/ui/historyview",
	)
}
