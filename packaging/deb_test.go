//go:build linux

package packaging

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/asktray/asktray/app/autostart"
	"github.com/asktray/asktray/app/datadir"
)

// TestDebPackage builds the .deb the way make deb does (package-deb.sh on a
// stripped binary stamped with FyneApp.toml's version; lintian errors and an
// invalid launcher fail it), installs it with dpkg -i, runs the installed
// asktray version and a headless start that answers MCP initialize, then
// removes it with dpkg -r and checks that only the person's data dir is
// left. It needs root, which CI has; elsewhere it is skipped.
func TestDebPackage(t *testing.T) {
	if os.Geteuid() != 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must run this test as root: it installs the .deb with dpkg -i")
		}
		t.Skip("installing a .deb needs root; CI runs this test")
	}
	// One dpkg run at a time, also against a second go test of this package.
	lock, err := os.OpenFile("/run/asktray-deb-test.lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", "asktray").Output(); strings.Contains(string(out), " installed") {
		t.Fatalf("a package asktray is installed already (%s); remove it with dpkg -r asktray first", out)
	}

	version := strings.TrimSpace(run(t, "", "go", "run", "./appmeta", "-f", "../FyneApp.toml", "version"))
	bin := filepath.Join(t.TempDir(), "asktray")
	run(t, "", "go", "build", "-tags", "migrated_fynedo", "-ldflags",
		"-s -w -X github.com/asktray/asktray/app/cli.Version="+version, "-o", bin, "github.com/asktray/asktray/cmd/asktray")
	hookBuild := exec.Command("go", "build", "-tags", "migrated_fynedo", "-ldflags", "-s -w", "-o", filepath.Join(filepath.Dir(bin), "asktray-hook"), "github.com/asktray/asktray/cmd/asktray-hook")
	hookBuild.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := hookBuild.CombinedOutput(); err != nil {
		t.Fatalf("build asktray-hook: %v\n%s", err, b)
	}
	out := t.TempDir()
	t.Log(run(t, "", "bash", "package-deb.sh", bin, out))
	deb := filepath.Join(out, "asktray_"+version+"_amd64.deb")

	fields := run(t, "", "dpkg-deb", "-f", deb, "Package", "Version", "Depends", "Section", "Maintainer")
	for _, want := range []string{"Package: asktray\n", "Version: " + version + "\n", "libgl1", "libx11-6", "libc6 (>= ", "Section: utils\n", "Maintainer: Asktray maintainers <"} {
		if !strings.Contains(fields, want) {
			t.Errorf("control fields lack %q:\n%s", want, fields)
		}
	}

	t.Cleanup(func() { _ = exec.Command("dpkg", "--purge", "asktray").Run() })
	run(t, "", "dpkg", "-i", deb)
	files := strings.Fields(run(t, "", "dpkg-query", "-L", "asktray"))
	for _, want := range []string{"/usr/bin/asktray", "/usr/bin/asktray-hook", "/usr/share/applications/" + autostart.IconName + ".desktop",
		"/usr/share/icons/hicolor/256x256/apps/" + autostart.IconName + ".png", "/usr/share/doc/asktray/copyright", pamService} {
		if !slices.Contains(files, want) {
			t.Errorf("the package does not install %s; it installs %v", want, files)
		}
	}
	if got, err := os.ReadFile(pamService); err != nil || string(got) != string(mustRead(t, "pam.d/asktray")) {
		t.Errorf("%s is not packaging/pam.d/asktray (%v):\n%s", pamService, err, got)
	}
	if cf := run(t, "", "dpkg-query", "-W", "-f=${Conffiles}", "asktray"); !strings.Contains(cf, pamService) {
		t.Errorf("%s is not a conffile: %q", pamService, cf)
	}
	if v := run(t, "", "/usr/bin/asktray", "version"); v != "asktray "+version+"\n" {
		t.Errorf("asktray version: %q, want %q", v, "asktray "+version)
	}
	dataDir := filepath.Join(t.TempDir(), "data")
	initializeInstalled(t, dataDir)

	run(t, "", "dpkg", "-r", "asktray")
	if st, _ := exec.Command("dpkg-query", "-W", "-f=${Status}", "asktray").Output(); strings.Contains(string(st), "installed") && !strings.Contains(string(st), "not-installed") {
		t.Errorf("after dpkg -r the package's status is %q", st)
	}
	for _, f := range files {
		if fi, err := os.Lstat(f); err == nil && !fi.IsDir() && f != pamService {
			t.Errorf("dpkg -r left %s", f)
		}
	}
	// The PAM service is a conffile: it stays after -r and goes with --purge.
	run(t, "", "dpkg", "--purge", "asktray")
	if _, err := os.Lstat(pamService); err == nil {
		t.Errorf("dpkg --purge left %s", pamService)
	}
	for _, d := range []string{"/usr/share/doc/asktray", "/usr/share/icons/hicolor/256x256/apps/" + autostart.IconName + ".png"} {
		if _, err := os.Lstat(d); err == nil {
			t.Errorf("dpkg -r left %s", d)
		}
	}
	if _, err := os.Stat(filepath.Join(dataDir, datadir.TokenFile)); err != nil {
		t.Errorf("the person's data dir should stay: %v", err)
	}
}

// initializeInstalled starts the installed /usr/bin/asktray headless on a
// free port with dataDir, sends MCP initialize with its token, checks the
// answer names the server, and stops it with SIGTERM.
func initializeInstalled(t *testing.T, dataDir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/usr/bin/asktray", "--headless", "--data-dir", dataDir, "--addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "DISPLAY=", "WAYLAND_DISPLAY=")
	logs := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("asktray after SIGTERM: %v\n%s", err, logs)
		}
	}()
	var in datadir.Instance
	for {
		var err error
		if in, err = datadir.ReadInstance(dataDir); err == nil && in.PID == cmd.Process.Pid {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no instance file after a minute: %v\n%s", err, logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	token, err := os.ReadFile(filepath.Join(dataDir, datadir.TokenFile))
	if err != nil {
		t.Fatal(err)
	}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"deb-test","version":"1"}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, in.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"serverInfo"`) || !strings.Contains(string(b), `"asktray"`) {
		t.Errorf("initialize: %s\n%s", resp.Status, b)
	}
}

// pamService is the PAM service file the package installs.
const pamService = "/etc/pam.d/asktray"

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
