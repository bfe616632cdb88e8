#!/usr/bin/env bash
# `npm start`: the sandbox plus n8n with this package and a sandbox credential (see scripts/demo.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh "${AGENCY_CRM_N8N_VERSION:-2.41}"
bash scripts/build-and-pack.sh
npm run build:tools --silent
exec node build/scripts/demo.js
