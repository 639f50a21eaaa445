//go:build !windows

package hookrun

import (
	"os"
	"syscall"
)

// ownerOf is the uid that owns the file fi describes.
func ownerOf(fi os.FileInfo) (int, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
