package control

import (
	"errors"
	"fmt"

	"github.com/asktray/asktray/app/procfs"
)

// peerOnTerminal returns the terminal of the process at the other end of c
// when it has a controlling terminal and is in that terminal's foreground
// process group: what a person running a command in their terminal looks
// like. The terminal is named as sudo's timestamp names it: the device
// (tty_nr), the session and the start time of the session's leader, so
// that a new session on a reused pty is another terminal. It reads
// /proc/PID/stat of the process that connected, refusing when that process
// is gone (procRef.stat), and of its session leader.
func peerOnTerminal(proc *procRef) (string, error) {
	st, err := proc.stat()
	if err != nil {
		return "", err
	}
	if err := foreground(st); err != nil {
		return "", err
	}
	leader, err := readStat(st.Session)
	if err != nil {
		return "", fmt.Errorf("the caller's session leader: %w", err)
	}
	return fmt.Sprintf("tty=%d sid=%d since=%d", st.TTYNr, st.Session, leader.Start), nil
}

// readStat reads /proc/PID/stat of a caller.
func readStat(pid int) (procfs.Stat, error) {
	st, err := procfs.ReadStat(pid)
	if err != nil {
		return procfs.Stat{}, fmt.Errorf("the caller's process: %w", err)
	}
	return st, nil
}

// foreground says why a process whose status is st is not a person's
// command in their terminal: no controlling terminal, or not in its
// foreground process group.
func foreground(st procfs.Stat) error {
	switch {
	case st.TTYNr == 0 || st.TPGID <= 0:
		return errors.New("the caller has no controlling terminal")
	case st.TPGID != st.PGRP:
		return errors.New("the caller is not in the foreground of its terminal")
	}
	return nil
}
