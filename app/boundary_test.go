package app

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesPointInward keeps Fyne out of everything but the UI and
// mcp-go out of everything but the MCP bridge.
func TestDependenciesPointInward(t *testing.T) {
	t.Parallel()
	banned := map[string][]string{
		"./policy":      {"fyne.io/", "github.com/mark3labs/", "github.com/gen2brain/", "modernc.org/"},
		"./question":    {"fyne.io/", "github.com/mark3labs/", "github.com/gen2brain/", "modernc.org/"},
		"./history":     {"fyne.io/", "github.com/mark3labs/", "github.com/gen2brain/"},
		"./control":     {"fyne.io/", "github.com/mark3labs/", "github.com/gen2brain/"},
		"./webask":      {"fyne.io/", "github.com/mark3labs/", "github.com/gen2brain/", "modernc.org/", "github.com/chromedp/"},
		"./cli":         {"fyne.io/", "github.com/gen2brain/"},
		"./clientsetup": {"fyne.io/", "github.com/mark3labs/", "github.com/gen2brain/", "modernc.org/"},
		".":             {"fyne.io/", "github.com/gen2brain/"},
	}
	for pkg, bans := range banned {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for dep := range strings.FieldsSeq(string(out)) {
			for _, b := range bans {
				if strings.HasPrefix(dep, b) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}

// TestPolicyImportsOnlyCore keeps app/policy to the standard library and the
// core packages it decides with: app/question, app/atomicfile, app/risk,
// app/shellcmd (and its parser) and app/toolinput.
func TestPolicyImportsOnlyCore(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./policy").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := []string{"app/policy", "app/question", "app/atomicfile", "app/risk", "app/shellcmd", "app/toolinput"}
	for p := range strings.FieldsSeq(string(out)) {
		ok := strings.HasPrefix(p, "mvdan.cc/sh/v3/")
		for _, a := range allowed {
			ok = ok || p == "github.com/asktray/asktray/"+a
		}
		if !ok {
			t.Errorf("app/policy depends on %s; it may import only the standard library, %s and mvdan.cc/sh/v3", p, strings.Join(allowed[1:], ", "))
		}
	}
}

// TestHookImportsOnlyStandardLibrary keeps app/hook, which the short-lived
// `asktray hook` process and setup both use, to the standard library.
func TestHookImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./hook").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for p := range strings.FieldsSeq(string(out)) {
		if p != "github.com/asktray/asktray/app/hook" {
			t.Errorf("app/hook depends on %s; it may import only the standard library", p)
		}
	}
}

// TestClientSetupImportsLittle keeps app/clientsetup, which the CLI and the
// tray's Connect window share, free of the app, Fyne and mcp-go: it may import
// the standard library, app/atomicfile, app/hook and the config-file parsers only.
func TestClientSetupImportsLittle(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./clientsetup").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := []string{"github.com/asktray/asktray/app/clientsetup", "github.com/asktray/asktray/app/atomicfile",
		"github.com/asktray/asktray/app/hook", "github.com/tailscale/hujson", "github.com/pelletier/go-toml/v2"}
	for p := range strings.FieldsSeq(string(out)) {
		ok := false
		for _, a := range allowed {
			ok = ok || p == a || strings.HasPrefix(p, a+"/")
		}
		if !ok {
			t.Errorf("app/clientsetup depends on %s; it may import only the standard library, app/atomicfile, app/hook, hujson and go-toml", p)
		}
	}
}
