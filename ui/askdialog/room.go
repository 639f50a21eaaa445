package askdialog

import (
	"os"

	"github.com/asktray/asktray/ui/internal/screen"
)

// screenRoom returns the tallest a dialog window may be on this screen, in
// Fyne units: the work area (or the screen) at the scale Fyne draws at,
// less the window manager's frame; 0 when the screen says nothing. It
// asks the X server anew each time (the screen or its panel may have
// changed), which costs one connection's round trips. Runs on the Fyne
// goroutine.
func screenRoom() float32 {
	in := screen.Read()
	return screen.Room(in, screen.Scale(in, os.Getenv))
}
