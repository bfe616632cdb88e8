#!/usr/bin/env bash
# Runs the workflows of test/real-n8n inside real n8n: installs n8n once (cached), builds and packs
# this package, and lets jest install the tarball into a fresh n8n user folder.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh
npm run build --silent
rm -rf .cache/pack && mkdir -p .cache/pack
npm pack --ignore-scripts --silent --pack-destination .cache/pack >/dev/null
rm -rf .cache/runs
npx jest --config jest.real-n8n.config.js "$@"
