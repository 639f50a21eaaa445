package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// AutostartFile is the name of the start-at-login entry in the XDG
// autostart dir ($XDG_CONFIG_HOME/autostart, default ~/.config/autostart).
const AutostartFile = "asktray.desktop"

// BackgroundFlag is the flag the start-at-login entry passes: start in the
// tray with no window, and exit quietly when asktray already runs.
const BackgroundFlag = "--background"

// IconName is the icon name the Linux package installs (FyneApp.toml's ID).
const IconName = "app.asktray.desktop"

// AutostartPath returns where the start-at-login entry lives on Linux and
// the BSDs: $XDG_CONFIG_HOME/autostart/asktray.desktop when XDG_CONFIG_HOME
// is an absolute path, else ~/.config/autostart/asktray.desktop.
func AutostartPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "autostart", AutostartFile), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the autostart dir: %w", err)
	}
	return filepath.Join(home, ".config", "autostart", AutostartFile), nil
}

// AutostartEntry returns the XDG desktop entry that starts exe (an
// absolute path) with args at login.
func AutostartEntry(exe string, args []string) (string, error) {
	if !filepath.IsAbs(exe) {
		return "", fmt.Errorf("autostart: executable %q is not an absolute path", exe)
	}
	words := []string{exe}
	words = append(words, args...)
	execLine := make([]string, 0, len(words))
	for _, w := range words {
		q, err := quoteExecArg(w)
		if err != nil {
			return "", err
		}
		execLine = append(execLine, q)
	}
	tryExec, err := escapeString(exe)
	if err != nil {
		return "", err
	}
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=Asktray\n" +
		"GenericName=Agent question tray\n" +
		"Comment=Lets AI agents ask you questions from a tray icon\n" +
		"Exec=" + strings.Join(execLine, " ") + "\n" +
		"TryExec=" + tryExec + "\n" +
		"Icon=" + IconName + "\n" +
		"Terminal=false\n" +
		"Categories=Utility;\n" +
		"X-GNOME-Autostart-enabled=true\n", nil
}

// execReserved are the characters that make an Exec argument need quotes
// (Desktop Entry Specification, "The Exec key").
const execReserved = " \t\n\"'\\><~|&;$*?#()`"

// quoteExecArg quotes one Exec argument as the spec asks, then escapes it
// as a string value. Control characters are refused: no launcher handles
// them the same way.
func quoteExecArg(s string) (string, error) {
	if s == "" {
		return `""`, nil
	}
	if strings.ContainsFunc(s, isControl) {
		return "", fmt.Errorf("autostart: argument %q holds a control character", s)
	}
	s = strings.ReplaceAll(s, "%", "%%")
	if strings.ContainsAny(s, execReserved) {
		var b strings.Builder
		b.WriteByte('"')
		for _, r := range s {
			if strings.ContainsRune("\"`$\\", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
		s = b.String()
	}
	return escapeString(s)
}

// escapeString escapes s as a desktop entry string value.
func escapeString(s string) (string, error) {
	if strings.ContainsFunc(s, isControl) {
		return "", fmt.Errorf("autostart: %q holds a control character", s)
	}
	return strings.ReplaceAll(s, `\`, `\\`), nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// LoginExecutable returns the absolute path a start at login should run:
// this executable with symlinks resolved, or the asktray found on PATH when
// that is the same file (a link such as ~/.local/bin/asktray then keeps
// working after an upgrade replaces what it points to). A binary that
// `go run` or `go test` built in a temporary dir is refused: it is gone
// after the run.
func LoginExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	return loginExecutable(exe, "asktray")
}

func loginExecutable(exe, name string) (string, error) {
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", fmt.Errorf("find own executable: %w", err)
	}
	if strings.Contains(real, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("this asktray (%s) is a temporary build of go run; install asktray (make install) and start that one", real)
	}
	if onPath, err := exec.LookPath(name); err == nil {
		if abs, err := filepath.Abs(onPath); err == nil && sameFile(abs, real) {
			return abs, nil
		}
	}
	return real, nil
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// loginArgs returns the arguments a start at login passes: the background
// flag, the data dir of o, and its address when it is not the default, so
// that the app started at login is the one whose settings asked for it. The
// data dir is always named: $ASKTRAY_DATA_DIR set in a shell is not set in
// the login session.
func loginArgs(o Options) []string {
	args := []string{BackgroundFlag, "--data-dir", o.DataDir}
	if o.Addr != "" && o.Addr != DefaultAddr {
		args = append(args, "--addr", o.Addr)
	}
	return args
}

// loginStarter returns what applying start_at_login does for the app run
// with o: write the entry for this executable, or remove it.
func loginStarter(o Options) func(on bool) error {
	return func(on bool) error {
		if !on {
			return SetStartAtLogin(false, "", nil)
		}
		exe, err := LoginExecutable()
		if err != nil {
			return err
		}
		return SetStartAtLogin(true, exe, loginArgs(o))
	}
}

// applyLogin writes or removes the start-at-login entry for on, when that
// changes anything: turning it off when it was off leaves alone an entry
// someone made by hand. Turning it on rewrites the entry, so that it runs
// the binary in use now. Safe for concurrent use.
func (k *settingsKeeper) applyLogin(on bool) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if (!on && !k.loginOn) || k.login == nil {
		k.loginOn = on
		return nil
	}
	if err := k.login(on); err != nil {
		return fmt.Errorf("start_at_login: %w", err)
	}
	k.loginOn = on
	return nil
}
