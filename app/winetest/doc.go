// Package winetest runs the real Windows build, bin/windows/asktray.exe,
// under Wine 10 in the Debian 13 chroot that .ci/wine.sh sets up, and
// drives it from the host as a person and an agent would: the command line
// through wine, MCP over loopback TCP, the dialog with xdotool on an Xvfb
// display showing Wine's virtual desktop. Its tests run only when
// .ci/wine.sh runs them (it sets ASKTRAY_WINE_ROOT); elsewhere they skip.
package winetest
