// Package assets embeds Asktray's application and tray icons as Fyne resources.
package assets

//go:generate go run ./internal/gen -out .

import (
	"embed"
	"fmt"

	"fyne.io/fyne/v2"
)

//go:embed *.png
var files embed.FS

var (
	// Icon is the 256×256 application icon (blue speech bubble with a "?").
	Icon = load("icon.png")
	// TrayIdle is the 64×64 tray icon shown when no question is waiting.
	TrayIdle = load("tray-idle.png")
	// TrayPending is the 64×64 amber tray icon shown when questions wait,
	// without a count badge.
	TrayPending = load("tray-pending.png")
	// TrayAway is the 64×64 grey tray icon shown while the user is away.
	TrayAway = load("tray-away.png")

	// trayPendingN[i] is the pending icon with the badge "i+1"; the last
	// entry is the "9+" badge.
	trayPendingN = func() [10]fyne.Resource {
		var r [10]fyne.Resource
		for i := range 9 {
			r[i] = load(fmt.Sprintf("tray-pending-%d.png", i+1))
		}
		r[9] = load("tray-pending-9plus.png")
		return r
	}()
)

// TrayPendingCount returns the tray icon for n waiting questions: TrayIdle
// for n <= 0, the amber icon with a "1".."9" badge for 1..9, and the "9+"
// badge above 9.
func TrayPendingCount(n int) fyne.Resource {
	switch {
	case n <= 0:
		return TrayIdle
	case n > 9:
		return trayPendingN[9]
	default:
		return trayPendingN[n-1]
	}
}

func load(name string) fyne.Resource {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("assets: missing embedded file " + name + ": " + err.Error())
	}
	return fyne.NewStaticResource(name, b)
}
