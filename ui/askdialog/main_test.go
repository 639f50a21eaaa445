package askdialog

import (
	"os"
	"testing"
)

// TestMain closes dialogs at once: the delay that works around a Fyne
// crash on the real driver (see closeDelay) only slows the test driver.
func TestMain(m *testing.M) {
	closeDelay = 0
	os.Exit(m.Run())
}
