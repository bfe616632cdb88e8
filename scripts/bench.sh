#!/usr/bin/env bash
# `npm run bench`: issues 10 and 19's benchmarks inside real n8n (bench/real-n8n.ts), with the package
# built and packed as the real-n8n tests install it: first the trigger bursts on n8n 1.123
# (bench/results-n8n-1.123.json), then everything on n8n 2.41, queue mode included, which writes
# bench/results.json and bench/RESULTS.md (the 1.123 bursts shown there too). Installs nothing beyond
# what `npm test` installs. AGENCY_CRM_N8N_VERSION=2.41 or 1.123 runs that version's part alone.
set -euo pipefail
cd "$(dirname "$0")/.."
versions="${AGENCY_CRM_N8N_VERSION:-1.123 2.41}"
bash scripts/ensure-deps.sh
bash scripts/ensure-queue-services.sh
for version in $versions; do bash scripts/ensure-n8n.sh "$version"; done
bash scripts/build-and-pack.sh
npm run build:tools --silent
for version in $versions; do AGENCY_CRM_N8N_VERSION="$version" node build/bench/real-n8n.js; done
