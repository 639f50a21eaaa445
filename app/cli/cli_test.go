package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/personcheck"
	"github.com/asktray/asktray/app/question"
	"github.com/asktray/asktray/internal/testkit"
)

// The test binary doubles as the asktray binary: started by testkit.AsktrayCommand it
// runs cli.Main on its arguments, so every test below drives real processes.
// With ASKTRAY_TEST_SEED set to a JSON array of questions, a running app asks
// them through its broker once it serves, prints "asked <id>" for each, and
// "result <id> <json>" when a waiter learns the outcome.
func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m, childMain))
}

// testPassword is the login password of the app these tests run: the test
// binary's own Verifier, as root has none (TestCLI_RealPAM checks the real one).
const testPassword = "correct horse 42"

func childMain() int {
	if sock := os.Getenv(fakeServerEnv); sock != "" {
		return fakeHookServer(sock)
	}
	personcheck.SetTestVerifier(personcheck.Password(testPassword))
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Printf(format+"\n", args...)
	}
	if seed := os.Getenv("ASKTRAY_TEST_SEED"); seed != "" {
		var qs []question.Question
		if err := json.Unmarshal([]byte(seed), &qs); err != nil {
			fmt.Fprintln(os.Stderr, "bad seed:", err)
			return 99
		}
		readyHook = func(_ datadir.Instance, env app.Env) {
			for _, q := range qs {
				q, err := env.Broker.Ask(context.Background(), q)
				if err != nil {
					say("error %v", err)
					continue
				}
				say("asked %s", q.ID)
				go func() {
					r, err := env.Broker.Wait(context.Background(), q.ID)
					if err == nil {
						b, _ := json.Marshal(r)
						say("result %s %s", q.ID, b)
					}
				}()
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return Main(ctx, os.Args[1:], IO{Out: os.Stdout, Err: os.Stderr}, nil)
}

// shortTempDir returns a data dir whose socket path fits the unix limit of 108 bytes.
func shortTempDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(t.TempDir(), "data")
}

type result struct {
	code           int
	stdout, stderr string
}

// run runs the asktray command with args against dir and waits for it. It
// runs in a new session (setsid), without a controlling terminal, as an
// agent's shell runs commands; startPTY gives one a terminal.
func run(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := testkit.AsktrayCommand(append(args, "--data-dir", dir)...)
	cmd.SysProcAttr = noTerminal()
	r := testkit.Run(t, cmd)
	return result{r.Code, r.Stdout, r.Stderr}
}

// appProc is a running headless app.
type appProc struct {
	cmd   *exec.Cmd
	lines chan string
	dir   string
}

// startApp starts a headless app on dir, asking seed once it serves, and waits until it answers on its socket.
func startApp(t *testing.T, dir string, seed ...question.Question) *appProc {
	t.Helper()
	cmd := testkit.AsktrayCommand("--headless", "--addr", "127.0.0.1:0", "--data-dir", dir)
	if len(seed) > 0 {
		b, _ := json.Marshal(seed)
		cmd.Env = append(cmd.Env, "ASKTRAY_TEST_SEED="+string(b))
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &appProc{cmd: cmd, lines: make(chan string, 100), dir: dir}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { p.kill() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		if r := run(t, dir, "url"); r.code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("app did not come up; stderr:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return p
}

func (p *appProc) kill() {
	if p.cmd.ProcessState == nil {
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
	}
}

// stop ends the app with SIGTERM and waits for it, returning its exit code.
func (p *appProc) stop(t *testing.T) int {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	_ = p.cmd.Wait()
	return p.cmd.ProcessState.ExitCode()
}

// next returns the next stdout line that starts with prefix.
func (p *appProc) next(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("app exited while waiting for %q", prefix)
			}
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				return rest
			}
		case <-timeout:
			t.Fatalf("no %q line from the app", prefix)
		}
	}
}

func (p *appProc) askedIDs(t *testing.T, n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = p.next(t, "asked ")
	}
	return ids
}

var _ io.Writer = (*bytes.Buffer)(nil)
