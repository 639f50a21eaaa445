// Package testkit holds the helpers that several packages' tests share:
// running the test binary as asktray (AsktrayCommand, RunAsktray, Main),
// building the real binary once (Binary), and a private D-Bus session with
// a fake notification server (StartBus, StartFakeNotifications).
//
// Only tests import it; TestOnlyTestsImport checks that. It must not import
// the packages whose tests use it (app/cli would be a cycle), so a test
// binary's asktray entry point is passed to Main.
package testkit

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// childEnv, set to 1, makes a test binary act as asktray: Main runs the
// child function it is given instead of the tests.
const childEnv = "ASKTRAY_TEST_CHILD"

// ChildEnv is the environment entry that makes a test binary act as
// asktray, for commands built by hand (an MCP client's stdio command).
const ChildEnv = childEnv + "=1"

// IsChild reports whether this test binary was started to act as asktray.
func IsChild() bool { return os.Getenv(childEnv) == "1" }

// Main runs m's tests, or, in a test binary started by AsktrayCommand, child
// (asktray's entry point, e.g. cli.Main on os.Args[1:]) instead. It returns
// the exit code and removes what Binary built. Call it from TestMain as
// os.Exit(testkit.Main(m, child)); child may be nil when the package never
// runs itself as asktray.
func Main(m *testing.M, child func() int) int {
	if child != nil && IsChild() {
		return child()
	}
	code := m.Run()
	removeBuilt()
	return code
}

// AsktrayCommand returns a command that runs this test binary as asktray
// with args. The package's TestMain must call Main with a child function.
func AsktrayCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...) //nolint:gosec // the test binary itself, with the test's own arguments
	cmd.Env = append(os.Environ(), ChildEnv)
	return cmd
}

// Result is how a command ended: its exit code and what it printed.
type Result struct {
	Code           int
	Stdout, Stderr string
}

// RunAsktray runs this test binary as asktray with args and waits for it.
// A command that cannot start fails t; a non-zero exit is a Result.
func RunAsktray(t testing.TB, args ...string) Result {
	t.Helper()
	return Run(t, AsktrayCommand(args...))
}

// Run runs cmd, which must not have Stdout or Stderr set, and waits for it.
// A command that cannot start fails t; a non-zero exit is a Result.
func Run(t testing.TB, cmd *exec.Cmd) Result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", cmd.Args, err)
	}
	return Result{code, out.String(), errb.String()}
}

var (
	buildMu  sync.Mutex
	builtDir string // made by the first Binary, removed by Main
	builtBin string
	buildErr error
)

// Binary builds cmd/asktray once per test process, the way make build does
// (same tags, so the build cache is shared; no -trimpath), and returns its
// path. A failed build fails t, and every later call too. Main removes it;
// any goroutine of the test may call Binary.
func Binary(t testing.TB) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	if builtBin == "" && buildErr == nil {
		builtBin, buildErr = build()
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

func build() (string, error) {
	dir, err := os.MkdirTemp("", "asktray-bin")
	if err != nil {
		return "", err
	}
	builtDir = dir
	bin := filepath.Join(dir, "asktray")
	out, err := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", bin, "github.com/asktray/asktray/cmd/asktray").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("build asktray: %w\n%s", err, out)
	}
	return bin, nil
}

func removeBuilt() {
	buildMu.Lock()
	defer buildMu.Unlock()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
}
