package remote

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/asktray/asktray/app/datadir"
)

// Supported says whether this build serves remote hosts: Linux does.
const Supported = true

// Manager keeps the connection of every host in the data dir's hosts file
// while the app runs. Its methods may be called from any goroutine.
type Manager struct {
	// DataDir is the app's data dir: the hosts file and the hosts' sockets.
	DataDir string
	// Asker takes the hosts' hook requests.
	Asker Asker
	// SSHCommand runs ssh through the shell in its place, as
	// GIT_SSH_COMMAND does for git ("" runs ssh); the app passes
	// $ASKTRAY_SSH_COMMAND.
	SSHCommand string
	Log        *slog.Logger

	mu      sync.Mutex
	ctx     context.Context
	hosts   map[string]*running
	changed atomic.Pointer[func()]
}

// OnChange registers fn, called on a new goroutine whenever a host's
// connection changes state or a host is added or removed (fn reads States
// for what changed; nil stops the calls). Any goroutine may call it.
func (m *Manager) OnChange(fn func()) {
	m.changed.Store(&fn)
}

// notify starts the function OnChange registered, if any. It does not
// block: the caller may hold m.mu.
func (m *Manager) notify() {
	if f := m.changed.Load(); f != nil && *f != nil {
		go (*f)()
	}
}

// running is one host's listener and connection.
type running struct {
	host   Host
	ln     *listener
	c      *carrier
	cancel context.CancelFunc
	done   chan struct{}
}

// Start connects every host in the hosts file and keeps them connected
// until ctx ends or Close. It does not block on the connections.
func (m *Manager) Start(ctx context.Context) error {
	m.mu.Lock()
	m.ctx = ctx
	m.mu.Unlock()
	return m.Sync()
}

// Sync rereads the hosts file: it connects the hosts added since, and ends
// at once the connections of hosts removed (their open requests end, their
// hooks step aside) or whose key changed. It blocks on the file and on
// ending connections.
func (m *Manager) Sync() error {
	hs, err := Load(filepath.Join(m.DataDir, datadir.HostsFile))
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ctx == nil {
		return fmt.Errorf("remote hosts: not started")
	}
	if m.hosts == nil {
		m.hosts = map[string]*running{}
	}
	want := map[string]Host{}
	for _, h := range hs.Hosts {
		want[h.Name] = h
	}
	for name, r := range m.hosts {
		if h, ok := want[name]; !ok || h != r.host {
			r.stop()
			delete(m.hosts, name)
		}
	}
	var errs []error
	for _, h := range hs.Hosts {
		if _, ok := m.hosts[h.Name]; ok {
			continue
		}
		r, err := m.start(h)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		m.hosts[h.Name] = r
	}
	defer m.notify()
	if len(errs) > 0 {
		return fmt.Errorf("remote hosts: %v", errs)
	}
	return nil
}

// start listens for host h and starts its connection. The caller holds m.mu.
func (m *Manager) start(h Host) (*running, error) {
	t, err := ParseName(h.Name)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(m.DataDir, datadir.HostsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("host %s: %w", h.Name, err)
	}
	local := filepath.Join(dir, h.ID()+".sock")
	r := &running{host: h, done: make(chan struct{})}
	r.c = &carrier{host: h, target: t, local: local, sshCmd: m.SSHCommand, changed: m.notify}
	r.c.set(Connecting, "", 0)
	r.ln = &listener{host: h, asker: m.Asker, carrier: r.c.pid, log: m.log()}
	if err := r.ln.listen(local); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(m.ctx)
	r.cancel = cancel
	go func() {
		defer close(r.done)
		r.c.run(ctx)
	}()
	return r, nil
}

// stop ends r's connection and closes its socket. It blocks until its ssh
// has ended.
func (r *running) stop() {
	r.ln.closing.Store(true) // its requests end as removed, not disconnected
	r.cancel()
	r.ln.close()
	<-r.done
}

// States is each host's connection, by name.
func (m *Manager) States() []State {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]State, 0, len(m.hosts))
	for _, r := range m.hosts {
		out = append(out, r.c.get())
	}
	slices.SortFunc(out, func(a, b State) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Close ends every connection. It blocks until they have ended.
func (m *Manager) Close() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for name, r := range m.hosts {
		r.stop()
		delete(m.hosts, name)
	}
}

func (m *Manager) log() *slog.Logger {
	if m.Log != nil {
		return m.Log
	}
	return slog.Default()
}
