#!/usr/bin/env bash
# The real-agent suite (app/hook/realagents): Claude Code, Codex, Copilot
# CLI, Gemini CLI, opencode, Kilo, Qwen Code, Factory Droid and Cline, pinned in app/hook/realagents/package-lock.json
# (Qwen Code in packed.txt), run for real in tmux
# against a fake model server, their hooks installed by 'asktray config AGENT
# --hooks --write'. `make realagents` and .ci/run run this.
#
# .ci/agents.sh installs the agents (about 1.2 GB) into a cache directory
# outside the repository, once per lock file. The suite is built only with
# the realagents tag, so `make test` never sees it; here it must run: a
# missing npm, tmux or agent install is a failure, never a skip.
#
# Set REALAGENTS_RUN to a test name pattern to run some of the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
GO="${GO:-go}"

if ! command -v tmux >/dev/null 2>&1; then
	echo "realagents: tmux not found (Debian: apt-get install tmux; .ci/deps.sh installs it)" >&2
	exit 1
fi
modules="$(bash .ci/agents.sh)"
src=app/hook/realagents

echo "==> [realagents] $GO test -tags migrated_fynedo,realagents ./$src (agents in $modules)"
export ASKTRAY_REALAGENTS_MODULES="$modules"
start=$(date +%s)
rc=0
"$GO" test -tags migrated_fynedo,realagents -count=1 -timeout 15m -v ${REALAGENTS_RUN:+-run "$REALAGENTS_RUN"} "./$src" || rc=$?
echo "==> [realagents] finished in $(($(date +%s) - start)) s, exit code $rc"
exit $rc
