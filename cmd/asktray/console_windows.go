package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// attachParentProcess is AttachConsole's ATTACH_PARENT_PROCESS, (DWORD)-1.
const attachParentProcess = ^uint32(0)

// init gives the command line a console to print to. asktray.exe is built
// for the GUI subsystem (-H=windowsgui, no console window for the tray app),
// so Windows hands it no console: started from cmd.exe or PowerShell without
// redirection, `asktray url` would print nothing. When no standard output
// was handed over, it attaches to the console of the process that started
// it, if that has one, and prints there. Pipes and files, which MCP clients
// give `asktray stdio`, are left alone. It runs before main reads os.Stdout.
func init() {
	if h, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE); err == nil && h != 0 && h != windows.InvalidHandle {
		return
	}
	attach := windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")
	if r, _, _ := attach.Call(uintptr(attachParentProcess)); r == 0 {
		return // started from Explorer or the Run key: no console, nothing to print to
	}
	if f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = f, f
	}
}
