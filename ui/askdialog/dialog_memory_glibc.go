//go:build cgo && linux

package askdialog

/*
#include <stddef.h>

// malloc_trim is glibc's; declared weak so that the program still links
// against a C library without it (musl), where trimCHeap does nothing.
extern int malloc_trim(size_t pad) __attribute__((weak));

static int trim(void) {
	if (malloc_trim == NULL) return -1;
	return malloc_trim(0);
}
*/
import "C"

// trimCHeap returns the C heap's free memory to the operating system
// (glibc's malloc_trim(0)); without glibc it does nothing.
func trimCHeap() { C.trim() }
