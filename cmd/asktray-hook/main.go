//go:build !windows

// Command asktray-hook is the hook-only binary: `asktray-hook hook AGENT
// [flags]` does what `asktray hook AGENT` does (app/hookrun), for an app
// that runs the asktray beside it. An agent starts a hook for every tool
// call (Claude Code's PreToolUse), and this binary links no UI toolkit,
// no MCP and no store: it is static (CGO_ENABLED=0) and starts in a
// fraction of the desktop binary's time (docs/hooks.md, make bench).
// 'asktray config AGENT --hooks' installs it when it is beside asktray.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/asktray/asktray/app/hookclient"
	"github.com/asktray/asktray/app/hookrun"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	args := os.Args[1:]
	if len(args) == 0 || args[0] != "hook" {
		fmt.Fprintln(os.Stderr, "usage: asktray-hook hook AGENT [--timeout S] [--event E] [--data-dir DIR]")
		return // exit 0 with nothing printed: the agent decides as if no hook ran
	}
	app, err := hookrun.AppBeside()
	if err != nil {
		fmt.Fprintf(os.Stderr, "asktray hook: %v; the agent asks in its own prompt\n", err)
		return
	}
	hookrun.Main(ctx, args[1:], hookrun.IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr},
		hookrun.Options{Dial: hookclient.Dial, AppExe: app})
}
