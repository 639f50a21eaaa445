package webask

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/asktray/asktray/app/loopback"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/procfs"
)

// browserChannel is the channel a password's grace on the page is bound to:
// the browser session (the cookie's id) and the browser process that sent
// r, so that the cookie's value, copied and replayed by another program
// (curl), finds no grace. It reads /proc (the socket's inode, then which
// processes hold it), so it blocks for a few milliseconds.
func browserChannel(sid string, r *http.Request) personcheck.Channel {
	return personcheck.Browser(sid + " " + browserProcess(r))
}

// browserProcess names the processes that hold the client end of r's
// connection, each by pid and start time. Where the platform cannot tell
// (loopback.ErrNoOwner) it is "", and the grace is bound to the cookie
// alone; where it can but fails, it is a fresh random value, so that no
// grace applies.
func browserProcess(r *http.Request) string {
	remote, local, err := loopback.Ends(r)
	if err != nil {
		return unbound()
	}
	_, inode, err := loopback.OwnerSocket(remote, local)
	if errors.Is(err, loopback.ErrNoOwner) {
		return ""
	} else if err != nil {
		return unbound()
	}
	pids := procfs.SocketHolders(inode)
	if len(pids) == 0 {
		return unbound()
	}
	ids := make([]string, 0, len(pids))
	for _, pid := range pids {
		st, err := procfs.ReadStat(pid)
		if err != nil {
			return unbound()
		}
		ids = append(ids, fmt.Sprintf("%d:%d", pid, st.Start))
	}
	return strings.Join(ids, ",")
}

// unbound is a process name no other request shares.
func unbound() string { return "unbound " + randomToken() }
