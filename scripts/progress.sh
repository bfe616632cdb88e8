# Sourced by the install and start scripts: `progress <prefix> <what> <about how long> <command…>`
# runs a long command and says what is going on: what it does and about how long it takes at the
# start, how long it has run every 20 s (with `progress_count`, when set, a measure of the work done,
# e.g. the megabytes written), and how long it took at the end. Under `npm start`
# (AGENCY_CRM_START_LIFELINE: npm's pid), it stops the command when npm is gone, so that an npm
# killed outright leaves no install running.

# Set by the caller before `progress` to add a count to the periodic lines (a command printing it).
progress_count=""

# Ends a process and everything it started.
progress_kill_tree() {
	local child
	for child in $(pgrep -P "$1" 2>/dev/null); do progress_kill_tree "$child"; done
	kill -TERM "$1" 2>/dev/null || true
}

progress_duration() {
	local seconds="$1"
	if ((seconds >= 60)); then echo "$((seconds / 60)) min $((seconds % 60)) s"; else echo "$seconds s"; fi
}

progress() {
	local prefix="$1" what="$2" estimate="$3"
	shift 3
	echo "[$prefix] $what ($estimate)"
	local start=$SECONDS
	"$@" &
	local pid=$!
	local next=$((SECONDS + 20))
	while kill -0 "$pid" 2>/dev/null; do
		if [ -n "${AGENCY_CRM_START_LIFELINE:-}" ] && ! kill -0 "$AGENCY_CRM_START_LIFELINE" 2>/dev/null; then
			echo "[$prefix] npm start is gone: stopping $what" >&2
			progress_kill_tree "$pid"
			wait "$pid" 2>/dev/null || true
			exit 143
		fi
		if ((SECONDS >= next)); then
			local count=""
			if [ -n "$progress_count" ]; then count="; $(eval "$progress_count")"; fi
			echo "[$prefix]   … $(progress_duration $((SECONDS - start))) so far$count"
			next=$((SECONDS + 20))
		fi
		sleep 1
	done
	local status=0
	wait "$pid" || status=$?
	progress_count=""
	if ((status == 0)); then
		echo "[$prefix]   done in $(progress_duration $((SECONDS - start)))"
	else
		echo "[$prefix]   FAILED after $(progress_duration $((SECONDS - start))) (exit $status)" >&2
	fi
	return "$status"
}

# `progress_size <folder>`: "812 MB written so far" (npm creates the package folders first, then fills them).
progress_size() {
	echo "$(du -sm "$1" 2>/dev/null | cut -f1) MB written so far"
}
