#!/usr/bin/env bash
# Installs, once, Verdaccio (a real npm registry server, from the npm registry) for the installer
# tests: from tools/registry/verdaccio (package.json and lockfile) into the git-ignored
# .cache/verdaccio. It stays out of the package's devDependencies: only these tests start it. A
# second run finds the stamp and returns at once.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/progress.sh"
source "$root/scripts/runtime-stamp.sh"
runtime="$root/tools/registry/verdaccio"
target="$root/.cache/verdaccio"
want="$(runtime_digest "$runtime")"
runtime_installed "$target" "$want" "$target/node_modules/verdaccio/package.json" && exit 0
runtime_prepare "$runtime" "$target"
# --ignore-scripts: nothing in it needs a build, and the registry server must not run install hooks.
progress_count="progress_size '$target/node_modules'"
progress verdaccio "installing Verdaccio, the npm registry of the installer tests (npm ci, about 60 MB)" "about 30-60 s" \
	bash -c "cd '$target' && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error"
runtime_stamp "$target" "$want"
