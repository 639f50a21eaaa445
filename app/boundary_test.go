package app

import (
	"testing"

	"github.com/asktray/asktray/internal/testkit"
)

const mod = "github.com/asktray/asktray/"

// TestDependenciesPointInward keeps Fyne out of everything but the UI and
// mcp-go out of everything but the MCP bridge and the layers above it.
func TestDependenciesPointInward(t *testing.T) {
	t.Parallel()
	ui := []string{"fyne.io/", "github.com/gen2brain/"}
	noMCP := append([]string{"github.com/mark3labs/"}, ui...)
	banned := map[string][]string{
		"./policy":      append([]string{"modernc.org/"}, noMCP...),
		"./question":    append([]string{"modernc.org/"}, noMCP...),
		"./history":     noMCP,
		"./control":     noMCP,
		"./hookservice": append([]string{"modernc.org/"}, noMCP...),
		"./datadir":     append([]string{"modernc.org/"}, noMCP...),
		"./webask":      append([]string{"modernc.org/", "github.com/chromedp/"}, noMCP...),
		"./cli":         ui,
		"./clientsetup": append([]string{"modernc.org/"}, noMCP...),
		".":             ui,
	}
	for pkg, bans := range banned {
		testkit.ImportsNone(t, pkg, bans...)
	}
}

// TestPolicyImportsOnlyCore keeps app/policy to the standard library and the
// core packages it decides with.
func TestPolicyImportsOnlyCore(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, "./policy", mod+"app/question", mod+"app/atomicfile", mod+"app/risk", mod+"app/shellcmd",
		mod+"app/toolinput", mod+"app/ellipsis", "mvdan.cc/sh/v3")
}

// TestHookImportsOnlyStandardLibrary keeps app/hook, which the short-lived
// `asktray hook` process and setup both use, to the standard library and
// app/procfs (Codex's binding reads processes).
func TestHookImportsOnlyStandardLibrary(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, "./hook", "github.com/asktray/asktray/app/procfs", mod+"app/ellipsis")
}

// TestClientSetupImportsLittle keeps app/clientsetup, which the CLI and the
// tray's Connect window share, free of the app, Fyne and mcp-go.
func TestClientSetupImportsLittle(t *testing.T) {
	t.Parallel()
	testkit.ImportsOnly(t, "./clientsetup", mod+"app/atomicfile", mod+"app/hook", mod+"app/procfs", mod+"app/ellipsis", "github.com/tailscale/hujson", "github.com/pelletier/go-toml/v2")
}
