//go:build !windows

package main

import "os"

// exit ends the process with code once everything has shut down. It does
// not return.
func exit(code int) { os.Exit(code) }
