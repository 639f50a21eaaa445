// Package clientsetup knows how each MCP client and each coding agent is
// connected to Asktray: which file holds its setup, what goes in it, and how to
// merge that in while keeping everything else there (comments and layout
// included) or take asktray's hooks out again. 'asktray config' (app/cli) and
// the tray's Connect a client… window (ui) both use it.
//
// It imports only the standard library, app/atomicfile, app/hook and the
// parsers of the config formats, never the app, Fyne or mcp-go;
// app/boundary_test.go enforces that. Its functions do not keep state and may
// be called from any goroutine; those that read or write a client's file
// block on the file system only.
package clientsetup
