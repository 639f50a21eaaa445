package packaging

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/asktray/asktray/app/autostart"
	"github.com/asktray/asktray/ui"

	"github.com/asktray/asktray/internal/testkit"
)

// Names fyne package gives the files: from FyneApp.toml's ID and Name.
const (
	desktopFile = "app.asktray.desktop.desktop"
	iconFile    = "app.asktray.desktop.png"
)

// TestMetadata: FyneApp.toml names the app as the code does.
func TestMetadata(t *testing.T) {
	b, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	field := func(name string) string {
		m := regexp.MustCompile(`(?m)^` + name + ` = "(.*)"$`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("FyneApp.toml has no %s", name)
		}
		return string(m[1])
	}
	if id := field("ID"); id != ui.AppID || ui.AppID != autostart.IconName {
		t.Errorf("ID %q, want ui.AppID %q = autostart.IconName %q", id, ui.AppID, autostart.IconName)
	}
	if name := field("Name"); name != "Asktray" {
		t.Errorf("Name %q", name)
	}
	if v := field("Version"); !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(v) {
		t.Errorf("Version %q is not x.y.z", v)
	}
	icon, err := os.ReadFile(filepath.Join("..", field("Icon")))
	if err != nil || !bytes.HasPrefix(icon, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("Icon is not a PNG: %v", err)
	}
}

// TestLinuxPackage runs the script make package runs on the asktray binary
// make test built, checks the tarball's layout and entry, installs it with
// its own Makefile system-wide into a DESTDIR and for a user into a temp
// HOME, runs the installed binary, and uninstalls it.
func TestLinuxPackage(t *testing.T) {
	for _, tool := range []string{"tar", "xz", "make", "desktop-file-validate"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing; make deps installs it: %v", tool, err)
		}
	}
	bin, hookBin := withHookBinary(t, asktrayBinary(t))
	before, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "package-linux.sh", bin, out)
	cmd.Env = append(os.Environ(), "XZ_OPT=-0") // the fastest xz: this checks layout, not size
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("package-linux.sh: %v\n%s", err, b)
	}
	if after, _ := os.ReadFile("../FyneApp.toml"); !bytes.Equal(before, after) {
		t.Error("packaging changed FyneApp.toml")
	}
	tarball := filepath.Join(out, "Asktray.tar.xz")

	// The layout fyne package makes: usr/local when the building machine
	// has /usr/local (the package's Makefile looks for it the same way).
	prefix := "usr/local/"
	if _, err := os.Stat("/usr/local"); err != nil {
		prefix = "usr/"
	}
	listing := run(t, "", "tar", "-tvJf", tarball)
	var files []string
	for line := range strings.SplitSeq(strings.TrimSpace(listing), "\n") {
		if f := strings.Fields(line); len(f) >= 6 && !strings.HasPrefix(f[0], "d") {
			files = append(files, f[0]+" "+f[len(f)-1])
		}
	}
	sort.Strings(files)
	want := []string{
		"-rw-r--r-- asktray/Makefile",
		"-rw-r--r-- asktray/" + prefix + "share/applications/" + desktopFile,
		"-rw-r--r-- asktray/" + prefix + "share/pixmaps/" + iconFile,
		"-rwxr-xr-x asktray/" + prefix + "bin/asktray",
		"-rwxr-xr-x asktray/" + prefix + "bin/asktray-hook",
	}
	sort.Strings(want)
	if strings.Join(files, "\n") != strings.Join(want, "\n") {
		t.Fatalf("tarball holds\n%s\nwant\n%s", strings.Join(files, "\n"), strings.Join(want, "\n"))
	}

	tree := t.TempDir()
	run(t, "", "tar", "-xJf", tarball, "-C", tree)
	pkg := filepath.Join(tree, "asktray")
	if sum(t, filepath.Join(pkg, prefix, "bin", "asktray")) != sum(t, bin) {
		t.Fatal("the packaged binary is not the one given")
	}
	if sum(t, filepath.Join(pkg, prefix, "bin", "asktray-hook")) != sum(t, hookBin) {
		t.Fatal("the packaged asktray-hook is not the one beside the binary given")
	}
	entry := filepath.Join(pkg, prefix, "share", "applications", desktopFile)
	checkEntry(t, entry, "Exec=asktray")

	// System install into a staging dir, as a distribution package would.
	dest := t.TempDir()
	run(t, pkg, "make", "install", "DESTDIR="+dest, "PREFIX=/usr")
	for path, mode := range map[string]os.FileMode{
		"usr/bin/asktray": 0o755, "usr/bin/asktray-hook": 0o755, "usr/share/applications/" + desktopFile: 0o644, "usr/share/pixmaps/" + iconFile: 0o644,
	} {
		fi, err := os.Stat(filepath.Join(dest, path))
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("installed %s: %v %v, want mode %v", path, err, fi, mode)
		}
	}
	run(t, pkg, "make", "uninstall", "DESTDIR="+dest, "PREFIX=/usr")
	if left := filesUnder(t, dest); len(left) != 0 {
		t.Errorf("make uninstall left %v", left)
	}

	// User install, what make install does: ~/.local, Exec made absolute.
	home := t.TempDir()
	run(t, pkg, "make", "user-install", "HOME="+home)
	installed := filepath.Join(home, ".local", "bin", "asktray")
	checkEntry(t, filepath.Join(home, ".local", "share", "applications", desktopFile), "Exec="+installed)
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "icons", iconFile)); err != nil {
		t.Error(err)
	}
	if v := run(t, "", installed, "version"); !strings.HasPrefix(v, "asktray ") {
		t.Errorf("installed asktray version: %q", v)
	}
	// The hooks it sets up run the small asktray-hook installed beside it.
	hookExe := filepath.Join(home, ".local", "bin", "asktray-hook")
	if fi, err := os.Stat(hookExe); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("user-install: asktray-hook %v %v, want mode 0755", fi, err)
	}
	cfg := exec.Command(installed, "config", "claude-code", "--hooks")
	cfg.Env = append(os.Environ(), "HOME="+home, "CLAUDE_CONFIG_DIR=", "PATH=/usr/bin:/bin")
	printed, err := cfg.CombinedOutput()
	if err != nil || !strings.Contains(string(printed), hookExe+" hook claude-code") || strings.Contains(string(printed), installed+" hook") {
		t.Errorf("the installed asktray's hooks do not run %s: %v\n%s", hookExe, err, printed)
	}
	run(t, pkg, "make", "user-uninstall", "HOME="+home)
	if left := filesUnder(t, home); len(left) != 0 {
		t.Errorf("make user-uninstall left %v", left)
	}
}

