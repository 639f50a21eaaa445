//go:build unix

package cli

import "syscall"

// noTerminal starts a command in a new session (setsid), without a
// controlling terminal, as an agent's shell runs commands.
func noTerminal() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
