//go:build !unix && !windows

package stdioproxy

import "os/exec"

// Detach does nothing on this platform: cmd starts as a plain child. It does
// not block.
func Detach(cmd *exec.Cmd) { _ = cmd }
