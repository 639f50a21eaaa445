//go:build unix

package hook

import (
	"os"
	"syscall"
)

// ownerOf is the uid owning the file st describes, -1 when unknown.
func ownerOf(st os.FileInfo) int {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(s.Uid)
	}
	return -1
}
