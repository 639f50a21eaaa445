#!/usr/bin/env bash
# package-linux.sh EXECUTABLE OUTDIR — make OUTDIR/Asktray.tar.xz, the Linux
# desktop package, with `fyne package` from an asktray binary built already.
#
# The tarball (made by fyne package -os linux) holds asktray/Makefile (install,
# uninstall, user-install, user-uninstall; PREFIX and DESTDIR),
# asktray/usr/local/bin/asktray, the .desktop entry and the icon. This script
# then adds asktray/usr/local/bin/asktray-hook, the hook-only binary
# (cmd/asktray-hook, static, Go without cgo), found beside EXECUTABLE, and the
# Makefile lines that install and remove it beside asktray: agents run a hook
# on every tool call, and 'asktray config AGENT --hooks' writes asktray-hook
# into their settings when it sits beside asktray (docs/hooks.md).
#
# fyne package is given the binary (--executable) instead of building one:
# its own build uses -trimpath and other tags, which would recompile all of
# Fyne and go-gl (minutes) and fill the build cache twice. It reads the
# metadata from a copy of FyneApp.toml, since it bumps the Build number in
# the file it reads.
#
# Environment:
#   TOOLS_DIR   where the pinned fyne CLI is (installed there when missing);
#               default bin/tools in the repo.
#   XZ_OPT      passed to xz by tar (tests use -0 for speed).
set -euo pipefail

FYNE_TOOLS_VERSION=v1.7.4

if (($# != 2)); then
	echo "usage: $0 EXECUTABLE OUTDIR" >&2
	exit 2
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exe="$(realpath "$1")"
hookexe="$(dirname "$exe")/asktray-hook"
[[ -x "$hookexe" ]] || { echo "package-linux: $hookexe is missing: build cmd/asktray-hook beside $exe (make package does)" >&2; exit 1; }
mkdir -p "$2"
out="$(cd "$2" && pwd)"
tools="${TOOLS_DIR:-$repo/bin/tools}"
fyne="$tools/fyne"
GO="${GO:-go}"
command -v "$GO" >/dev/null 2>&1 || GO=/usr/local/go/bin/go

have="$("$fyne" version 2>/dev/null || true)"
if [[ "$have" != *"fyne cli version: $FYNE_TOOLS_VERSION"* ]]; then
	echo "==> [package] installing the fyne CLI $FYNE_TOOLS_VERSION into $tools"
	GOBIN="$tools" "$GO" install "fyne.io/tools/cmd/fyne@$FYNE_TOOLS_VERSION"
fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
icon="$(sed -n 's/^Icon = "\(.*\)"$/\1/p' "$repo/FyneApp.toml")"
install -Dm0644 "$repo/FyneApp.toml" "$stage/src/FyneApp.toml"
install -Dm0644 "$repo/$icon" "$stage/src/$icon"
# fyne package insists on Go code in --src; nothing is built from it.
echo "package main" >"$stage/src/main.go"
# The name inside the package is the file's name, whatever it was built as.
install -Dm0755 "$exe" "$stage/bin/asktray"

rm -f "$out/Asktray.tar.xz"
(cd "$out" && "$fyne" package -os linux --executable "$stage/bin/asktray" --src "$stage/src")

# Add asktray-hook beside asktray, in the tree and in each Makefile target
# that installs or removes asktray (the lines naming bin/$(Exec)).
tree="$stage/tree"
mkdir -p "$tree"
tar -xJf "$out/Asktray.tar.xz" -C "$tree"
bindir="$(cd "$tree/asktray" && dirname "$(find usr -path '*/bin/asktray' -type f)")"
install -m0755 "$hookexe" "$tree/asktray/$bindir/asktray-hook"
mk="$tree/asktray/Makefile"
sed -i -E \
	-e 's#^(\tinstall -Dm00755 [^ ]*/bin/)\$\(Exec\) (.*/bin/)\$\(Exec\)$#&\n\1asktray-hook \2asktray-hook#' \
	-e 's#^(\t-rm .*/bin/)\$\(Exec\)$#&\n\1asktray-hook#' "$mk"
for want in 'install -Dm00755 .*/asktray-hook \$\(DESTDIR\)\$\(PREFIX\)/bin/asktray-hook' \
	'install -Dm00755 .*/asktray-hook \$\(DESTDIR\)\$\(HOME\)/\.local/bin/asktray-hook' \
	'-rm \$\(DESTDIR\)\$\(PREFIX\)/bin/asktray-hook' '-rm \$\(DESTDIR\)\$\(HOME\)/\.local/bin/asktray-hook'; do
	grep -Eq -- "$want" "$mk" || { echo "package-linux: fyne's Makefile changed; no line matches $want" >&2; exit 1; }
done
rm -f "$out/Asktray.tar.xz"
tar --owner=0 --group=0 --sort=name -cJf "$out/Asktray.tar.xz" -C "$tree" asktray
echo "==> [package] $out/Asktray.tar.xz ($(du -h "$out/Asktray.tar.xz" | cut -f1))"
