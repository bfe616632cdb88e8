#!/usr/bin/env bash
# `npm start`: the sandbox plus n8n with this package and a sandbox credential (see scripts/demo.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh "${AGENCY_CRM_N8N_VERSION:-2.41}"
npm run build --silent
npm run build:tools --silent
rm -rf .cache/pack && mkdir -p .cache/pack
npm pack --ignore-scripts --silent --pack-destination .cache/pack >/dev/null
exec node build/scripts/demo.js
