package control

import (
	"errors"
	"fmt"
	"net"

	"golang.org/x/sys/unix"

	"github.com/asktray/asktray/app/procfs"
)

// soPeerPIDFD is SO_PEERPIDFD (Linux 6.5): a pidfd of the process that
// called connect(), which golang.org/x/sys does not name yet.
const soPeerPIDFD = 77

// procRef names the process that connected, so that a later request on the
// connection is tied to it and not to whatever process has its pid by then
// (an agent can make the kernel hand a connected child's pid, once it
// exits, to the person's next command): the pid SO_PEERCRED recorded at
// connect(), a pidfd of that very process where the kernel gives one
// (SO_PEERPIDFD), and its start time, read at accept.
type procRef struct {
	pid   int
	pidfd int    // -1 without SO_PEERPIDFD
	start uint64 // clock ticks after boot, from /proc/PID/stat at accept
	err   error  // why the process that connected is unknown
}

// connectedProc reads who connected on c. It runs on the accept goroutine
// and does not block; the pidfd it may hold is closed by close.
func connectedProc(c net.Conn) *procRef {
	r := &procRef{pidfd: -1}
	uc, ok := c.(*net.UnixConn)
	if !ok {
		r.err = fmt.Errorf("a %T is not a unix socket connection", c)
		return r
	}
	cred, err := peerCred(uc)
	if err != nil {
		r.err = err
		return r
	}
	r.pid = int(cred.Pid)
	if raw, err := uc.SyscallConn(); err == nil {
		_ = raw.Control(func(fd uintptr) {
			pfd, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, soPeerPIDFD)
			switch {
			case err == nil:
				r.pidfd = pfd
			case errors.Is(err, unix.ESRCH):
				r.err = fmt.Errorf("the process that connected (pid %d) is gone", r.pid)
			}
			// Other errors (ENOPROTOOPT before Linux 6.5): the start time alone.
		})
	}
	if r.err != nil {
		return r
	}
	st, err := readStat(r.pid)
	if err == nil {
		err = r.alive()
	}
	if err != nil {
		r.err = fmt.Errorf("the process that connected (pid %d) is gone: %w", r.pid, err)
		return r
	}
	r.start = st.Start
	return r
}

// stat reads /proc/PID/stat of the process that connected, and fails when
// that pid no longer names it: the pidfd says it exited, or (without a
// pidfd) the process now under that pid started at another time. It reads
// /proc and does not block.
func (r *procRef) stat() (procfs.Stat, error) {
	if r == nil {
		return procfs.Stat{}, errors.New("the caller's process is unknown")
	}
	if r.err != nil {
		return procfs.Stat{}, r.err
	}
	st, err := readStat(r.pid)
	if err != nil {
		return procfs.Stat{}, fmt.Errorf("the process that connected (pid %d) is gone: %w", r.pid, err)
	}
	// Checked after the read: a process still alive held its pid all along,
	// so what was read is its own.
	if err := r.alive(); err != nil {
		return procfs.Stat{}, fmt.Errorf("the process that connected (pid %d) is gone: %w", r.pid, err)
	}
	if st.Start != r.start {
		return procfs.Stat{}, fmt.Errorf("the process that connected (pid %d) is gone: pid %d now names a process started later", r.pid, r.pid)
	}
	return st, nil
}

// alive returns nil while the process the pidfd refers to runs (or has not
// yet been reaped, so its pid is not free); without a pidfd it says nothing.
func (r *procRef) alive() error {
	if r.pidfd < 0 {
		return nil
	}
	if err := unix.PidfdSendSignal(r.pidfd, 0, nil, 0); err != nil {
		return fmt.Errorf("pidfd: %w", err)
	}
	return nil
}

// close releases the pidfd; the connection has closed. It does not block.
func (r *procRef) close() {
	if r != nil && r.pidfd >= 0 {
		_ = unix.Close(r.pidfd)
		r.pidfd = -1
	}
}
