//go:build !cgo || !linux

package askdialog

// trimCHeap does nothing: only glibc (Linux, cgo) has malloc_trim.
func trimCHeap() {}
