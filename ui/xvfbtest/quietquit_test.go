package xvfbtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAnotherQuitPrintsNothing runs two Asktrays (two data dirs) on one
// display with one config dir, as a person with a second instance has, and
// quits the second one six times: each quit rewrites Fyne's shared
// preferences file, truncating it first, and the first app, which watches
// it, printed "Fyne error: Preferences load error: EOF" when it read the
// file in between (3 of the 6 quits in a run without the filter, issue 38
// item 11). The first app's terminal must show no Fyne error.
func TestAnotherQuitPrintsNothing(t *testing.T) {
	d := newSession(t)
	d.env = append(d.env, "XDG_CONFIG_HOME="+filepath.Join(t.TempDir(), "config"))
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	first := d.stderr
	other := &desktop{bin: d.bin, dataDir: filepath.Join(t.TempDir(), "other"), env: d.env}
	for i := range 6 {
		other.start(t, other.bin, "--data-dir", other.dataDir, "--addr", "127.0.0.1:0")
		_ = other.app.Process.Signal(os.Interrupt)
		if err := other.app.Wait(); err != nil {
			t.Fatalf("quit %d: %v", i, err)
		}
		prefs := filepath.Join(envValue(d.env, "XDG_CONFIG_HOME"), "fyne", "app.asktray.desktop", "preferences.json")
		deadline := time.Now().Add(5 * time.Second)
		for {
			if fi, err := os.Stat(prefs); err == nil && fi.Size() > 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("quit %d wrote no preferences file %s: the test no longer shows the race", i, prefs)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// The first app still serves, so whatever its watcher read is logged.
	if out, err := d.cli("url"); err != nil {
		t.Fatalf("the first app: %v %s", err, out)
	}
	b, _ := os.ReadFile(first)
	if strings.Contains(string(b), "Fyne error") {
		t.Fatalf("the first app printed a Fyne error as another quit:\n%s", b)
	}
}
