#!/usr/bin/env bash
# `npm start` as a user runs it (test/demo): in a copy of the repository that shares this checkout's
# installs, with ports from AGENCY_CRM_N8N_PORT_BASE (default 5710) + 60 to + 63, on the demo's n8n
# (2.41), with Chromium for the sandbox console. Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh 2.41
bash scripts/ensure-chromium.sh
npx jest --config jest.demo.config.js "$@"
