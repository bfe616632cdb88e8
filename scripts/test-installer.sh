#!/usr/bin/env bash
# Runs test/installer: n8n's own Community Nodes installer (the page's REST routes, and the page
# itself in headless Chromium) installing, updating and removing the package from Verdaccio, a real
# npm registry on loopback, once per n8n version (AGENCY_CRM_N8N_VERSIONS, default "2.41 1.123").
# Ports: AGENCY_CRM_N8N_PORT_BASE + 70 to + 77; Verdaccio takes a free one. Extra arguments go to jest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-verdaccio.sh
bash scripts/ensure-chromium.sh
rm -rf .cache/runs
bash scripts/jest-per-n8n.sh installer jest.installer.config.js "$@"
