package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/asktray/asktray/app/procfs"
)

// procRead reads pid's command line from /proc and, for a codex process
// (the only ones the hook looks at), its owner, start time, working
// directory and Codex home.
func procRead(pid int) (procInfo, bool) {
	argv, err := procfs.ReadCmdline(pid)
	if err != nil {
		return procInfo{}, false
	}
	p := procInfo{argv: argv, uid: -1}
	if !isCodexExe(p.argv[0]) {
		return p, true
	}
	dir := fmt.Sprintf("/proc/%d", pid)
	st, err := os.Stat(dir)
	if err != nil {
		return procInfo{}, false
	}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		p.uid = int(s.Uid)
	}
	if ps, err := procfs.ReadStat(pid); err == nil {
		p.start = ps.Start
	}
	p.cwd, _ = os.Readlink(dir + "/cwd")
	p.codexHome = procCodexHome(pid)
	return p, true
}

// procCodexHome is the Codex home of process pid: $CODEX_HOME, else
// $HOME/.codex; "" when its environment is unreadable.
func procCodexHome(pid int) string {
	env, err := procfs.ReadEnviron(pid)
	if err != nil {
		return ""
	}
	home := ""
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "CODEX_HOME="); ok && v != "" {
			return filepath.Clean(v)
		}
		if v, ok := strings.CutPrefix(e, "HOME="); ok && v != "" {
			home = filepath.Join(v, ".codex")
		}
	}
	return home
}

// procPIDs lists the processes in /proc.
func procPIDs() []int { return procfs.PIDs() }
