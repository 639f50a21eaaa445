package control

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
)

// peerOnTerminal returns nil when the process at the other end of c has a
// controlling terminal and is in that terminal's foreground process group:
// what a person running a command in their terminal looks like. It reads
// /proc/PID/stat of the peer's pid (SO_PEERCRED) when called.
func peerOnTerminal(c *net.UnixConn) error {
	cred, err := peerCred(c)
	if err != nil {
		return err
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cred.Pid))
	if err != nil {
		return fmt.Errorf("read the caller's process status: %w", err)
	}
	st, err := parseStat(b)
	if err != nil {
		return fmt.Errorf("/proc/%d/stat: %w", cred.Pid, err)
	}
	return st.foreground()
}

// procStat holds the fields of /proc/PID/stat that say where a process's
// terminal is.
type procStat struct {
	pgrp, ttyNr, tpgid int
}

// parseStat reads pgrp (field 5), tty_nr (7) and tpgid (8) of proc(5)'s
// /proc/PID/stat. Field 2, the command name, is in parentheses and may hold
// spaces and parentheses itself, so the fields are counted from the last ')'.
func parseStat(b []byte) (procStat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, errors.New("no command name in parentheses")
	}
	f := bytes.Fields(b[i+1:]) // state ppid pgrp session tty_nr tpgid ...
	if len(f) < 6 {
		return procStat{}, fmt.Errorf("%d fields after the command name, want at least 6", len(f))
	}
	var st procStat
	for _, x := range []struct {
		dst *int
		idx int
	}{{&st.pgrp, 2}, {&st.ttyNr, 4}, {&st.tpgid, 5}} {
		n, err := strconv.Atoi(string(f[x.idx]))
		if err != nil {
			return procStat{}, fmt.Errorf("field %d: %w", x.idx+3, err)
		}
		*x.dst = n
	}
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
