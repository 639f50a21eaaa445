#!/usr/bin/env bash
# deps.sh — idempotent installer for what Asktray needs on Debian bookworm.
#
#   deps.sh run   what building and running need (`make run`): the cgo/GL/X11
#                 and PAM headers for Fyne and the password check, Go itself
#                 (installed when missing, see install_go) and the Go modules.
#   deps.sh       (or `deps.sh all`) that and what the tests need (`make
#                 test`): the Xvfb/D-Bus/dunst tools for UI tests, Chromium for
#                 the web page tests, mingw-w64 and the packaging tools, and the
#                 npm packages of the real-client tests (mcpbridge/nodeclients).
#
# Run it as root on a fresh machine (CI does, via `make test`). It checks each
# Debian package with dpkg-query and installs only the missing ones, in one
# apt-get call; when everything is already present it prints a single line:
#   deps: all present
#
# Environment:
#   DEPS_SKIP_APT=1   skip the Debian package check/install entirely (for
#                     non-Debian machines or when the packages are managed
#                     elsewhere); `go mod download` still runs.
#   GO=/path/to/go    Go command to use (default: `go` on PATH, falling back to
#                     /usr/local/go/bin/go).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/retry.sh

mode="${1:-all}"
case "$mode" in
run | all) ;;
*)
	echo "deps: unknown mode '$mode' (want run or all)" >&2
	exit 2
	;;
esac

# Build: cgo + go-gl/gl + go-gl/glfw (X11). Each package is needed: without gcc
# cgo is off and go-gl/gl has no Go files for the build; without libx11-dev,
# libxcursor-dev, ... glfw's C sources miss X11/Xlib.h, X11/Xcursor/Xcursor.h
# and the like; without libgl-dev GL/glx.h; without pkg-config go-gl/gl cannot
# find GL.
build_pkgs=(gcc libc6-dev pkg-config libgl-dev libx11-dev libxcursor-dev
	libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev)
# app/personcheck checks the login password through PAM (msteinert/pam, cgo):
# security/pam_appl.h and libpam.so.
build_pkgs+=(libpam0g-dev)
# Running the app: the notification daemon's client and a tray need nothing
# more; git and make are how a person got here.
run_pkgs=("${build_pkgs[@]}" ca-certificates git make)
# make windows: the mingw-w64 C cross-compiler for cgo (Fyne's go-gl/glfw).
build_pkgs+=(gcc-mingw-w64-x86-64)
# make deb: dpkg-shlibdeps (dpkg-dev) computes Depends; lintian checks it.
build_pkgs+=(dpkg-dev lintian file)
# UI / end-to-end tests under Xvfb with a session bus and a notification daemon.
# provides dbus-launch (checked present in bookworm with apt-cache policy).
test_pkgs=(xvfb xauth dbus dunst libglib2.0-bin libnotify-bin xdotool
	x11-utils imagemagick desktop-file-utils)
# A window manager for the dialog tests that need one (ui/xvfbtest: a new
# question must not take focus from an open dialog, as openbox would give it).
test_pkgs+=(openbox)
# A tiling window manager (ui/xvfbtest: a dialog floats, as under sway, instead of
# taking half the screen).
test_pkgs+=(i3-wm)
# A real Wayland compositor (ui/xvfbtest's sway tests): sway 1.7 headless with
# XWayland, the app's X11 build under it; grim takes its screenshots, xhost
# lets root's clients into the XWayland of a sway run as nobody (sway refuses
# root), xkbcomp reads the keymap the tests' virtual keyboard uses.
test_pkgs+=(sway xwayland grim x11-xserver-utils x11-xkb-utils)
# GNOME's compositor (ui/xvfbtest's mutter tests): mutter 43 headless with
# XWayland, keys through its remote desktop D-Bus interface.
test_pkgs+=(mutter)
# Headless Chromium for the question pages' real-browser tests (app/webask).
test_pkgs+=(chromium)
# The page tests of another local user and of an agent with a shell: curl.
test_pkgs+=(curl)
# The comparison in make bench: zenity-based MCP servers spawn it per question.
test_pkgs+=(zenity)
# .ci/wine.sh: bootstraps the Debian 13 chroot whose Wine 10 runs the
# Windows build (Debian 12's Wine 8 cannot start Go 1.26 binaries).
test_pkgs+=(debootstrap)
# .ci/realagents.sh: the real coding agents run interactively in tmux.
test_pkgs+=(tmux)
# app/remote's tests: a real OpenSSH server on loopback, with a scratch user
# as the remote host (agents over SSH and as another user, docs/remote.md).
test_pkgs+=(openssh-server)
# Tooling.
tool_pkgs=(ca-certificates git make)

all_pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}" "${tool_pkgs[@]}")
if [[ "$mode" == run ]]; then
	all_pkgs=("${run_pkgs[@]}")
fi
# Any node + npm can install the real-client tests' packages (Node 22 itself
# comes from their lock file) and the real agents (.ci/agents.sh); take
# Debian's only when there is none.
if [[ "$mode" == all ]] && ! command -v npm >/dev/null 2>&1; then
	all_pkgs+=(nodejs npm)
fi

installed_any=0

# as_root runs a command as root: directly, through sudo, or not at all
# (saying what to run).
as_root() {
	if [[ "$(id -u)" == "0" ]]; then
		env DEBIAN_FRONTEND=noninteractive "$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo env DEBIAN_FRONTEND=noninteractive "$@"
	else
		echo "deps: not root and sudo is not available; run as root:" >&2
		echo "  DEBIAN_FRONTEND=noninteractive $*" >&2
		exit 1
	fi
}

