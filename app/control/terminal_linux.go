package control

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
)

// peerOnTerminal returns the terminal of the process at the other end of c
// when it has a controlling terminal and is in that terminal's foreground
// process group: what a person running a command in their terminal looks
// like. The terminal is named as sudo's timestamp names it: the device
// (tty_nr), the session and the start time of the session's leader, so
// that a new session on a reused pty is another terminal. It reads
// /proc/PID/stat of the peer's pid (SO_PEERCRED) and of its session leader.
func peerOnTerminal(c net.Conn) (string, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return "", fmt.Errorf("a %T is not a unix socket connection", c)
	}
	cred, err := peerCred(uc)
	if err != nil {
		return "", err
	}
	st, err := readStat(int(cred.Pid))
	if err != nil {
		return "", err
	}
	if err := st.foreground(); err != nil {
		return "", err
	}
	leader, err := readStat(st.session)
	if err != nil {
		return "", fmt.Errorf("the caller's session leader: %w", err)
	}
	return fmt.Sprintf("tty=%d sid=%d since=%d", st.ttyNr, st.session, leader.start), nil
}

// readStat reads and parses /proc/PID/stat.
func readStat(pid int) (procStat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, fmt.Errorf("read the caller's process status: %w", err)
	}
	st, err := parseStat(b)
	if err != nil {
		return procStat{}, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return st, nil
}

// procStat holds the fields of /proc/PID/stat that say where a process's
// terminal is.
type procStat struct {
	pgrp, session, ttyNr, tpgid int
	start                       uint64 // clock ticks after boot
}

// parseStat reads pgrp (field 5), session (6), tty_nr (7), tpgid (8) and
// starttime (22) of proc(5)'s
// /proc/PID/stat. Field 2, the command name, is in parentheses and may hold
// spaces and parentheses itself, so the fields are counted from the last ')'.
func parseStat(b []byte) (procStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, errors.New("no command name in parentheses")
	}
	f := bytes.Fields(b[i+1:]) // state ppid pgrp session tty_nr tpgid ...
	if len(f) < 20 {
		return procStat{}, fmt.Errorf("%d fields after the command name, want at least 20", len(f))
	}
	var st procStat
	for _, x := range []struct {
		dst *int
		idx int
	}{{&st.pgrp, 2}, {&st.session, 3}, {&st.ttyNr, 4}, {&st.tpgid, 5}} {
		n, err := strconv.Atoi(string(f[x.idx]))
		if err != nil {
			return procStat{}, fmt.Errorf("field %d: %w", x.idx+3, err)
		}
		*x.dst = n
	}
	start, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("field 22: %w", err)
	}
	st.start = start
	return st, nil
}

func (st procStat) foreground() error {
	switch {
	case st.ttyNr == 0 || st.tpgid <= 0:
		return errors.New("the caller has no controlling terminal")
	case st.tpgid != st.pgrp:
		return errors.New("the caller is not in the foreground of its terminal")
	}
	return nil
}
