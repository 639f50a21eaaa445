#!/usr/bin/env bash
# package-deb.sh EXECUTABLE OUTDIR — make OUTDIR/asktray_<version>_amd64.deb
# from an asktray binary built already (make deb builds it stripped), and
# the hook-only binary asktray-hook beside it.
#
# The package holds /usr/bin/asktray, /usr/bin/asktray-hook (static, Go
# without cgo: what agents' hooks run, so that a hook call per tool call
# starts fast; a lintian override says so), its PAM service /etc/pam.d/asktray (a
# conffile; the app checks the login password with it), the launcher
# /usr/share/applications/app.asktray.desktop.desktop, the icon in the
# hicolor theme, and the copyright and changelog under /usr/share/doc. Name,
# version, maintainer, description and the launcher's fields come from
# FyneApp.toml through packaging/appmeta. Depends is what dpkg-shlibdeps
# finds for the libraries the binary links (libc6, libgl1, libx11-6);
# Recommends names what GLFW loads with dlopen when present (the X
# extensions) and Mesa's drivers, which dpkg-shlibdeps cannot see.
#
# The package is built with dpkg-deb --root-owner-group (no fakeroot), its
# dates from the last commit (SOURCE_DATE_EPOCH), so that a rebuild of the
# same binary gives the same .deb. Lintian errors fail the build; then
# desktop-file-validate checks the launcher.
#
# Environment:
#   TOOLS_DIR   where appmeta is built (default bin/tools in the repo).
set -euo pipefail

if (($# != 2)); then
	echo "usage: $0 EXECUTABLE OUTDIR" >&2
	exit 2
fi
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exe="$(realpath "$1")"
hookexe="$(dirname "$exe")/asktray-hook"
[[ -x "$hookexe" ]] || { echo "package-deb: $hookexe is missing: build cmd/asktray-hook beside $exe (make deb does)" >&2; exit 1; }
mkdir -p "$2"
out="$(cd "$2" && pwd)"
tools="${TOOLS_DIR:-$repo/bin/tools}"
GO="${GO:-go}"
command -v "$GO" >/dev/null 2>&1 || GO=/usr/local/go/bin/go
for tool in dpkg-deb dpkg-shlibdeps lintian desktop-file-validate; do
	command -v "$tool" >/dev/null || { echo "package-deb: $tool is missing; make deps installs it" >&2; exit 1; }
done

(cd "$repo" && "$GO" build -tags migrated_fynedo -o "$tools/appmeta" ./packaging/appmeta)
mapfile -t m < <("$tools/appmeta" -f "$repo/FyneApp.toml" \
	name id version description maintainer website icon generic-name comment categories keywords)
name=${m[0]} id=${m[1]} version=${m[2]} description=${m[3]} maintainer=${m[4]}
website=${m[5]} icon=${m[6]} generic=${m[7]} comment=${m[8]} categories=${m[9]} keywords=${m[10]}
arch=$(dpkg --print-architecture)
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$repo" log -1 --format=%ct 2>/dev/null || date +%s)}"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
# The tree sits where dpkg-shlibdeps expects a package's files:
# debian/<package> in a source tree.
root="$stage/src/debian/asktray"
doc="$root/usr/share/doc/asktray"
install -Dm0755 "$exe" "$root/usr/bin/asktray"
install -Dm0755 "$hookexe" "$root/usr/bin/asktray-hook"
# Go programs are static by design; lintian exempts them only for packages
# built from a Debian source package that build-depends on golang-go.
install -Dm0644 /dev/stdin "$root/usr/share/lintian/overrides/asktray" <<'OVERRIDE'
asktray: statically-linked-binary [usr/bin/asktray-hook]
OVERRIDE
size=$(file -b "$repo/$icon" | sed -n 's/.* \([0-9]*\) x \([0-9]*\),.*/\1x\2/p')
[[ -n "$size" ]] || { echo "package-deb: cannot read the size of $icon" >&2; exit 1; }
install -Dm0644 "$repo/$icon" "$root/usr/share/icons/hicolor/$size/apps/$id.png"
install -d "$root/usr/share/applications" "$doc"
cat >"$root/usr/share/applications/$id.desktop" <<ENTRY
[Desktop Entry]
Type=Application
Name=$name
GenericName=$generic
Comment=$comment
Exec=asktray
Icon=$id
Terminal=false
Categories=$categories;
Keywords=$keywords;
ENTRY
chmod 0644 "$root/usr/share/applications/$id.desktop"
install -Dm0644 "$repo/packaging/pam.d/asktray" "$root/etc/pam.d/asktray"
desktop-file-validate "$root/usr/share/applications/$id.desktop"

cat >"$doc/copyright" <<COPYRIGHT
$name, $website

Copyright $(date -u -d "@$SOURCE_DATE_EPOCH" +%Y) the $name authors.

The source repository names no license yet; until it does, this package
grants no rights beyond those the authors give there.
COPYRIGHT
date_rfc=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
printf 'asktray (%s) unstable; urgency=medium\n\n  * Built from %s at commit %s.\n\n -- %s  %s\n' \
	"$version" "$website" "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	"$maintainer" "$date_rfc" | gzip -9n >"$doc/changelog.gz"
chmod 0644 "$doc/copyright" "$doc/changelog.gz"

# dpkg-shlibdeps wants a source tree, a debian/control naming the package,
# and finds the package's root by its DEBIAN dir.
install -d "$root/DEBIAN"
printf '/etc/pam.d/asktray\n' >"$root/DEBIAN/conffiles"
printf 'Source: asktray\n\nPackage: asktray\nArchitecture: any\n' >"$stage/src/debian/control"
depends=$(cd "$stage/src" && dpkg-shlibdeps -O debian/asktray/usr/bin/asktray | sed -n 's/^shlibs:Depends=//p')
[[ -n "$depends" ]] || { echo "package-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

cat >"$root/DEBIAN/control" <<CONTROL
Package: asktray
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: libgl1-mesa-dri, libxcursor1, libxrandr2, libxinerama1, libxi6, libxxf86vm1
Section: utils
Priority: optional
Homepage: $website
Description: ${description%.}
 $(fold -s -w 72 <<<"$comment." | sed 's/ *$//; 2,$s/^/ /')
 $name sits in the system tray and hosts an MCP server on the loopback
 interface. AI agents call its tools to ask a question, to get a yes or
 no before a destructive action, or to have a form filled in; the person
 answers from a dialog, the tray, a browser or the command line.
CONTROL
find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb="$out/asktray_${version}_${arch}.deb"
rm -f "$deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "==> [deb] lintian $(basename "$deb")"
# Errors fail; warnings are printed. hardening-no-pie is one: a PIE build
# (-buildmode=pie) would compile every package again, Fyne's cgo included,
# with keys no other build shares.
lintian --fail-on error "$deb"
echo "==> [deb] $deb ($(du -h "$deb" | cut -f1)); Depends: $depends"
