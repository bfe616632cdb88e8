#!/usr/bin/env bash
# `npm start` (`npm start -- --fresh` to start over): the sandbox plus n8n with this package, a sandbox
# credential and the examples, kept between runs in .cache/demo/<n8n version> (see scripts/demo.ts).
# Installs what is missing and rebuilds what changed, saying what it does and about how long it takes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
version="${AGENCY_CRM_N8N_VERSION:-2.41}"

# A demo of this n8n already running answers at once, before any install or build (scripts/demo.ts
# writes running.json; a record whose process is gone, or another process now, is stale).
running=".cache/demo/$version/running.json"
if [ -f "$running" ]; then
	node -e '
const fs = require("fs");
const record = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
let stat = "";
try { stat = fs.readFileSync(`/proc/${record.pid}/stat`, "utf8"); } catch {}
const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
if (stat && fields[0] !== "Z" && fields[19] === record.startTime) {
	console.error(record.message);
	process.exit(1);
}' "$running"
fi

# The shell npm runs this in: when it is gone (a SIGTERM to npm), the steps below stop (progress.sh).
export AGENCY_CRM_START_LIFELINE="$PPID"
# When npm start began, for the banner's "ready in".
export AGENCY_CRM_START_MS="$(date +%s%3N)"

bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh "$version"

# What a build reads: unchanged since the last build of this kind, the build is skipped. The stamps live
# in the output folders, which every other build of theirs deletes first.
digest_of() { find "$@" -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1; }
package_inputs=(nodes credentials icons package.json package-lock.json tsconfig.json gulpfile.js)
package_digest="$(digest_of "${package_inputs[@]}")"
if [ "$(cat .cache/pack/.inputs 2>/dev/null)" != "$package_digest" ]; then
	progress start "building and packing the package" "about 20 s" bash scripts/build-and-pack.sh
	echo "$package_digest" >.cache/pack/.inputs
fi
tools_inputs=(sandbox tools scripts test bench "${package_inputs[@]}" tsconfig.tools.json)
tools_digest="$(digest_of "${tools_inputs[@]}")"
if [ "$(cat build/.inputs 2>/dev/null)" != "$tools_digest" ]; then
	progress start "compiling the sandbox and the demo" "about 20 s" npm run build:tools --silent
	echo "$tools_digest" >build/.inputs
fi

exec node build/scripts/demo.js "$@"
