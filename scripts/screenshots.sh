#!/usr/bin/env bash
# `npm run screenshots`: installs what the screenshots need where missing (the dev dependencies,
# n8n, Chromium from Debian's packages), then writes docs/images/<example>.png and the sandbox console's
# pages (docs/images/console-*.png). Not part of npm test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh "${AGENCY_CRM_N8N_VERSION:-2.41}"
bash scripts/ensure-chromium.sh
bash scripts/build-and-pack.sh
npm run build:tools --silent
node build/scripts/screenshots.js
