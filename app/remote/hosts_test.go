package remote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestImports: the remote hosts' package knows the hooks' protocol and the
// data dir, not the broker, the rules, the UI or MCP; the app hands it the
// hook service.
func TestImports(t *testing.T) {
	t.Parallel()
	const m = "github.com/asktray/asktray/"
	testkit.ImportsOnly(t, ".", m+"app/atomicfile", m+"app/datadir", m+"app/hook", m+"app/hookclient", m+"app/procfs",
		m+"app/ellipsis", "golang.org/x/sys/unix")
}

// TestParseName: a host name is [user@]host[:port]; anything ssh could read
// as an option, or a character a shell or ssh_config treats specially, is
// refused with an error naming the part.
func TestParseName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Target{
		"build-01":                   {Dest: "build-01"},
		"agent@localhost":            {Dest: "agent@localhost"},
		"ci_bot@10.0.0.7:2222":       {Dest: "ci_bot@10.0.0.7", Port: 2222},
		"box.example.org:22":         {Dest: "box.example.org", Port: 22},
		"asktray-t1a2b3c4@127.0.0.1": {Dest: "asktray-t1a2b3c4@127.0.0.1"},
	} {
		got, err := ParseName(name)
		if err != nil || got != want {
			t.Errorf("ParseName(%q) = %+v, %v; want %+v", name, got, err, want)
		}
	}
	for name, part := range map[string]string{
		"":                       "host",
		"-oProxyCommand=sh":      "host name",
		"me@-oProxyCommand=x":    "host name",
		"-me@box":                "user",
		"box:0":                  "port",
		"box:65536":              "port",
		"box:ssh":                "port",
		"box;rm -rf ~":           "host name",
		"a b@box":                "user",
		"box\n":                  "host name",
		"[::1]":                  "IPv6",
		strings.Repeat("h", 256): "host",
	} {
		if _, err := ParseName(name); err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("ParseName(%q) = %v, want an error naming %q", name, err, part)
		}
	}
}

// TestHostsFile: hosts survive a save and a load, the file is 0600, one
// that others may read is refused (it holds the keys), and Put replaces a
// host of the same name.
func TestHostsFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "remotes.json")
	if hs, err := Load(path); err != nil || len(hs.Hosts) != 0 {
		t.Fatalf("a missing file: %+v, %v", hs, err)
	}
	var hs Hosts
	hs.Put(Host{Name: "a", Key: NewKey(), Dir: "/home/a/.local/share/asktray/remote"})
	k2 := NewKey()
	hs.Put(Host{Name: "a", Key: k2, Dir: "/d"})
	hs.Put(Host{Name: "b", Key: NewKey(), Dir: "/d"})
	if err := Save(path, hs); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("hosts file mode %v, %v", fi.Mode(), err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if h, ok := back.Find("a"); !ok || h.Key != k2 || len(back.Hosts) != 2 {
		t.Fatalf("loaded %+v", back)
	}
	if !back.Remove("a") || back.Remove("a") {
		t.Fatal("Remove does not report what it removed")
	}
	if h, _ := back.Find("b"); !h.KeyMatches(h.Key) || h.KeyMatches(k2) || h.KeyMatches("") || (Host{}).KeyMatches("") {
		t.Fatal("KeyMatches accepts a wrong or empty key")
	}
	if a, b := NewKey(), NewKey(); len(a) != 64 || a == b {
		t.Fatal("NewKey is not 32 random bytes in hex")
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "0600") {
		t.Fatalf("a world-readable hosts file: %v, want refused", err)
	}
}