if [[ "${DEPS_SKIP_APT:-0}" != "1" ]]; then
	if ! command -v dpkg-query >/dev/null 2>&1; then
		echo "deps: dpkg-query not found: this script expects Debian bookworm." >&2
		echo "deps: install the equivalents of: ${all_pkgs[*]}" >&2
		echo "deps: then re-run with DEPS_SKIP_APT=1" >&2
		exit 1
	fi

	# One dpkg-query call for all packages (much faster than one per package on
	# a loaded machine); unknown packages print nothing and count as missing.
	declare -A ok=()
	while read -r name status; do
		if [[ "$status" == "install ok installed" ]]; then
			ok["${name%%:*}"]=1
		fi
	done < <(dpkg-query -W -f='${Package} ${Status}\n' "${all_pkgs[@]}" 2>/dev/null || true)

	missing=()
	for pkg in "${all_pkgs[@]}"; do
		[[ -n "${ok[$pkg]:-}" ]] || missing+=("$pkg")
	done

	if ((${#missing[@]} > 0)); then
		echo "deps: missing Debian packages: ${missing[*]}"
		as_root apt-get -o Acquire::Retries=3 update
		as_root apt-get -o Acquire::Retries=3 install -y --no-install-recommends "${missing[@]}"
		installed_any=1
	fi
fi

# Go toolchain + module download. go.mod's toolchain line names the Go this
# project is built with; any Go >= 1.21 fetches it from the Go module proxy
# into the module cache and runs it (GOTOOLCHAIN=auto, the default). With no
# Go at all, install_go installs Debian's newest (bookworm-backports: 1.23;
# bookworm's own 1.19 predates toolchain switching) and has it fetch go.mod's
# toolchain once.
want_go="$(sed -n 's/^toolchain //p' go.mod)"
install_go() {
	local suite=bookworm-backports list=/etc/apt/sources.list.d/asktray-backports.list
	if [[ ! -f "$list" ]] && ! grep -rqs "$suite" /etc/apt/sources.list /etc/apt/sources.list.d/; then
		echo "deps: adding Debian's $suite suite (for Go >= 1.21) in $list"
		echo "deb http://deb.debian.org/debian $suite main" | as_root tee "$list" >/dev/null
	fi
	as_root apt-get -o Acquire::Retries=3 update
	as_root apt-get -o Acquire::Retries=3 install -y --no-install-recommends -t "$suite" golang-go
	GO=/usr/bin/go
	echo "deps: $(cd / && GOTOOLCHAIN=local "$GO" version) fetches $want_go from the Go module proxy"
	if [[ "$("$GO" env GOVERSION)" != "$want_go" ]]; then
		echo "deps: $GO could not fetch $want_go" >&2
		exit 1
	fi
	installed_any=1
}

GO="${GO:-go}"
if ! command -v "$GO" >/dev/null 2>&1; then
	if [[ "$GO" == "go" && -x /usr/local/go/bin/go ]]; then
		GO=/usr/local/go/bin/go
	elif [[ "$GO" == "go" && "${DEPS_SKIP_APT:-0}" != "1" ]]; then
		install_go
	else
		echo "deps: Go not found ('$GO' is not on PATH); install Go >= 1.21 and the" >&2
		echo "deps: toolchain line of go.mod ($want_go) comes from the Go module proxy." >&2
		exit 1
	fi
fi

# A Go older than 1.21 (bookworm's own golang-go) cannot switch toolchains:
# replace Debian's with the backport, or say so rather than fail in the build.
go_version="$(cd / && GOTOOLCHAIN=local "$GO" env GOVERSION 2>/dev/null)" || true
if [[ "$go_version" =~ ^go1\.([0-9]+) ]] && ((BASH_REMATCH[1] < 21)) &&
	[[ "$(command -v "$GO")" == /usr/bin/go && "${DEPS_SKIP_APT:-0}" != "1" ]]; then
	install_go
	go_version="$(cd / && GOTOOLCHAIN=local "$GO" env GOVERSION 2>/dev/null)" || true
fi
if [[ "$go_version" =~ ^go1\.([0-9]+) ]] && ((BASH_REMATCH[1] < 21)); then
	echo "deps: $GO is $go_version, too old to fetch $want_go (Go >= 1.21 does);" >&2
	echo "deps: remove it or set GO=/path/to/a/newer/go" >&2
	exit 1
fi

# Fast (well under a second) and silent when the module cache is complete;
# tried three times, as a proxy's connection reset must not fail a set-up.
retry "$GO" mod download

if [[ "$mode" == run ]]; then
	((installed_any)) && echo "deps: installed what running needs; all present now" || echo "deps: all present for make run"
	exit 0
fi

# The real MCP clients run by mcpbridge/nodeclients' tests, pinned in its
# package-lock.json (with Node 22 as the npm package node). npm ci runs only
# when node_modules was installed from another lock file or not at all.
node_dir=mcpbridge/nodeclients
node_stamp="$node_dir/node_modules/.asktray-lock-sha256"
node_want="$(sha256sum "$node_dir/package-lock.json" | cut -d' ' -f1)"
if [[ "$(cat "$node_stamp" 2>/dev/null)" != "$node_want" ]]; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "deps: npm not found; install Node.js and npm (Debian: apt-get install nodejs npm)" >&2
		exit 1
	fi
	echo "deps: npm ci in $node_dir (conformance suite, MCP Inspector, TypeScript SDK, Node 22)"
	install_nodeclients() { (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error); }
	retry install_nodeclients
	node_version="$("$node_dir/node_modules/.bin/node" --version)"
	if [[ "$node_version" != v22.* ]]; then
		echo "deps: $node_dir/node_modules/.bin/node is $node_version, want v22" >&2
		exit 1
	fi
	echo "$node_want" >"$node_stamp"
	installed_any=1
fi

if ((installed_any)); then
	echo "deps: installed missing packages; all present now"
else
	echo "deps: all present"
fi
