package cli

import (
	"strings"
	"testing"
)

// TestBackgroundStartLeavesARunningAppBe: the start at login's
// --background exits 0 when the app already runs, where a plain second
// start is an error that names the running app.
func TestBackgroundStartLeavesARunningAppBe(t *testing.T) {
	t.Parallel()
	dir := shortTempDir(t)
	p := startApp(t, dir)
	r := run(t, dir, "--background", "--headless", "--addr", "127.0.0.1:0")
	if r.code != 0 || !strings.Contains(r.stderr, "already running") || !strings.Contains(r.stderr, "nothing to do") {
		t.Fatalf("background start: %+v", r)
	}
	if r := run(t, dir, "--headless", "--addr", "127.0.0.1:0"); r.code != ExitError || !strings.Contains(r.stderr, "already running") {
		t.Fatalf("plain second start: %+v", r)
	}
	// The first app still serves.
	if r := run(t, dir, "url"); r.code != 0 || !strings.Contains(r.stdout, "http://127.0.0.1:") {
		t.Fatalf("url after the second starts: %+v", r)
	}
	if code := p.stop(t); code != 0 {
		t.Fatalf("app exit %d", code)
	}
}
