package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// procRead reads pid's command line from /proc and, for a codex process
// (the only ones the hook looks at), its owner, start time, working
// directory and Codex home.
func procRead(pid int) (procInfo, bool) {
	dir := fmt.Sprintf("/proc/%d", pid)
	cmd, err := os.ReadFile(dir + "/cmdline")
	if err != nil || len(cmd) == 0 {
		return procInfo{}, false
	}
	p := procInfo{argv: strings.Split(strings.TrimSuffix(string(cmd), "\x00"), "\x00"), uid: -1}
	if !isCodexExe(p.argv[0]) {
		return p, true
	}
	st, err := os.Stat(dir)
	if err != nil {
		return procInfo{}, false
	}
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		p.uid = int(s.Uid)
	}
	p.start, _ = procStart(pid)
	p.cwd, _ = os.Readlink(dir + "/cwd")
	p.codexHome = procCodexHome(dir)
	return p, true
}

// procStart reads pid's start time, field 22 of /proc/pid/stat.
func procStart(pid int) (uint64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:])) // state is field 3, start time 22
	if len(f) < 20 {
		return 0, false
	}
	n, err := strconv.ParseUint(f[19], 10, 64)
	return n, err == nil
}

// procCodexHome is the Codex home of the process whose /proc directory is
// dir: $CODEX_HOME, else $HOME/.codex; "" when its environment is
// unreadable.
func procCodexHome(dir string) string {
	b, err := os.ReadFile(dir + "/environ")
	if err != nil {
		return ""
	}
	home := ""
	for e := range strings.SplitSeq(string(b), "\x00") {
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
func procPIDs() []int {
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
