#!/usr/bin/env bash
# `bash scripts/jest-per-n8n.sh <label> <jest config> [jest arguments]`: installs (once) and runs
# jest against each n8n of AGENCY_CRM_N8N_VERSIONS (default "2.41 1.123", the runtimes of
# tools/n8n/runtimes) in turn, with the package freshly built and packed, and prints each run's time.
set -euo pipefail
cd "$(dirname "$0")/.."
label="$1"
config="$2"
shift 2
versions="${AGENCY_CRM_N8N_VERSIONS:-2.41 1.123}"
for version in $versions; do bash scripts/ensure-n8n.sh "$version"; done
bash scripts/build-and-pack.sh
for version in $versions; do
	echo "== $label, n8n $version"
	start=$SECONDS
	AGENCY_CRM_N8N_VERSION="$version" npx jest --config "$config" "$@"
	echo "[$label] n8n $version: $((SECONDS - start)) s"
done
