#!/usr/bin/env bash
# Runs the workflows of test/real-n8n inside real n8n, once per n8n version of the matrix
# (AGENCY_CRM_N8N_VERSIONS, default "2.41 1.123": the runtimes of tools/n8n/runtimes): installs each
# n8n once (cached), builds and packs this package, and lets jest install the tarball into a fresh
# n8n user folder. Extra arguments go to jest (e.g. a test file). Ports: AGENCY_CRM_N8N_PORT_BASE.
set -euo pipefail
cd "$(dirname "$0")/.."
versions="${AGENCY_CRM_N8N_VERSIONS:-2.41 1.123}"
bash scripts/ensure-deps.sh
for version in $versions; do bash scripts/ensure-n8n.sh "$version"; done
bash scripts/build-and-pack.sh
rm -rf .cache/runs
for version in $versions; do
	echo "== real n8n $version"
	start=$SECONDS
	AGENCY_CRM_N8N_VERSION="$version" npx jest --config jest.real-n8n.config.js "$@"
	echo "[real-n8n] n8n $version: $((SECONDS - start)) s"
done
