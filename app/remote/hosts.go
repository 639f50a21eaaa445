// Package remote serves agents that run elsewhere: on another machine over
// SSH, or as another user of this one (a host "agent@localhost"). For each
// host the person added ('asktray remote add') the app keeps one SSH
// connection that forwards a socket on the host (in a 0700 dir of the
// host's user) to a socket of the app that only asks: it takes an agent
// hook's request (POST /v2/hook) with the key made for that host, and
// nothing else (no answer, list, cancel, rules or settings). Questions asked
// there name their host (question.Question.Host). See docs/remote.md.
package remote

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/asktray/asktray/app/atomicfile"
)

// Host is one remote host the person added.
type Host struct {
	// Name is the host as the person gave it: [user@]host[:port].
	Name string `json:"name"`
	// Key is the secret the host's hooks send (hex, 32 random bytes); it
	// lives only here (0600) and in the host's key file (0600, in a 0700
	// dir), never on a command line.
	Key string `json:"key"`
	// Dir is the host's channel dir (absolute, on the host), as the host's
	// shell found it when the host was added.
	Dir   string    `json:"dir"`
	Added time.Time `json:"added"`
}

// The states of a host's connection.
const (
	Connecting = "connecting"
	Connected  = "connected"
	Down       = "down"
)

// State is what 'asktray remote list' shows of a host.
type State struct {
	Name  string    `json:"name"`
	State string    `json:"state"`
	Error string    `json:"error,omitempty"`
	Since time.Time `json:"since"`
	PID   int       `json:"pid,omitempty"`
}

// Hosts is the hosts file's content.
type Hosts struct {
	Hosts []Host `json:"hosts"`
}

// Limits of a host's name.
const (
	MaxName = 255
)

var (
	userRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*$`)
	hostRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.-]*$`)
)

// Target is where ssh connects for a host name: its destination
// ([user@]host) and port (0: ssh's own default or the person's ssh
// config).
type Target struct {
	Dest string
	Port int
}

// ParseName checks a host name, [user@]host[:port], and returns where ssh
// connects. The errors name the part and the rule: a name that could be
// read as an option of ssh (a leading "-") or holds anything but letters,
// digits, ".", "-", "_" is refused. It does not block.
func ParseName(name string) (Target, error) {
	if name == "" || len(name) > MaxName {
		return Target{}, fmt.Errorf("host: 1 to %d characters, got %d", MaxName, len(name))
	}
	if strings.ContainsAny(name, "[]") {
		return Target{}, fmt.Errorf("host %q: IPv6 addresses are not taken here; give the host a name in ~/.ssh/config", name)
	}
	rest := name
	var t Target
	if h, p, ok := strings.Cut(rest, ":"); ok {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Target{}, fmt.Errorf("host %q: the port must be a number from 1 to 65535, got %q", name, p)
		}
		rest, t.Port = h, n
	}
	host := rest
	if u, h, ok := strings.Cut(rest, "@"); ok {
		if !userRe.MatchString(u) {
			return Target{}, fmt.Errorf("host %q: the user %q must start with a letter or _ and hold only letters, digits, '.', '-', '_'", name, u)
		}
		host = h
	}
	if !hostRe.MatchString(host) {
		return Target{}, fmt.Errorf("host %q: the host name %q must start with a letter or digit and hold only letters, digits, '.', '-' (IPv6 addresses: use a name from ~/.ssh/config)", name, host)
	}
	t.Dest = rest
	return t, nil
}

// NewKey makes a new host key. It does not block.
func NewKey() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// KeyMatches reports, in constant time, whether got is the host's key.
func (h Host) KeyMatches(got string) bool {
	return h.Key != "" && subtle.ConstantTimeCompare([]byte(h.Key), []byte(got)) == 1
}

// ID is a file name for the host: its name's hash, since a name holds '@'
// and ':'.
func (h Host) ID() string {
	s := sha256.Sum256([]byte(h.Name))
	return hex.EncodeToString(s[:6])
}

// Load reads the hosts file at path; a missing file is no hosts. A file
// that others may read is refused: it holds the keys. It blocks on the
// file only.
func Load(path string) (Hosts, error) {
	var hs Hosts
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return hs, nil
	}
	if err != nil {
		return hs, fmt.Errorf("read hosts: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Mode().Perm()&0o077 != 0 {
		return hs, fmt.Errorf("read hosts: %s is mode %o; it holds the hosts' keys and must be 0600", path, st.Mode().Perm())
	}
	if err := json.NewDecoder(f).Decode(&hs); err != nil {
		return hs, fmt.Errorf("read hosts: %s: %w", path, err)
	}
	return hs, nil
}

// Save writes hs to path (0600), atomically. It blocks on the file.
func Save(path string, hs Hosts) error {
	b, err := json.MarshalIndent(hs, "", "  ")
	if err != nil {
		return fmt.Errorf("write hosts: %w", err)
	}
	if err := atomicfile.Write(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write hosts: %w", err)
	}
	return nil
}

// Find returns the host named name.
func (hs Hosts) Find(name string) (Host, bool) {
	i := slices.IndexFunc(hs.Hosts, func(h Host) bool { return h.Name == name })
	if i < 0 {
		return Host{}, false
	}
	return hs.Hosts[i], true
}

// Put adds h, replacing a host of the same name.
func (hs *Hosts) Put(h Host) {
	hs.Remove(h.Name)
	hs.Hosts = append(hs.Hosts, h)
}

// Remove drops the host named name and reports whether there was one.
func (hs *Hosts) Remove(name string) bool {
	n := len(hs.Hosts)
	hs.Hosts = slices.DeleteFunc(hs.Hosts, func(h Host) bool { return h.Name == name })
	return len(hs.Hosts) != n
}
