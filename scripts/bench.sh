#!/usr/bin/env bash
# `npm run bench`: issue 10's benchmarks inside real n8n (bench/real-n8n.ts), on n8n 2.41 or
# AGENCY_CRM_N8N_VERSION=1.123, with the package built and packed as the real-n8n tests install it.
# Installs nothing beyond what `npm test` installs. Writes bench/results.json and bench/RESULTS.md
# (bench/results-n8n-1.123.json and bench/RESULTS-n8n-1.123.md on 1.123).
set -euo pipefail
cd "$(dirname "$0")/.."
version="${AGENCY_CRM_N8N_VERSION:-2.41}"
bash scripts/ensure-deps.sh
bash scripts/ensure-n8n.sh "$version"
bash scripts/build-and-pack.sh
npm run build:tools --silent
AGENCY_CRM_N8N_VERSION="$version" node build/bench/real-n8n.js
