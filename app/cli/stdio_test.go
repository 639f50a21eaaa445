package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/asktray/asktray/app/datadir"
	"github.com/asktray/asktray/app/question"

	"github.com/asktray/asktray/internal/testkit"
)

// In a child (testkit.IsChild), apps that 'asktray stdio' starts listen
// on a free port, or take the arguments in ASKTRAY_TEST_START_ARGS (JSON), and
// ASKTRAY_TEST_START_TIMEOUT bounds the wait for them. With
// ASKTRAY_TEST_STDIO_DIRECT=1, 'stdio' runs cmdStdio without Main, for as long
// as Main does not route the command.
func init() {
	if !testkit.IsChild() {
		return
	}
	extraStartArgs = []string{"--addr", "127.0.0.1:0"}
	if s := os.Getenv("ASKTRAY_TEST_START_ARGS"); s != "" {
		if err := json.Unmarshal([]byte(s), &extraStartArgs); err != nil {
			panic(err)
		}
	}
	if s := os.Getenv("ASKTRAY_TEST_START_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			panic(err)
		}
		startTimeout = d
	}
}

// stdioEnv is the environment of an 'asktray stdio' child.
func stdioEnv(t *testing.T, extra ...string) []string {
	t.Helper()
	env := append(os.Environ(), testkit.ChildEnv)
	return append(env, extra...)
}

// stdioClient runs 'asktray stdio --verbose' on dir and connects a go-sdk
// client to it the way an agent would. It returns the Connect error rather
// than failing, and the child's stderr.
func stdioClient(t *testing.T, dir string) (*sdk.ClientSession, *testkit.SyncBuffer, error) {
	t.Helper()
	cmd := testkit.AsktrayCommand("stdio", "--verbose", "--data-dir", dir)
	cmd.Env = stdioEnv(t)
	stderr := &testkit.SyncBuffer{}
	cmd.Stderr = stderr
	c := sdk.NewClient(&sdk.Implementation{Name: "e2e-client", Version: "1.2.3"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		t.Cleanup(func() { _ = cs.Close() })
	}
	return cs, stderr, err
}

func TestStdio_BridgesToRunningApp(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	startApp(t, dir)
	cs, stderr, err := stdioClient(t, dir)
	if err != nil {
		t.Fatalf("initialize through asktray stdio: %v\nstderr:\n%s", err, stderr.String())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list through asktray stdio: %v\nstderr:\n%s", err, stderr.String())
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Contains(names, "ask_confirm") {
		t.Fatalf("no ask_confirm tool (tools %v)", names)
	}

	// A question asked through stdio lands in the app, from this client.
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "ask_confirm", Arguments: map[string]any{"question": "Deploy?", "wait": false}})
	if err != nil || res.IsError {
		t.Fatalf("ask_confirm: %v %+v", err, res)
	}
	r := run(t, dir, "pending", "--json")
	var pend []question.Question
	if err := json.Unmarshal([]byte(r.stdout), &pend); err != nil || len(pend) != 1 {
		t.Fatalf("pending --json: %v %+v", err, r)
	}
	if c := pend[0].Client; c.Name != "e2e-client" || c.Version != "1.2.3" || pend[0].Message != "Deploy?" {
		t.Errorf("pending question %+v", pend[0])
	}
	if err := cs.Close(); err != nil {
		t.Errorf("asktray stdio did not exit cleanly at EOF: %v\nstderr:\n%s", err, stderr.String())
	}
}

func TestStdio_StartsTheApp(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	t.Cleanup(func() { stopStartedApp(t, dir) })

	// Two clients start at once: both start an app, one app wins, both use it.
	type conn struct {
		cs     *sdk.ClientSession
		stderr *testkit.SyncBuffer
		err    error
	}
	conns := make([]conn, 2)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Go(func() {
			cs, stderr, err := stdioClient(t, dir)
			conns[i] = conn{cs, stderr, err}
		})
	}
	wg.Wait()
	if r := run(t, dir, "url"); r.code != 0 {
		t.Fatalf("no app runs after asktray stdio: %+v", r)
	}
	in, err := datadir.ReadInstance(dir)
	if err != nil {
		t.Fatal(err)
	}
	if in.GUI {
		t.Errorf("the started app shows a GUI in a test")
	}
	for i, c := range conns {
		if !strings.Contains(c.stderr.String(), "pid="+itoa(in.PID)) {
			t.Errorf("client %d did not bridge to the app with pid %d; stderr:\n%s", i, in.PID, c.stderr.String())
		}
	}
	for _, c := range conns {
		if c.err != nil {
			t.Fatalf("initialize through asktray stdio: %v\nstderr:\n%s", c.err, c.stderr.String())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := c.cs.ListTools(ctx, nil)
		cancel()
		if err != nil {
			t.Errorf("tools/list: %v", err)
		}
	}
}

func TestStdio_StartFails(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	cmd := testkit.AsktrayCommand("stdio", "--data-dir", dir)
	cmd.Env = stdioEnv(t, `ASKTRAY_TEST_START_ARGS=["--addr","not-an-address"]`, "ASKTRAY_TEST_START_TIMEOUT=1s")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitError {
		t.Fatalf("exit %v, want code %d; stderr:\n%s", err, ExitError, errb.String())
	}
	if !strings.Contains(errb.String(), "did not answer within 1s") || out.Len() != 0 {
		t.Errorf("stdout %q, stderr:\n%s", out.String(), errb.String())
	}
}

// stopStartedApp ends the app that asktray stdio started on dir, by the pid
// in its instance file.
func stopStartedApp(t *testing.T, dir string) {
	t.Helper()
	in, err := datadir.ReadInstance(dir)
	if err != nil {
		return // it never came up
	}
	p, err := os.FindProcess(in.PID)
	if err != nil {
		return
	}
	_ = p.Signal(syscall.SIGTERM)
	deadline := time.Now().Add(10 * time.Second)
	for p.Signal(syscall.Signal(0)) == nil {
		if time.Now().After(deadline) {
			t.Errorf("the started app (pid %d) did not stop on SIGTERM; killing it", in.PID)
			_ = p.Kill()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
