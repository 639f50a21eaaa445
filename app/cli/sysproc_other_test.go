//go:build !unix

package cli

import "syscall"

// noTerminal leaves the command as it is: without /dev/tty the CLI finds no
// terminal here anyway.
func noTerminal() *syscall.SysProcAttr { return nil }
