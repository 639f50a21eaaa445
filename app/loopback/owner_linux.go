//go:build linux

package loopback

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"
)

// procNetTCP are the kernel's tables of TCP sockets in this network
// namespace, IPv4 then IPv6 (proc(5)).
var procNetTCP = []string{"/proc/net/tcp", "/proc/net/tcp6"}

// Owner returns the uid of the process that owns the client end of a TCP
// connection between two sockets of this machine: remote is the client's
// address as the server sees it, local the server's own. It finds the
// socket whose local address is remote and whose remote address is local
// in /proc/net/tcp and /proc/net/tcp6 and returns its uid. It reads those
// files, so it blocks briefly; any goroutine may call it.
func Owner(remote, local netip.AddrPort) (int, error) {
	uid, _, err := OwnerSocket(remote, local)
	return uid, err
}

// OwnerSocket is Owner that also returns the client socket's inode, by
// which procfs.SocketHolders finds the processes holding it.
func OwnerSocket(remote, local netip.AddrPort) (uid int, inode uint64, err error) {
	remote = netip.AddrPortFrom(remote.Addr().Unmap(), remote.Port())
	local = netip.AddrPortFrom(local.Addr().Unmap(), local.Port())
	for _, path := range procNetTCP {
		f, err := os.Open(path)
		if errors.Is(err, os.ErrNotExist) {
			continue // no IPv6
		} else if err != nil {
			return -1, 0, fmt.Errorf("peer owner: %w", err)
		}
		uid, inode, found, err := findSocket(bufio.NewScanner(f), remote, local)
		f.Close()
		if err != nil {
			return -1, 0, fmt.Errorf("peer owner: %s: %w", path, err)
		}
		if found {
			return uid, inode, nil
		}
	}
	return -1, 0, fmt.Errorf("peer owner: no socket %s connected to %s in this network namespace", remote, local)
}

// findOwner scans one table for the socket from remote to local.
func findOwner(sc *bufio.Scanner, remote, local netip.AddrPort) (uid int, found bool, err error) {
	uid, _, found, err = findSocket(sc, remote, local)
	return uid, found, err
}

// findSocket scans one table for the socket from remote to local and
// returns its uid and inode.
func findSocket(sc *bufio.Scanner, remote, local netip.AddrPort) (uid int, inode uint64, found bool, err error) {
	sc.Scan() // the header line
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 {
			continue
		}
		from, err1 := parseProcAddr(f[1])
		to, err2 := parseProcAddr(f[2])
		if err1 != nil || err2 != nil {
			return -1, 0, false, fmt.Errorf("bad address in %q", sc.Text())
		}
		if from != remote || to != local {
			continue
		}
		uid, err := strconv.Atoi(f[7])
		if err != nil {
			return -1, 0, false, fmt.Errorf("bad uid in %q", sc.Text())
		}
		inode, err := strconv.ParseUint(f[9], 10, 64)
		if err != nil {
			return -1, 0, false, fmt.Errorf("bad inode in %q", sc.Text())
		}
		return uid, inode, true, nil
	}
	return -1, 0, false, sc.Err()
}

// parseProcAddr reads an address of /proc/net/tcp: the IP as 32-bit words
// in the machine's byte order, in hex, a colon, and the port in hex.
func parseProcAddr(s string) (netip.AddrPort, error) {
	ipHex, portHex, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, errors.New("no colon")
	}
	raw, err := hex.DecodeString(ipHex)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return netip.AddrPort{}, fmt.Errorf("bad IP %q", ipHex)
	}
	for i := 0; i < len(raw); i += 4 { // each word back to network order
		binary.NativeEndian.PutUint32(raw[i:], binary.BigEndian.Uint32(raw[i:]))
	}
	port, err := strconv.ParseUint(portHex, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("bad port %q", portHex)
	}
	ip, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(ip.Unmap(), uint16(port)), nil
}
