#!/usr/bin/env bash
# The MCP entries of 'asktray config CLIENT --write', checked with the real
# clients (app/clientsetup/realclients): installs Claude Code, Codex, Gemini
# CLI, opencode, Copilot CLI and Node 22 at the versions its package-lock.json
# pins into a cache dir kept across runs (only when that lock file changed),
# then runs the tests with ASKTRAY_REALCLIENTS_DIR pointing there.
# Idempotent; a warm run installs nothing. Prints how long each part took and
# the disk the clients take. .ci/run calls it as `realclients.sh install`
# while it compiles (the install only), then with no argument after make test;
# run it by hand as root (or with ASKTRAY_REALCLIENTS_DIR set to a dir of your
# own).
set -euo pipefail

cd "$(dirname "$0")/.."
source .ci/retry.sh
export PATH="$PATH:/usr/local/go/bin"

src=app/clientsetup/realclients
dir="${ASKTRAY_REALCLIENTS_DIR:-/var/cache/asktray/realclients}"
stamp="$dir/node_modules/.asktray-lock-sha256"
want="$(sha256sum "$src/package-lock.json" | cut -d' ' -f1)"

start=$(date +%s)
if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "realclients: npm not found; install Node.js and npm (Debian: apt-get install nodejs npm)" >&2
		exit 1
	fi
	echo "realclients: npm install into $dir"
	mkdir -p "$dir"
	rm -f "$stamp"
	cp "$src/package.json" "$src/package-lock.json" "$dir/"
	# npm install with the lock file, not npm ci: the lock names every
	# platform's opencode binary, and npm ci refuses a registry that lacks
	# some of those optional packages; install takes the ones it finds.
	# npm's own cache of the tarballs (another 655 MB) is a throwaway one:
	# the installed tree is what is kept.
	rm -rf "$dir/.npm-tmp"
	install_clients() { (cd "$dir" && npm install --no-audit --no-fund --loglevel=error --cache "$dir/.npm-tmp"); }
	retry install_clients
	rm -rf "$dir/.npm-tmp"
	echo "$want" >"$stamp"
fi
echo "realclients: install $(($(date +%s) - start))s; $dir takes $(du -sh "$dir" | cut -f1)"
[[ "${1:-}" != install ]] || exit 0

start=$(date +%s)
rc=0
ASKTRAY_REALCLIENTS_DIR="$dir" go test -tags migrated_fynedo -count=1 -timeout 15m -v ./"$src"/ || rc=$?
echo "realclients: tests exit $rc after $(($(date +%s) - start))s"
exit "$rc"
