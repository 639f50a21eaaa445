#!/usr/bin/env bash
# crosscheck.sh: prove that today's tree compiles for Windows and macOS, from
# Linux, tests included.
#
#   windows: go vet of every package and its tests, with cgo through
#            mingw-w64 (the same environment as make windows, so after it the
#            compiled dependencies, Fyne and go-gl included, come from the
#            build cache), and TestWindowsExe on bin/windows/asktray.exe.
#   darwin:  go vet of every package whose build and tests need no cgo, and
#            of its tests (Fyne's widgets and systray need cgo on macOS, and
#            no macOS C toolchain runs here), so only the packages importing
#            Fyne are left out; they are named in the output.
#
# go vet type-checks each package with its _test.go files, so a compile
# error in a test for either system fails here; no test binary is linked
# (that took 110 s of the 143 s of a warm run). .ci/wine.sh links and runs
# app/control's Windows tests and the Windows build under Wine 10 in a
# Debian 13 chroot (Debian 12's Wine 8 cannot start Go 1.26 binaries: no
# ProcessPrng in bcryptprimitives.dll).
#
# Usage: crosscheck.sh [windows|darwin] (both when none is named). .ci/run
# runs the darwin check beside the builds and the windows one after make
# windows.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO=${GO:-go}
command -v "$GO" >/dev/null 2>&1 || GO=/usr/local/go/bin/go
TAGS=(-tags migrated_fynedo)
WINCC=${WINCC:-x86_64-w64-mingw32-gcc}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# nocgo GOOS: the packages of this module whose build and tests use no cgo
# outside the standard library on GOOS (when cgo is enabled), one a line.
nocgo() {
	local cgo
	cgo=$(GOOS=$1 CGO_ENABLED=1 "$GO" list "${TAGS[@]}" -e -deps -test \
		-f '{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}' ./... | sed 's/ .*//' | sort -u)
	# A package's test main (pkg.test) depends on everything its tests need;
	# a package without tests has no test main and is judged by itself.
	GOOS=$1 CGO_ENABLED=1 "$GO" list "${TAGS[@]}" -e -test -f '{{.ImportPath}} {{join .Deps " "}}' ./... |
		awk -v cgo="$cgo" '
			BEGIN { n = split(cgo, c, "\n"); for (i = 1; i <= n; i++) if (c[i] != "") bad[c[i]] = 1 }
			$1 ~ /\]$/ || $2 ~ /^\[/ { next }   # test variants: their pkg.test covers them
			{
				name = $1; sub(/\.test$/, "", name)
				ok = !(name in bad)
				for (i = 2; i <= NF; i++) { d = $i; sub(/ .*/, "", d); if (d in bad) ok = 0 }
				if ($1 ~ /\.test$/) { test[name] = ok } else { plain[name] = ok }
			}
			END {
				for (p in plain) { ok = (p in test) ? test[p] && plain[p] : plain[p]; if (ok) print p; else print p > "/dev/stderr" }
			}' 2>"$out/$1.cgo" | sort
}

step() { echo "==> [crosscheck] $*"; }

start=$(date +%s)
what=${1:-all}
case "$what" in
windows | darwin | all) ;;
*)
	echo "crosscheck: unknown system $what (windows, darwin, or none for both)" >&2
	exit 2
	;;
esac

if [[ "$what" != darwin ]]; then
	step "windows: go vet ./... with the tests (cgo through $WINCC)"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$WINCC "$GO" vet "${TAGS[@]}" ./...
	if [[ -f bin/windows/asktray.exe ]]; then
		step "windows: bin/windows/asktray.exe is a GUI PE with the icon, version and manifest resources"
		ASKTRAY_WINDOWS_EXE="$PWD/bin/windows/asktray.exe" "$GO" test "${TAGS[@]}" -count=1 -run '^TestWindowsExe$' ./packaging/
	elif [[ -n "${CI:-}" ]]; then
		echo "crosscheck: bin/windows/asktray.exe is missing; CI runs make windows first" >&2
		exit 1
	fi
fi

if [[ "$what" != windows ]]; then
	nocgo darwin >"$out/darwin.ok"
	mapfile -t mac <"$out/darwin.ok"
	step "darwin: go vet of ${#mac[@]} packages with no cgo, with their tests; not checked (need cgo): $(sort "$out/darwin.cgo" | tr '\n' ' ')"
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 "$GO" vet "${TAGS[@]}" "${mac[@]}"
fi

step "$what: compile checks passed in $(($(date +%s) - start))s"