// checkEntry validates the launcher entry and checks what it says.
func checkEntry(t *testing.T, path, execLine string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Exec has no flags: the first start comes up in the tray with no
	// window; a start while it runs shows its status window.
	for _, line := range []string{"Type=Application", "Name=Asktray", execLine, "Icon=" + autostart.IconName, "Categories=Utility;"} {
		if !strings.Contains("\n"+string(b), "\n"+line+"\n") {
			t.Errorf("%s lacks %q:\n%s", path, line, b)
		}
	}
	if out, err := exec.Command("desktop-file-validate", path).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("desktop-file-validate: %v\n%s", err, out)
	}
}

// withHookBinary copies bin into a new directory and builds the hook-only
// binary beside it, as make package does; it returns both paths.
func withHookBinary(t *testing.T, bin string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	copied := filepath.Join(dir, "asktray")
	b, err := os.ReadFile(bin)
	if err == nil {
		err = os.WriteFile(copied, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(dir, "asktray-hook")
	build := exec.Command("go", "build", "-tags", "migrated_fynedo", "-ldflags", "-s -w", "-o", hook, "github.com/asktray/asktray/cmd/asktray-hook")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build asktray-hook: %v\n%s", err, b)
	}
	return copied, hook
}

// asktrayBinary returns bin/asktray, which make test builds first, or
// builds one the same way when it is missing.
func asktrayBinary(t *testing.T) string {
	t.Helper()
	bin, err := filepath.Abs("../bin/asktray")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	return testkit.Binary(t)
}

func run(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

func sum(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

func filesUnder(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
