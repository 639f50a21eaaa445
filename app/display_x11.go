//go:build !wayland

package app

// nativeWayland is whether the desktop UI is built for Wayland itself (the
// wayland build tag) rather than for X11, which a Wayland session serves
// through XWayland.
const nativeWayland = false
