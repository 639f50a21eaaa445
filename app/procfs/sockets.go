package procfs

import (
	"fmt"
	"os"
	"strconv"
)

// SocketHolders returns the pids of the processes that hold a file
// descriptor on the socket with inode inode (as /proc/net/tcp names it),
// among those whose /proc/PID/fd this process may read. It reads every such
// directory, so it blocks for a few milliseconds; any goroutine may call it.
func SocketHolders(inode uint64) []int {
	want := "socket:[" + strconv.FormatUint(inode, 10) + "]"
	var pids []int
	for _, pid := range PIDs() {
		dir := fmt.Sprintf("/proc/%d/fd", pid)
		fds, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if link, err := os.Readlink(dir + "/" + fd.Name()); err == nil && link == want {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
