//go:build windows

package stdioproxy

import (
	"os/exec"
	"syscall"
)

// detachedProcess is DETACHED_PROCESS: the new process gets no console.
const detachedProcess = 0x00000008

// Detach makes cmd start without a console and in a process group of its
// own, so that it outlives the calling process and is not sent its Ctrl-C.
// Call it before cmd.Start; it does not block.
func Detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}
