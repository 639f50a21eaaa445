package hook

import (
	"fmt"
	"os"

	"github.com/asktray/asktray/app/procfs"
)

// Proc is what an agent's Bind reads of a process.
type Proc struct {
	PID  int
	Argv []string
	// Details, filled by Procs.Detail:
	UID   int    // -1 when unknown
	Start uint64 // start time (clock ticks after boot): tells a reused pid apart
	Cwd   string
	Env   []string // NAME=value; nil when unreadable
}

// Procs reads processes for an agent's Bind; tests stand in for the
// system's.
type Procs interface {
	// PIDs lists the processes.
	PIDs() []int
	// Read reads pid's command line; false when pid is gone or unreadable.
	Read(pid int) (Proc, bool)
	// Detail fills p's owner, start time, directory and environment; false
	// when the process is gone.
	Detail(p *Proc) bool
}

// SystemProcs reads the machine's processes from /proc (app/procfs); where
// there is none it finds nothing, so no binding is made. Its methods block
// on reading /proc only.
var SystemProcs Procs = systemProcs{}

type systemProcs struct{}

func (systemProcs) PIDs() []int { return procfs.PIDs() }

func (systemProcs) Read(pid int) (Proc, bool) {
	argv, err := procfs.ReadCmdline(pid)
	if err != nil {
		return Proc{}, false
	}
	return Proc{PID: pid, Argv: argv, UID: -1}, true
}

func (systemProcs) Detail(p *Proc) bool {
	dir := fmt.Sprintf("/proc/%d", p.PID)
	st, err := os.Stat(dir)
	if err != nil {
		return false
	}
	p.UID = ownerOf(st)
	if ps, err := procfs.ReadStat(p.PID); err == nil {
		p.Start = ps.Start
	}
	p.Cwd, _ = os.Readlink(dir + "/cwd")
	p.Env, _ = procfs.ReadEnviron(p.PID)
	return true
}
