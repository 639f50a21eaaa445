#!/usr/bin/env bash
# wine.sh — run the Windows build (bin/windows/asktray.exe) under Wine 10.
#
# Debian 12's Wine 8 cannot start a Go 1.26 Windows binary (no
# bcryptprimitives.dll), so this bootstraps a minimal Debian 13 (trixie) into a
# scratch directory with debootstrap, installs Wine 10 and Xvfb there, and runs
# the exe in that chroot: the host's libc and packages are left alone. The
# chroot is reused when it is already there (only the first run pays for the
# bootstrap); every run gets a fresh WINEPREFIX.
#
#   .ci/wine.sh          set up (or reuse) the chroot, then run the Wine tests
#                        (app/winetest) against bin/windows/asktray.exe
#   .ci/wine.sh setup    only set up (or reuse) the chroot
#   .ci/wine.sh shell    an interactive shell in the chroot, mounts in place
#   .ci/wine.sh run CMD  run CMD in the chroot, mounts in place (this checkout at /src)
#
# Runs as root (debootstrap, chroot and mount need it). Packages come from the
# same mirror as the host's apt (read from its sources). Environment:
#   ASKTRAY_WINE_ROOT   the chroot (default /var/cache/asktray-ci/wine-trixie)
#   GO                  Go command (default: go, or /usr/local/go/bin/go)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

root=${ASKTRAY_WINE_ROOT:-/var/cache/asktray-ci/wine-trixie}
suite=trixie
# fonts-wine: without it Wine's own title-bar buttons render as glyph boxes.
pkgs=(wine wine64 xvfb xauth fonts-wine)
# The stamp says which package set the chroot holds; another set rebuilds it.
stamp="$root/.asktray-wine-ready"
want_stamp="$suite ${pkgs[*]}"

log() { echo "wine: $*"; }
die() {
	echo "wine: $*" >&2
	exit 1
}

# host_mirror prints the first non-security Debian archive URI of the host's
# apt sources: deb822 .sources files first, then one-line .list files.
host_mirror() {
	local f uri=""
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f "$f" ]] || continue
		uri=$(awk '
			function flush() { if (!done && types ~ /(^| )deb( |$)/ && suites !~ /-security/ && uris != "") { split(uris, u, " "); print u[1]; done = 1 } types = suites = uris = "" }
			/^[ \t]*$/ { flush(); next }
			/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
			/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
			/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
			END { flush() }' "$f")
		[[ -n "$uri" ]] && break
	done
	if [[ -z "$uri" ]]; then
		uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } if ($(i+1) !~ /-security/) { print $i; exit } }')
	fi
	[[ -n "$uri" ]] || die "no Debian mirror found in the host's apt sources (/etc/apt/sources.list*)"
	echo "$uri"
}

# mounted_under DIR succeeds when anything is mounted at or below DIR.
mounted_under() {
	findmnt -rn -o TARGET | awk -v d="$1" '$0 == d || index($0, d "/") == 1 { found = 1 } END { exit !found }'
}

unmount_all() {
	local dir=$1
	if mounted_under "$dir"; then
		umount -R "$dir/proc" "$dir/dev" "$dir/tmp/.X11-unix" 2>/dev/null || true
		# Anything left (a busy /dev after a killed run): detach lazily.
		findmnt -rn -o TARGET | awk -v d="$dir" 'index($0, d "/") == 1' | sort -r |
			while read -r m; do umount -l "$m" 2>/dev/null || true; done
	fi
}

# mount_all DIR mounts what Wine and Xvfb need in the chroot: proc, the host's
# /dev (rbind, rslave so unmounting it here leaves the host's alone) and the X
# sockets directory (so host and chroot share the X displays).
mount_all() {
	local dir=$1
	mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
	if ! mountpoint -q "$dir/dev"; then
		mount --rbind /dev "$dir/dev"
		mount --make-rslave "$dir/dev"
	fi
	mkdir -p /tmp/.X11-unix "$dir/tmp/.X11-unix"
	chmod 1777 /tmp/.X11-unix
	mountpoint -q "$dir/tmp/.X11-unix" || mount --bind /tmp/.X11-unix "$dir/tmp/.X11-unix"
	# Without the host's name in hosts, Wine warns that it cannot resolve it.
	cp /etc/hosts /etc/resolv.conf "$dir/etc/" 2>/dev/null || true
}

