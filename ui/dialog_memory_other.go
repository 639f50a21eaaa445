//go:build !cgo || !linux

package ui

// trimCHeap does nothing: only glibc (Linux, cgo) has malloc_trim.
func trimCHeap() {}
