#!/usr/bin/env bash
# Runs the workflows of test/real-n8n inside real n8n, once per n8n version of the matrix
# (AGENCY_CRM_N8N_VERSIONS, default "2.41 1.123"): each n8n is installed once (cached), and jest
# installs the package's tarball into a fresh n8n user folder. The editor tests drive n8n's editor in
# headless Chromium, installed here where missing (scripts/ensure-chromium.sh). Extra arguments go to
# jest (e.g. a test file). Ports: AGENCY_CRM_N8N_PORT_BASE (default 5710) and up.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-chromium.sh
rm -rf .cache/runs
bash scripts/jest-per-n8n.sh real-n8n jest.real-n8n.config.js "$@"
