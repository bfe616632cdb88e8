#!/usr/bin/env bash
# Installs the dev dependencies from the lockfile when node_modules is missing or older than it.
# --ignore-scripts, as the repository's .npmrc sets it (no dependency's install script runs here).
# `npm install` rather than `npm ci`: the registry reachable here lacks some other platforms' optional
# binaries (unrs-resolver's), which leaves the lockfile without them, and `npm ci` refuses that.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	progress_count="progress_size node_modules"
	progress ensure-deps "installing the dev dependencies (npm install, from package-lock.json)" "about 1-2 min" \
		npm install --ignore-scripts --no-audit --no-fund --loglevel=error
fi
