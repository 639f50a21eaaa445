//go:build !unix

package cli

import (
	"errors"
	"os"
)

// openTTY finds no controlling terminal on this platform, so the CLI never
// approves here: the dialog and the question's page do.
func openTTY() (*os.File, error) {
	return nil, errors.New("the CLI cannot ask on a terminal on this platform")
}
