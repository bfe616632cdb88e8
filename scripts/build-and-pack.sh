#!/usr/bin/env bash
# Builds the package and packs it into .cache/pack, the tarball that real n8n installs as users get it.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent
rm -rf .cache/pack && mkdir -p .cache/pack
npm pack --ignore-scripts --silent --pack-destination .cache/pack >/dev/null
