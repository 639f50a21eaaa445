#!/usr/bin/env bash
# crosscheck.sh: prove that today's tree compiles for Windows and macOS, from
# Linux. CI runs it after `make windows`, whose build leaves the Windows
# compile of every dependency (Fyne and go-gl included) in the shared Go build
# cache, so the Windows vet below mostly reuses it.
#
#   windows: go vet of every package, with cgo through mingw-w64 (the same
#            environment as make windows), and `go test -c` of the packages
#            whose tests need no cgo, so a Windows-only compile error in a
#            test fails too.
#   darwin:  go vet and `go test -c` of every package whose build and tests
#            need no cgo (Fyne's widgets and systray need cgo on macOS, and no
#            macOS C toolchain runs here), so only the packages importing
#            Fyne are left out; they are named in the output.
#
# Nothing is run here: .ci/wine.sh runs the Windows build and app/control's
# Windows tests under Wine 10 in a Debian 13 chroot (Debian 12's Wine 8
# cannot start Go 1.26 binaries: no ProcessPrng in bcryptprimitives.dll).
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
step "windows: go vet ./... (cgo through $WINCC)"
GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$WINCC "$GO" vet "${TAGS[@]}" ./...

nocgo windows >"$out/windows.ok"
mapfile -t win <"$out/windows.ok"
step "windows: go test -c of the ${#win[@]} packages with no cgo; vetted only (need cgo): $(sort "$out/windows.cgo" | tr '\n' ' ')"
# The same environment as the build and vet above, so the compiled
# dependencies come from the build cache.
GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$WINCC "$GO" test "${TAGS[@]}" -c -o "$out/windows/" "${win[@]}"

nocgo darwin >"$out/darwin.ok"
mapfile -t mac <"$out/darwin.ok"
step "darwin: go vet and go test -c of ${#mac[@]} packages with no cgo; not compiled (need cgo): $(sort "$out/darwin.cgo" | tr '\n' ' ')"
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 "$GO" vet "${TAGS[@]}" "${mac[@]}"
GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 "$GO" test "${TAGS[@]}" -c -o "$out/darwin/" "${mac[@]}"

if [[ -f bin/windows/asktray.exe ]]; then
	step "windows: bin/windows/asktray.exe is a GUI PE with the icon, version and manifest resources"
	ASKTRAY_WINDOWS_EXE="$PWD/bin/windows/asktray.exe" "$GO" test "${TAGS[@]}" -count=1 -run '^TestWindowsExe$' ./packaging/
elif [[ -n "${CI:-}" ]]; then
	echo "crosscheck: bin/windows/asktray.exe is missing; CI runs make windows first" >&2
	exit 1
fi

step "windows and darwin compile checks passed in $(($(date +%s) - start))s"
