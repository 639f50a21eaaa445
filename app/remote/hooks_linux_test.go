package remote

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

// TestInstallHooks: over a real sshd, set-up runs the host's asktray to set
// up the hooks of exactly the agents whose dirs are in the host user's home
// (here Claude Code's ~/.claude and opencode's ~/.config/opencode, not
// Codex's missing ~/.codex), and reports the one whose set-up failed.
func TestInstallHooks(t *testing.T) {
	testkit.NeedSSHD(t)
	u := testkit.NewUser(t, "")
	// A stand-in for the host's asktray, in a dir the host's user reaches:
	// it records its arguments and fails for opencode.
	fake := "#!/bin/sh\necho \"$*\" >> \"$HOME/asktray-calls\"\n[ \"$2\" != opencode ]\n"
	src := filepath.Join(t.TempDir(), "asktray")
	if err := os.WriteFile(src, []byte(fake), 0o755); err != nil { //nolint:gosec // an executable for the host's user
		t.Fatal(err)
	}
	bin := filepath.Dir(testkit.Give(t, src))
	for _, d := range []string{".claude", ".config/opencode"} {
		if err := os.MkdirAll(filepath.Join(u.Home, d), 0o755); err != nil { //nolint:gosec // the user's own dirs
			t.Fatal(err)
		}
	}
	run(t, "chown", "-R", u.Name+":", u.Home)
	sshd := testkit.StartSSHD(t, u, "SetEnv PATH="+bin+":/usr/bin:/bin")
	done, failed, err := InstallHooks(t.Context(), sshd.Command, sshd.Host)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(done, []string{"claude-code"}) || !slices.Equal(failed, []string{"opencode"}) {
		t.Fatalf("set up %v, failed %v; want [claude-code] and [opencode]", done, failed)
	}
	calls, err := os.ReadFile(filepath.Join(u.Home, "asktray-calls"))
	if err != nil {
		t.Fatal(err)
	}
	want := "config claude-code --hooks --write\nconfig opencode --hooks --write\n"
	if got := string(calls); got != want {
		t.Fatalf("the host's asktray ran:\n%s\nwant (no agent without its dir):\n%s", got, want)
	}
}
