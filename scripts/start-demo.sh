#!/usr/bin/env bash
# `npm start` (`npm start -- --fresh` to start over): the sandbox plus n8n with this package, a sandbox
# credential and the examples, kept between runs in .cache/demo/<n8n version> (see scripts/demo.ts).
# Installs what is missing and rebuilds what changed, saying what it does and about how long it takes.
# Runs on Linux and macOS with bash 3.2 and up (macOS's own), Node 20 and up, and npm.
#
# npm runs it with `exec` (package.json), so that this script, and then the demo's node process that
# replaces it, is npm's own child: a SIGINT or SIGTERM that a process manager or an IDE sends to npm
# start's process reaches it through npm, and stops everything at once, saying so.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
source scripts/runtime-stamp.sh
version="${AGENCY_CRM_N8N_VERSION:-2.41}"

# A demo of this n8n already running answers at once, before any install or build. Without a build
# of the tools no demo can be running.
if [ -f ".cache/demo/$version/running.json" ] && [ -f build/tools/demo/running.js ]; then
	node -e '
const running = require("./build/tools/demo/running.js").liveDemo(process.argv[1]);
if (running) {
	console.error(running.message);
	process.exit(1);
}' ".cache/demo/$version"
fi

# npm's own process: when it is gone (killed), the steps below stop (progress.sh).
export AGENCY_CRM_START_LIFELINE="$PPID"
# When npm start began, for the banner's "ready in" (macOS's date has no milliseconds).
AGENCY_CRM_START_MS="$(node -p 'Date.now()')"
export AGENCY_CRM_START_MS

# Each step runs in the background and is waited for: bash runs a trap only once the command in the
# foreground has finished, and `wait` gives way to the signal at once.
step_pid=""
step_name=""
stop_preparing() {
	trap '' INT TERM HUP
	if [ -n "$step_pid" ]; then
		progress_kill_tree "$step_pid"
		wait "$step_pid" 2>/dev/null || true
	fi
	echo "[start] stopped by $1 while ${step_name:-preparing the demo}: nothing of it is left running." >&2
	exit "$2"
}
trap 'stop_preparing SIGINT 130' INT
trap 'stop_preparing SIGTERM 143' TERM
trap 'stop_preparing SIGHUP 129' HUP
step() {
	step_name="$1"
	shift
	"$@" &
	step_pid=$!
	wait "$step_pid"
	step_pid=""
}

# The first start says up front what it installs, and how long the first start and the later ones
# took when npm start measured them (docs/results/npm-start.json: tools/demo/startResults.ts).
start_kind=start
if [ ! -f ".cache/n8n-$version/.installed" ]; then
	start_kind=firstStart
	echo "[start] This first start installs what the demo needs into .cache/, once: the dev dependencies, Node 24 (unless this Node is 24 or later) and n8n $version (2-3 GB); then it builds the package and the demo."
	measured="$(node -p '
try {
	const { firstStart, start } = require("./docs/results/npm-start.json");
	[firstStart.seconds, start.seconds, firstStart.machine.cores].map(Math.round).join(" ");
} catch {
	"";
}')"
	if [ -n "$measured" ]; then
		read -r first later cores <<<"$measured"
		echo "[start] Measured on $cores cores (docs/results/npm-start.json): the first start was ready in $(progress_duration "$first"), a later one in $(progress_duration "$later")."
	fi
fi

step "installing the dev dependencies" bash scripts/ensure-deps.sh
step "installing n8n $version" bash scripts/ensure-n8n.sh "$version"

# What a build reads: unchanged since the last build of this kind, the build is skipped. The stamps live
# in the output folders, which every other build of theirs deletes first.
digest_of() { find "$@" -type f -print0 | LC_ALL=C sort -z | xargs -0 $(sha256_command) | sha256_of_input; }
package_inputs=(nodes credentials icons package.json package-lock.json tsconfig.json gulpfile.js)
package_digest="$(digest_of "${package_inputs[@]}")"
if [ "$(cat .cache/pack/.inputs 2>/dev/null)" != "$package_digest" ]; then
	step "building the package" progress start "building and packing the package" "about 20 s" bash scripts/build-and-pack.sh
	echo "$package_digest" >.cache/pack/.inputs
	[ "$start_kind" = firstStart ] || start_kind=rebuiltStart
fi
tools_inputs=(sandbox tools scripts test bench "${package_inputs[@]}" tsconfig.tools.json)
tools_digest="$(digest_of "${tools_inputs[@]}")"
if [ "$(cat build/.inputs 2>/dev/null)" != "$tools_digest" ]; then
	step "compiling the sandbox and the demo" progress start "compiling the sandbox and the demo" "about 20 s" npm run build:tools --silent
	echo "$tools_digest" >build/.inputs
	[ "$start_kind" = firstStart ] || start_kind=rebuiltStart
fi

trap - INT TERM HUP
export AGENCY_CRM_START_KIND="$start_kind"
exec node build/scripts/demo.js "$@"
