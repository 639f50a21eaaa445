package xvfbtest

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestOpenInBrowserKeepsTheKeyOffCommandLines runs the real binary with an
// xdg-open of the test's own on PATH that records its arguments, and clicks
// the tray's Open in browser entry for a pending question over
// com.canonical.dbusmenu, as a panel does: xdg-open is handed the file: URL
// of a 0600 forwarding file in the data dir, never the page's link, whose
// key any process of the person could read in /proc/PID/cmdline; the file
// leads to the page.
func TestOpenInBrowserKeepsTheKeyOffCommandLines(t *testing.T) {
	d := newSession(t)
	bin := t.TempDir()
	argv := filepath.Join(t.TempDir(), "xdg-open.argv")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" >> '" + argv + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	d.env = append(d.env, "PATH="+bin+string(os.PathListSeparator)+envValue(d.env, "PATH"))
	d.start(t, d.bin, "--data-dir", d.dataDir, "--addr", "127.0.0.1:0")
	reg := d.watcher.wait(t, 20*time.Second)
	s := d.client(t, "claude-code")
	if _, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "ask_confirm",
		Arguments: map[string]any{"question": "Delete the build directory?", "wait": false}}); err != nil {
		t.Fatal(err)
	}
	d.waitWindow(t, "claude-code asks", 20*time.Second)

	menu := d.menuOf(t, reg.sender)
	entry := "claude-code: Delete the build directory?"
	var web *menuNode
	menu.until(t, "no Open in browser entry "+strconv.Quote(entry), func(root menuNode) bool {
		_, sub, ok := root.find("Open in browser")
		if ok {
			_, _, ok = sub.find(entry)
			web = sub
		}
		return ok
	})
	menu.click(t, *web, entry)

	var args []string
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(argv); err == nil && strings.HasSuffix(string(b), "\n") {
			args = strings.Fields(string(b))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("xdg-open was not run")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(args) != 1 || !strings.HasPrefix(args[0], "file://"+d.dataDir+"/open-") || !strings.HasSuffix(args[0], ".html") {
		t.Fatalf("xdg-open %q, want one file: URL of a forwarding file in %s", args, d.dataDir)
	}
	if strings.Contains(args[0], "k=") || strings.Contains(args[0], "/q/") || strings.Contains(args[0], "127.0.0.1") {
		t.Fatalf("the page's link is on xdg-open's command line: %q", args)
	}
	path := strings.TrimPrefix(args[0], "file://")
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("forwarding file %s: %v %v, want mode 0600", path, fi, err)
	}
	page, _ := os.ReadFile(path)
	if !strings.Contains(string(page), d.url[:strings.LastIndex(d.url, "/")]+"/q/") || !strings.Contains(string(page), "k=") {
		t.Fatalf("forwarding file does not lead to the question's page:\n%s", page)
	}
}
