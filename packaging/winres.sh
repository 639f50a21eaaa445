#!/usr/bin/env bash
# winres.sh PKGDIR — write PKGDIR/rsrc_windows_amd64.syso, the Windows
# resources of asktray.exe: the icon (from FyneApp.toml's Icon), the version
# resource (product and file version from its Version, name and description)
# and a GUI manifest (per-monitor DPI awareness, common controls 6), what
# `fyne package -os windows` embeds. go build links every .syso of the main
# package, for its GOOS/GOARCH only, so Linux builds are unaffected.
#
# The .syso is made at build time and not committed: it follows the icon and
# the version, and go-winres makes it the same way each time. It is ignored
# by git.
#
# Environment:
#   TOOLS_DIR   where the pinned go-winres and appmeta go (default bin/tools).
set -euo pipefail

GO_WINRES_VERSION=v0.3.3

if (($# != 1)); then
	echo "usage: $0 PKGDIR" >&2
	exit 2
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
pkgdir="$(cd "$1" && pwd)"
tools="${TOOLS_DIR:-$repo/bin/tools}"
GO="${GO:-go}"
command -v "$GO" >/dev/null 2>&1 || GO=/usr/local/go/bin/go

# go-winres has no --version; the module version is in its build info.
if ! "$GO" version -m "$tools/go-winres" 2>/dev/null | grep -q "github.com/tc-hib/go-winres[[:space:]]*$GO_WINRES_VERSION\b"; then
	echo "==> [windows] installing go-winres $GO_WINRES_VERSION into $tools"
	GOBIN="$tools" "$GO" install "github.com/tc-hib/go-winres@$GO_WINRES_VERSION"
fi
(cd "$repo" && "$GO" build -tags migrated_fynedo -o "$tools/appmeta" ./packaging/appmeta)

mapfile -t m < <("$tools/appmeta" -f "$repo/FyneApp.toml" name version description icon website)
name=${m[0]} version=${m[1]} description=${m[2]} icon=${m[3]} website=${m[4]}

"$tools/go-winres" simply --arch amd64 --manifest gui \
	--icon "$repo/$icon" \
	--product-name "$name" --product-version "$version" --file-version "$version" \
	--file-description "$description" --original-filename asktray.exe \
	--copyright "$name authors, $website" \
	--out "$pkgdir/rsrc"
echo "==> [windows] $pkgdir/rsrc_windows_amd64.syso (icon, version $version, GUI manifest)"
