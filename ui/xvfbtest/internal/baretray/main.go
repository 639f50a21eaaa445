// Command baretray is the smallest Fyne tray app, built the same way as asktray, to compare idle costs against.
package main

import (
	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/asktray/asktray/assets"
)

func main() {
	a := fyneapp.NewWithID("app.asktray.baretray")
	if desk, ok := a.(desktop.App); ok {
		desk.SetSystemTrayMenu(fyne.NewMenu("Bare", fyne.NewMenuItem("Hello", nil)))
		desk.SetSystemTrayIcon(assets.TrayIdle)
	}
	a.Run()
}