# setup makes the chroot unless a complete one is there. It builds in
# $root.partial and renames it when complete, so an interrupted run never
# leaves a half-made chroot that looks ready.
setup() {
	if [[ -f "$stamp" && "$(cat "$stamp")" == "$want_stamp" ]]; then
		log "reusing $root ($(cat "$root/etc/debian_version") , $(chroot "$root" dpkg-query -W -f='wine ${Version}' wine))"
		return
	fi
	command -v debootstrap >/dev/null || die "debootstrap not found (make deps installs it)"
	local part="$root.partial" mirror start
	mirror=$(host_mirror)
	unmount_all "$part"
	mounted_under "$part" && die "$part still has mounts; unmount them first"
	rm -rf --one-file-system "$part"
	if [[ -e "$root" ]]; then
		unmount_all "$root"
		mounted_under "$root" && die "$root still has mounts; unmount them first"
		rm -rf --one-file-system "$root"
	fi
	mkdir -p "$(dirname "$root")"
	start=$(date +%s)
	log "debootstrap --variant=minbase $suite $part $mirror"
	debootstrap --variant=minbase "$suite" "$part" "$mirror" >"$part.log" 2>&1 ||
		{ tail -20 "$part.log" >&2; die "debootstrap failed (whole log: $part.log)"; }
	log "debootstrap: $(($(date +%s) - start))s"
	start=$(date +%s)
	mount_all "$part"
	trap 'unmount_all "$root.partial"' EXIT
	log "apt-get install --no-install-recommends ${pkgs[*]}"
	chroot "$part" env DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
		sh -c "apt-get update -q && apt-get install -y -q --no-install-recommends ${pkgs[*]} && apt-get clean" \
		>>"$part.log" 2>&1 || { tail -20 "$part.log" >&2; die "installing Wine failed (whole log: $part.log)"; }
	unmount_all "$part"
	trap - EXIT
	log "apt-get install: $(($(date +%s) - start))s, $(chroot "$part" dpkg-query -W -f='wine ${Version}' wine), $(du -sh --one-file-system "$part" | cut -f1)"
	echo "$want_stamp" >"$part/.asktray-wine-ready"
	mv "$part" "$root"
	mv "$part.log" "$root.log"
}

[[ "$(id -u)" == "0" ]] || die "run as root (debootstrap, chroot and mount need it)"
mkdir -p "$(dirname "$root")"
# One run at a time per chroot: a second waits instead of unmounting the first's /dev.
exec 9>"$root.lock"
flock 9

# mount_src binds this checkout read-only at /src in the chroot, so Wine
# runs the built exe and the Windows test binaries (and finds their
# testdata) where they are.
mount_src() {
	mkdir -p "$root/src"
	if ! mountpoint -q "$root/src"; then
		mount --bind "$PWD" "$root/src"
		mount -o remount,bind,ro "$root/src"
	fi
}

# in_wine DIR CMD... runs CMD in the chroot, in DIR, with the run's prefix.
in_wine() {
	local dir=$1
	shift
	chroot "$root" env -C "$dir" LANG=C.UTF-8 HOME=/root USER=root WINEPREFIX="$prefix" \
		WINEDEBUG=-all DISPLAY= "$@"
}

# run_tests runs, under Wine: the Windows build of app/control's tests (the
# named pipe), then the end-to-end tests of bin/windows/asktray.exe, which
# app/winetest's TestWine* drive from the host (ASKTRAY_WINE_ROOT set): they
# run the exe in this chroot, reach its MCP endpoint over loopback TCP and
# its dialogs on an Xvfb display they start on the host.
run_tests() {
	local exe=bin/windows/asktray.exe start rc=0
	[[ -f "$exe" ]] || die "$exe is missing: run make windows first"
	setup
	mount_all "$root"
	mount_src
	prefix=/tmp/asktray-wine-prefix
	# wineserver -k first: a server still running keeps writing to the prefix.
	trap 'in_wine / wineserver -k >/dev/null 2>&1 || true; unmount_all "$root"; rm -rf --one-file-system "${root:?}$prefix"' EXIT
	rm -rf --one-file-system "${root:?}$prefix"
	start=$(date +%s)
	in_wine / wineboot -i >/dev/null 2>&1 || die "wineboot -i failed in a fresh prefix"
	log "fresh WINEPREFIX: $(($(date +%s) - start))s"

	start=$(date +%s)
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 "$GO" test -c -tags migrated_fynedo -o bin/windows/control.test.exe ./app/control
	log "== app/control tests under Wine (the control channel on a named pipe)"
	# TestOnlyMountsTheHooks runs go list, which is not in the prefix; it
	# checks imports, the same for every system, and runs on the host.
	in_wine /src/app/control wine /src/bin/windows/control.test.exe -test.count=1 -test.timeout=5m \
		-test.skip '^TestOnlyMountsTheHooks$' || rc=$?
	log "== app/control under Wine: exit $rc after $(($(date +%s) - start))s"
	((rc == 0)) || return "$rc"

	start=$(date +%s)
	log "== $exe under Wine (app/winetest TestWine*)"
	ASKTRAY_WINE_ROOT="$root" ASKTRAY_WINE_PREFIX="$prefix" ASKTRAY_WINE_EXE=/src/$exe \
		"$GO" test -tags migrated_fynedo -count=1 -timeout 10m -run "${ASKTRAY_WINE_RUN:-^TestWine}" -v ./app/winetest/ || rc=$?
	log "== $exe under Wine: exit $rc after $(($(date +%s) - start))s"
	return "$rc"
}

GO=${GO:-go}
command -v "$GO" >/dev/null 2>&1 || GO=/usr/local/go/bin/go

cmd=${1:-test}
case "$cmd" in
test)
	run_tests
	;;
setup)
	setup
	;;
shell)
	setup
	mount_all "$root"
	trap 'unmount_all "$root"' EXIT
	chroot "$root" env LANG=C.UTF-8 bash -l
	;;
run)
	shift
	setup
	mount_all "$root"
	mount_src
	trap 'unmount_all "$root"' EXIT
	chroot "$root" env LANG=C.UTF-8 HOME=/root "$@"
	;;
*)
	die "unknown command $cmd (setup, shell, or none to run the tests)"
	;;
esac
