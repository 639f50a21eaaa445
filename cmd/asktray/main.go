// Command asktray runs the Asktray app and the commands that talk to it.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	fyneapp "fyne.io/fyne/v2/app"

	"github.com/asktray/asktray/app"
	"github.com/asktray/asktray/app/cli"
	_ "github.com/asktray/asktray/cmd/asktray/internal/locale" // before Fyne's init: see its doc
	"github.com/asktray/asktray/ui"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	gui := func(ctx context.Context, env app.Env) error {
		return ui.Run(ctx, fyneapp.NewWithID(ui.AppID), env)
	}
	code := cli.Main(ctx, os.Args[1:], cli.IO{Out: os.Stdout, Err: os.Stderr, Exit: exit}, gui)
	stop()
	exit(code)
}
