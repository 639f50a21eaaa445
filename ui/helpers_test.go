package ui

import (
	"path/filepath"
	"testing"

	"github.com/asktray/asktray/app/policy"
)

// tempPolicy opens an empty rules file in the test's temporary directory.
func tempPolicy(t *testing.T) *policy.Policy {
	t.Helper()
	pol, err := policy.Open(filepath.Join(t.TempDir(), policy.File))
	if err != nil {
		t.Fatal(err)
	}
	return pol
}
