#!/usr/bin/env bash
# deps.sh — idempotent installer for everything Asktray needs to build and test
# on Debian bookworm: the cgo/GL/X11 headers for Fyne, the Xvfb/D-Bus/dunst
# tools for UI tests, Chromium for the web page tests, the Go modules listed in
# go.mod, and the npm packages of the real-client tests (mcpbridge/nodeclients,
# npm ci).
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
# Tooling.
tool_pkgs=(ca-certificates git make)

all_pkgs=("${build_pkgs[@]}" "${test_pkgs[@]}" "${tool_pkgs[@]}")
# Any node + npm can install the real-client tests' packages (Node 22 itself
# comes from their lock file) and the real agents (.ci/agents.sh); take
# Debian's only when there is none.
if ! command -v npm >/dev/null 2>&1; then
	all_pkgs+=(nodejs npm)
fi

installed_any=0

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
		apt_update=(apt-get update)
		apt_install=(apt-get install -y --no-install-recommends "${missing[@]}")
		if [[ "$(id -u)" == "0" ]]; then
			export DEBIAN_FRONTEND=noninteractive
			"${apt_update[@]}"
			"${apt_install[@]}"
		elif command -v sudo >/dev/null 2>&1; then
			sudo env DEBIAN_FRONTEND=noninteractive "${apt_update[@]}"
			sudo env DEBIAN_FRONTEND=noninteractive "${apt_install[@]}"
		else
			echo "deps: not root and sudo is not available; run as root:" >&2
			echo "  apt-get update && DEBIAN_FRONTEND=noninteractive ${apt_install[*]}" >&2
			exit 1
		fi
		installed_any=1
	fi
fi

# Go toolchain + module download.
GO="${GO:-go}"
if ! command -v "$GO" >/dev/null 2>&1; then
	if [[ "$GO" == "go" && -x /usr/local/go/bin/go ]]; then
		GO=/usr/local/go/bin/go
	else
		echo "deps: Go not found ('$GO' is not on PATH)." >&2
		echo "deps: install Go 1.26 (go.mod requires go >= 1.26.0), e.g.:" >&2
		echo "  curl -fsSL https://go.dev/dl/go1.26.8.linux-amd64.tar.gz | tar -C /usr/local -xz" >&2
		echo "  export PATH=\$PATH:/usr/local/go/bin" >&2
		exit 1
	fi
fi

# Check the local toolchain version without letting GOTOOLCHAIN=auto try to
# download a newer one (run outside the module, with GOTOOLCHAIN=local).
go_version="$(cd / && GOTOOLCHAIN=local "$GO" env GOVERSION 2>/dev/null)" || true
if [[ "$go_version" =~ ^go1\.([0-9]+) ]] && ((BASH_REMATCH[1] < 26)); then
	echo "deps: $GO is $go_version but go.mod requires Go >= 1.26.0; install Go 1.26:" >&2
	echo "  curl -fsSL https://go.dev/dl/go1.26.8.linux-amd64.tar.gz | tar -C /usr/local -xz" >&2
	exit 1
fi

# Fast (well under a second) and silent when the module cache is complete.
"$GO" mod download

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
	(cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error)
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
