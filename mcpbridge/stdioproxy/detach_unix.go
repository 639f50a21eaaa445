//go:build unix

package stdioproxy

import (
	"os/exec"
	"syscall"
)

// Detach makes cmd start in a session of its own, so that it outlives the
// calling process and is not signalled along with its terminal or process
// group. Call it before cmd.Start; it does not block.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
