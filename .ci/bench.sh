#!/usr/bin/env bash
# bench.sh runs every benchmark behind the report, prints the report and
# writes it to docs/benchmarks.md. make bench calls it (about 5 minutes:
# two 60 s idle measurements dominate). ASKTRAY_BIN names a built binary.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
TAGS=(-tags migrated_fynedo)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "==> [bench] app: round trip, pending memory, start to initialize" >&2
$GO test "${TAGS[@]}" -run '^$' -bench 'Report' -benchtime 1x -timeout 10m ./app/benchreport/ | tee "$out/app.txt" >&2
echo "==> [bench] history: 100k rows" >&2
$GO test "${TAGS[@]}" -run '^$' -bench 'SQLite_(FirstPage100k|Search100k|CommitDecision|CommitDecided)$' -timeout 10m ./app/history/ | tee "$out/history.txt" >&2
echo "==> [bench] desktop under Xvfb: dialog latency, idle RSS and CPU, zenity (about 3 minutes)" >&2
$GO test "${TAGS[@]}" -run '^$' -bench 'Desktop|Zenity' -benchtime 1x -timeout 15m -v ./ui/xvfbtest/ | tee "$out/desktop.txt" >&2 || true
echo "==> [bench] desktop under Xvfb: 200 dialogs with and without window reuse, RSS every 25 (about 2 minutes)" >&2
$GO test "${TAGS[@]}" -run '^$' -bench 'DialogPool' -benchtime 1x -timeout 20m -v ./ui/xvfbtest/ | tee "$out/pool.txt" >&2 || true

# ns/op of a benchmark in a go test output, in milliseconds.
nsop() { awk -v n="$2" '$1 ~ "^"n"(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == "ns/op") printf "%.2f ms", $i / 1e6 }' "$1"; }
field() { awk -v n="$2" -v u="$3" '$1 ~ "^"n"(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i+1) == u) printf "%s", $i }' "$1"; }
desk() { grep -m1 "$1" "$out/desktop.txt" | sed 's/^[^:]*: *//' || true; }

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
ram=$(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)
os=$(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME" || uname -sr)
dialog=$(desk 'dialog mapped after tools/call')
zenity=$(desk 'zenity --question mapped after spawn')
ours_idle=$(desk 'asktray idle with tray')
bare_idle=$(desk 'bare Fyne tray app idle')
span=$(grep -m1 'asktray idle with tray for' "$out/desktop.txt" | sed 's/.*tray for \([^:]*\):.*/\1/' || true)
[ -n "$dialog" ] || dialog="not measured: $(grep -m1 -E 'SKIP|FAIL|skipping|--- ' "$out/desktop.txt" | sed 's/^ *//' || echo 'see the run output')"

{
	echo "# Benchmarks"
	echo
	echo "The latest \`make bench\` run, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)."
	echo "Figures are measured in that run; none is asserted. Other processes were not stopped, so treat single runs as indicative."
	echo
	echo "Machine: $cpu, $(nproc) cores, $ram RAM, $os, $($GO version | awk '{print $3}')."
	echo
	echo "| figure | Asktray | comparison |"
	echo "|---|---|---|"
	grep '^REPORT ' "$out/app.txt" | sed 's/^REPORT //'
	echo "| time from tools/call to the dialog window mapped, under Xvfb (20 questions) | $dialog | \`zenity --question\` spawned per question, as zenity-based servers do: ${zenity:-not measured} |"
	echo "| idle RSS and CPU over ${span:-60s}, tray on Xvfb with a private D-Bus (Asktray: after the 20 dialogs above closed) | ${ours_idle:-not measured} | bare Fyne tray app built the same way: ${bare_idle:-not measured} |"
	echo "| history of 100k rows: first page (50 rows) | $(nsop "$out/history.txt" BenchmarkSQLite_FirstPage100k) | |"
	echo "| history of 100k rows: full-text search \"kubernetes\" (first page of $(field "$out/history.txt" BenchmarkSQLite_Search100k matches) matches) | $(nsop "$out/history.txt" BenchmarkSQLite_Search100k) | |"
	echo "| one question decided by a rule committed (BeginEnded: one commit, SQLite WAL, synchronous=FULL) | $(nsop "$out/history.txt" BenchmarkSQLite_CommitDecided) | a question the person decides (Begin + End, two commits): $(nsop "$out/history.txt" BenchmarkSQLite_CommitDecision) |"
	echo
	echo "How each figure is taken: \`app/benchreport\` (round trip, pending memory, start, the hook command), \`app/history/bench_test.go\`"
	echo "(100k rows: go test -bench, mean per operation), \`ui/xvfbtest/measure_test.go\` (dialog latency by xdotool"
	echo "polling, idle cost from /proc over 60 s). Run \`make bench\` to refresh this file."
	echo
	echo "## This run: window reuse and the 200-dialog soak"
	echo
	echo "\`ui/xvfbtest/dialogperf_test.go\` (\`BenchmarkDialogPool\`), in the same run; the method is under Window reuse below."
	echo
	sed -n '/^time to dialog and RSS/,/^PASS\|^ok\|^--- /p' "$out/pool.txt" | grep -v '^PASS\|^ok\|^--- \|^Benchmark\|^goos\|^goarch\|^pkg\|^cpu' || echo "not measured: see the run output"
	# Sections under a "## " heading (the time to first frame, window reuse)
	# are measured and written by their own benchmarks; keep them.
	if grep -q '^## ' docs/benchmarks.md 2>/dev/null; then
		echo
		awk '/^## / { keep = ($0 !~ /^## This run:/) } keep' docs/benchmarks.md
	fi
} > "$out/report.md"
cp "$out/report.md" docs/benchmarks.md
cat "$out/report.md"
