package nodeclients

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/cli"
	"github.com/asktray/asktray/app/control"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// The test binary doubles as the asktray binary: started by
// testkit.AsktrayCommand it runs cli.Main on its arguments (headless, no GUI). The tests start the app
// with it, answer through its CLI, and hand it to the TypeScript SDK's
// StdioClientTransport as the `asktray stdio` command.
func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m, func() int {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return cli.Main(ctx, os.Args[1:], cli.IO{Out: os.Stdout, Err: os.Stderr}, nil)
	}))
}

// lockStamp is where .ci/deps.sh records the sha256 of the package-lock.json
// that node_modules was installed from.
const lockStamp = "node_modules/.asktray-lock-sha256"

var (
	nodeOnce sync.Once
	nodeErr  string
)

// requireNode fails the test unless node_modules holds exactly what
// package-lock.json pins, with Node 22 in it. CI runs `make deps` first, so
// a missing or stale install is a failure, not a skip.
func requireNode(t *testing.T) {
	t.Helper()
	nodeOnce.Do(func() {
		lock, err := os.ReadFile("package-lock.json")
		if err != nil {
			nodeErr = "read package-lock.json: " + err.Error()
			return
		}
		sum := sha256.Sum256(lock)
		stamp, err := os.ReadFile(lockStamp)
		switch {
		case err != nil:
			nodeErr = "mcpbridge/nodeclients/node_modules is not installed (" + err.Error() + "): run `make deps`"
			return
		case strings.TrimSpace(string(stamp)) != hex.EncodeToString(sum[:]):
			nodeErr = "mcpbridge/nodeclients/node_modules was installed from another package-lock.json: run `make deps`"
			return
		}
		out, err := exec.Command(nodeBin(), "--version").Output()
		if err != nil || !strings.HasPrefix(string(out), "v22.") {
			nodeErr = "node_modules/.bin/node --version: want v22.x, got " + strings.TrimSpace(string(out)) + " " + errString(err) + ": run `make deps`"
		}
	})
	if nodeErr != "" {
		t.Fatal(nodeErr)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// nodeBin is Node 22 from the lock file (the npm package node@22).
func nodeBin() string {
	p, _ := filepath.Abs("node_modules/.bin/node")
	return p
}

// nodeEnv is the environment for node and the tools it runs: Node 22 first
// on PATH (their scripts start with `#!/usr/bin/env node`), a private HOME
// (the Inspector writes ~/.mcp-inspector), no update checks, no colours.
func nodeEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	bin, _ := filepath.Abs("node_modules/.bin")
	env := []string{
		"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
		"NO_COLOR=1",
		"NO_UPDATE_NOTIFIER=1",
		"npm_config_update_notifier=false",
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PATH", "HOME", "NO_COLOR", "FORCE_COLOR", "NODE_OPTIONS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// appProc is a running headless asktray.
type appProc struct {
	cmd    *exec.Cmd
	dir    string
	url    string
	token  string
	stderr *testkit.SyncBuffer
	ctl    *control.Client // the app's control socket, to watch its questions without a process per look
}

// startApp starts a headless app on a fresh data dir (with settings, when
// given) on a free loopback port, and waits until it serves.
func startApp(t *testing.T, settings string, args ...string) *appProc {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data") // the control socket path must stay under 108 bytes
	if settings != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := testkit.AsktrayCommand(append([]string{"--headless", "--addr", "127.0.0.1:0", "--data-dir", dir}, args...)...)
	p := &appProc{cmd: cmd, dir: dir, stderr: &testkit.SyncBuffer{}}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("app stderr:\n%s", p.stderr.String())
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(p.stderr.String(), "MCP at http://") {
		select {
		case <-exited:
			t.Fatalf("app exited before serving:\n%s", p.stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("app did not serve within 30 s:\n%s", p.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	r := asktray(t, dir, "url", "--json")
	var info cli.URLInfo
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &info) != nil || !strings.HasPrefix(info.URL, "http://127.0.0.1:") || len(info.Token) != 64 {
		t.Fatalf("asktray url --json: %+v", r)
	}
	p.url, p.token = info.URL, info.Token
	p.ctl = control.NewClient(filepath.Join(dir, datadir.SocketFile))
	return p
}

type result struct {
	code           int
	stdout, stderr string
}

// asktray runs an asktray command against dir and waits for it.
func asktray(t *testing.T, dir string, args ...string) result {
	t.Helper()
	r := testkit.RunAsktray(t, append(args, "--data-dir", dir)...)
	return result{r.Code, r.Stdout, r.Stderr}
}

// waitPending polls the app's pending questions until one with message is
// pending and returns it.
func (p *appProc) waitPending(t *testing.T, message string) question.Question {
	t.Helper()
	return waitFor(t, "pending question "+strconv.Quote(message), func() (question.Question, bool) {
		qs, err := p.ctl.Pending(context.Background())
		if err != nil {
			t.Fatalf("pending: %v", err)
		}
		i := slices.IndexFunc(qs, func(q question.Question) bool { return q.Message == message })
		if i < 0 {
			return question.Question{}, false
		}
		return qs[i], true
	})
}

// waitFor calls look every 50 ms until it reports ok, for at most 30 s.
func waitFor[T any](t *testing.T, what string, look func() (T, bool)) T {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if v, ok := look(); ok {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after 30 s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// answer answers question id through `asktray answer ID --accept VALUE`.
func (p *appProc) answer(t *testing.T, id, value string) {
	t.Helper()
	if r := asktray(t, p.dir, "answer", id, "--accept", value); r.code != 0 || !strings.Contains(r.stdout, "answered") {
		t.Fatalf("asktray answer %s --accept %s: %+v", id, value, r)
	}
}

// nodeProc is a running node script whose stdout is read line by line.
type nodeProc struct {
	lines  chan string
	stderr *testkit.SyncBuffer
	done   chan struct{}
	code   int
}

// startNode runs node with args in this directory, killing it after limit.
// It may be called from any goroutine of the test.
func startNode(t *testing.T, limit time.Duration, env []string, args ...string) *nodeProc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	cmd := exec.CommandContext(ctx, nodeBin(), args...)
	cmd.Env = env
	p := &nodeProc{lines: make(chan string, 1000), stderr: &testkit.SyncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdout, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		// Errorf, not Fatal: tests call this from their own goroutines too.
		t.Errorf("start node %v: %v", args, err)
		cancel()
		p.code = -1
		close(p.lines)
		close(p.done)
		return p
	}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		err := cmd.Wait()
		p.code = cmd.ProcessState.ExitCode()
		if ctx.Err() == context.DeadlineExceeded {
			p.code = -1
			t.Errorf("node %v killed after %v: %v", args, limit, err)
		}
		cancel()
		close(p.done)
	}()
	t.Cleanup(func() { cancel(); <-p.done })
	return p
}

// wait waits for the process to end and returns its exit code.
func (p *nodeProc) wait() int {
	for range p.lines { //nolint:revive // drain what the caller did not read
	}
	<-p.done
	return p.code
}
