package hook

import "sync"

// ProcTable is a Procs over a table of processes by pid, standing in for
// /proc in the tests of code that binds to an agent's processes (here and in
// app/cli). Its methods are safe to call from any goroutine; End takes a
// process away while a binding watches it.
type ProcTable struct {
	mu    sync.Mutex
	procs map[int]Proc
}

// NewProcTable returns a ProcTable of procs (each entry's PID is its key).
func NewProcTable(procs map[int]Proc) *ProcTable { return &ProcTable{procs: procs} }

// PIDs lists the table's pids.
func (f *ProcTable) PIDs() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]int, 0, len(f.procs))
	for pid := range f.procs {
		out = append(out, pid)
	}
	return out
}

// Read returns pid's command line, as SystemProcs does (no details).
func (f *ProcTable) Read(pid int) (Proc, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p, ok := f.procs[pid]
	return Proc{PID: pid, Argv: p.Argv, UID: -1}, ok
}

// Detail fills p's owner, start, directory and environment from the table.
func (f *ProcTable) Detail(p *Proc) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	full, ok := f.procs[p.PID]
	if ok {
		p.UID, p.Start, p.Cwd, p.Env = full.UID, full.Start, full.Cwd, full.Env
	}
	return ok
}

// End takes pid out of the table, as if the process exited.
func (f *ProcTable) End(pid int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.procs, pid)
}

// Put sets pid's entry, as if pid now named another process (a reused pid).
func (f *ProcTable) Put(pid int, p Proc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.procs[pid] = p
}
