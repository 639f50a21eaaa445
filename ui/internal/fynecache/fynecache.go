// Package fynecache shortens how long Fyne keeps the renderers, canvases
// and textures of widgets that are no longer drawn, before Fyne reads the
// setting. It must import nothing but the standard library's os, so that
// Go initializes it before fyne.io/fyne/v2/internal/cache (see
// TestFyneReadsTheShorterCache).
package fynecache

import "os"

// Expiry is the FYNE_CACHE value set when the environment has none. Fyne's
// default keeps every widget it drew for a minute after it was last drawn,
// and drops expired ones only while some window repaints: each closed
// dialog's widget tree stays for that long, about 60 KB a dialog. A few
// seconds are enough for anything on screen, which Fyne keeps alive anyway.
const Expiry = "10s"

func init() {
	if _, set := os.LookupEnv("FYNE_CACHE"); !set {
		_ = os.Setenv("FYNE_CACHE", Expiry)
	}
}
