//go:build !linux

package cli

// procRead finds nothing where there is no /proc to read.
func procRead(int) (procInfo, bool) { return procInfo{}, false }

// procPIDs finds nothing where there is no /proc to read.
func procPIDs() []int { return nil }
