package remote

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	"github.com/asktray/asktray/app/hook"
)

// setupScript makes the host's channel dir (0700) in its asktray data dir
// (found as app/datadir finds it: $ASKTRAY_DATA_DIR, $XDG_DATA_HOME/asktray,
// ~/.local/share/asktray), writes the key read from stdin to its key file
// (0600) and says where the dir is and which asktray binaries are on PATH.
const setupScript = `set -e; umask 077
d=${ASKTRAY_DATA_DIR:-}
if [ -z "$d" ]; then case "${XDG_DATA_HOME:-}" in /*) d=$XDG_DATA_HOME/asktray;; *) d=$HOME/.local/share/asktray;; esac; fi
mkdir -p "$d/remote"; chmod 700 "$d" "$d/remote"
IFS= read -r k; printf '%s\n' "$k" > "$d/remote/key.new"; mv -f "$d/remote/key.new" "$d/remote/key"
echo "asktray-dir=$d/remote"
for b in asktray asktray-hook; do p=$(command -v "$b" 2>/dev/null) && echo "asktray-bin=$p"; done; true`

// Setup prepares the host named name for its key: its channel dir and key
// file (the key crosses on ssh's stdin, never on a command line). It
// returns the channel dir and the asktray binaries found on the host's
// PATH. It blocks on ssh, at most until ctx ends.
func Setup(ctx context.Context, sshCmd, name, key string) (dir string, bins []string, err error) {
	t, err := ParseName(name)
	if err != nil {
		return "", nil, err
	}
	cmd := sshCommand(ctx, sshCmd, t, nil, setupScript)
	out, err := runSSH(cmd, key+"\n")
	if err != nil {
		return "", nil, fmt.Errorf("set up %s: %w", name, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "asktray-dir="); ok {
			dir = v
		} else if v, ok := strings.CutPrefix(sc.Text(), "asktray-bin="); ok {
			bins = append(bins, v)
		}
	}
	if !strings.HasPrefix(dir, "/") || strings.ContainsAny(dir, ":\n") {
		return "", nil, fmt.Errorf("set up %s: the host named no usable channel dir (got %q)", name, dir)
	}
	return dir, bins, nil
}

// Teardown removes host h's key file and sockets from the host. The key is
// revoked on this side whatever happens there; this only tidies up. It
// blocks on ssh, at most until ctx ends.
func Teardown(ctx context.Context, sshCmd string, h Host) error {
	t, err := ParseName(h.Name)
	if err != nil {
		return err
	}
	d := shellQuote(h.Dir)
	cmd := sshCommand(ctx, sshCmd, t, nil, "rm -f "+d+"/key "+d+"/desktop.sock "+d+"/desktop-*.sock")
	if _, err := runSSH(cmd, ""); err != nil {
		return fmt.Errorf("tidy up %s: %w", h.Name, err)
	}
	return nil
}

// runSSH runs cmd with stdin and returns its output; an error carries
// ssh's last complaint.
func runSSH(cmd *exec.Cmd, stdin string) ([]byte, error) {
	var stderr tailBuffer
	cmd.Stdin, cmd.Stderr = strings.NewReader(stdin), &stderr
	out, err := cmd.Output()
	if err != nil {
		if last := stderr.last(); last != "" {
			return out, fmt.Errorf("%w: %s", err, last)
		}
		return out, err
	}
	return out, nil
}

// hooksScript is the shell script that sets up, on a host, the hooks of
// every agent whose own dir is in the host user's home (~/.claude,
// ~/.codex, ~/.config/opencode, …, from the agent table), with the host's
// asktray ('asktray config AGENT --hooks --write'), and says for each
// whether it worked. An agent whose settings live where its environment
// says (CODEX_HOME, XDG_CONFIG_HOME) is looked for at the default place.
func hooksScript() string {
	const marker = "/__ASKTRAY_HOME__"
	safe := regexp.MustCompile(`^[A-Za-z0-9._/-]+$`)
	var b strings.Builder
	for _, a := range hook.Agents() {
		sp, ok := hook.Lookup(a)
		if !ok || sp.Settings.File == nil {
			continue
		}
		rel, ok := strings.CutPrefix(sp.Settings.File(marker, func(string) string { return "" }), marker+"/")
		parts := strings.Split(rel, "/")
		if !ok || len(parts) < 2 || !safe.MatchString(rel) || !safe.MatchString(string(a)) {
			continue
		}
		dir := parts[0]
		if dir == ".config" {
			dir += "/" + parts[1]
		}
		fmt.Fprintf(&b, "if [ -d \"$HOME/%s\" ]; then if asktray config %s --hooks --write >/dev/null 2>&1; then echo asktray-hooked=%s; else echo asktray-hookfail=%s; fi; fi\n",
			dir, a, a, a)
	}
	return b.String() + "true\n"
}

// InstallHooks sets up the hooks of the agents found on the host named
// name with the host's asktray (see hooksScript) and returns the agents
// set up and those whose set-up failed. It blocks on ssh, at most until
// ctx ends.
func InstallHooks(ctx context.Context, sshCmd, name string) (done, failed []string, err error) {
	t, err := ParseName(name)
	if err != nil {
		return nil, nil, err
	}
	out, err := runSSH(sshCommand(ctx, sshCmd, t, nil, hooksScript()), "")
	if err != nil {
		return nil, nil, fmt.Errorf("set up the hooks on %s: %w", name, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "asktray-hooked="); ok {
			done = append(done, v)
		} else if v, ok := strings.CutPrefix(sc.Text(), "asktray-hookfail="); ok {
			failed = append(failed, v)
		}
	}
	return done, failed, nil
}
