// Package procfs reads what Linux's /proc says of a process: its status
// line (/proc/PID/stat), its command line and its environment. It is the
// one place that parses /proc/PID/stat, whose command name may hold spaces
// and parentheses. It imports only the standard library; elsewhere than
// Linux every read fails (there is no /proc), while ParseStat works
// everywhere.
package procfs

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Stat holds the fields of proc(5)'s /proc/PID/stat that Asktray reads.
type Stat struct {
	PID     int    // field 1
	Comm    string // field 2, without its parentheses
	State   byte   // field 3: R, S, D, Z, T, ...
	PPID    int    // field 4
	PGRP    int    // field 5
	Session int    // field 6
	TTYNr   int    // field 7: the controlling terminal's device, 0 if none
	TPGID   int    // field 8: the terminal's foreground process group, -1 if none
	Start   uint64 // field 22: clock ticks after boot
}

// ParseStat parses the line of /proc/PID/stat. The command name (field 2)
// is in parentheses and may hold spaces and parentheses itself, so the
// fields after it are counted from the last ')'. An error names the field
// that does not parse. It does not block.
func ParseStat(b []byte) (Stat, error) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return Stat{}, errors.New("no command name in parentheses")
	}
	var st Stat
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return Stat{}, fmt.Errorf("field 1 (pid): %w", err)
	}
	st.PID, st.Comm = pid, string(b[open+1:end])
	f := bytes.Fields(b[end+1:]) // state ppid pgrp session tty_nr tpgid ...
	if len(f) < 20 {
		return Stat{}, fmt.Errorf("%d fields after the command name, want at least 20", len(f))
	}
	if len(f[0]) != 1 {
		return Stat{}, fmt.Errorf("field 3 (state) %q is not one letter", f[0])
	}
	st.State = f[0][0]
	for _, x := range []struct {
		dst *int
		idx int
	}{{&st.PPID, 1}, {&st.PGRP, 2}, {&st.Session, 3}, {&st.TTYNr, 4}, {&st.TPGID, 5}} {
		n, err := strconv.Atoi(string(f[x.idx]))
		if err != nil {
			return Stat{}, fmt.Errorf("field %d: %w", x.idx+3, err)
		}
		*x.dst = n
	}
	start, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return Stat{}, fmt.Errorf("field 22 (starttime): %w", err)
	}
	st.Start = start
	return st, nil
}

// ReadStat reads and parses /proc/PID/stat. It blocks on the read, which
// the kernel answers at once.
func ReadStat(pid int) (Stat, error) {
	b, err := os.ReadFile(statPath(pid))
	if err != nil {
		return Stat{}, fmt.Errorf("read process status: %w", err)
	}
	st, err := ParseStat(b)
	if err != nil {
		return Stat{}, fmt.Errorf("%s: %w", statPath(pid), err)
	}
	return st, nil
}

func statPath(pid int) string { return fmt.Sprintf("/proc/%d/stat", pid) }

// ReadCmdline reads pid's arguments from /proc/PID/cmdline. A kernel
// thread or a zombie has none: that is an error, so a caller never indexes
// an empty list. It blocks on the read.
func ReadCmdline(pid int) ([]string, error) {
	return readNulList(pid, "cmdline")
}

// ReadEnviron reads pid's environment ("NAME=value" entries) from
// /proc/PID/environ, which only its owner (or root) may read. It blocks on
// the read.
func ReadEnviron(pid int) ([]string, error) {
	return readNulList(pid, "environ")
}

func readNulList(pid int, name string) ([]string, error) {
	p := fmt.Sprintf("/proc/%d/%s", pid, name)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%s is empty", p)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00"), nil
}

// PIDs lists the processes in /proc; nil when /proc cannot be read. It
// blocks on the directory read.
func PIDs() []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil && e.IsDir() {
			out = append(out, n)
		}
	}
	return out
}
