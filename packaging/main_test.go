package packaging

import (
	"os"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestMain removes the asktray binary that testkit.Binary built.
func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m, nil))
}
