package main

import "golang.org/x/sys/windows"

// exit ends the process with code once everything has shut down. It does
// not return.
//
// os.Exit's ExitProcess runs every DLL's detach code, and under Wine that
// calls back into Go (a window procedure of the GL or tray window) on the
// exiting thread, which the Go runtime aborts with "exitsyscall: syscall
// frame is no longer valid", so a clean quit of the desktop app ended in a
// crash and exit code 2. By the time exit runs the app has closed its
// windows, history and instance file, so nothing is left for a detach to
// do: TerminateProcess ends the process without running them.
func exit(code int) {
	_ = windows.TerminateProcess(windows.CurrentProcess(), uint32(code)) //nolint:gosec // exit codes are small and non-negative
	select {}                                                            // TerminateProcess on the current process does not return
}
