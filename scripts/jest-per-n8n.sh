#!/usr/bin/env bash
# `bash scripts/jest-per-n8n.sh <label> <jest config> [jest arguments]`: installs (once) and runs
# jest against each n8n of AGENCY_CRM_N8N_VERSIONS (default "2.41 1.123", the runtimes of
# tools/n8n/runtimes) in turn, with the package freshly built and packed, and prints each run's time.
# Every version runs even when an earlier one failed; the exit status says whether any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
label="$1"
config="$2"
shift 2
versions="${AGENCY_CRM_N8N_VERSIONS:-2.41 1.123}"
for version in $versions; do bash scripts/ensure-n8n.sh "$version"; done
bash scripts/build-and-pack.sh
failed=()
for version in $versions; do
	echo "== $label, n8n $version"
	start=$SECONDS
	if AGENCY_CRM_N8N_VERSION="$version" npx jest --config "$config" "$@"; then
		echo "[$label] n8n $version: passed in $((SECONDS - start)) s"
	else
		echo "[$label] n8n $version: FAILED after $((SECONDS - start)) s"
		failed+=("$version")
	fi
done
if ((${#failed[@]})); then
	echo "[$label] failed on n8n ${failed[*]}"
	exit 1
fi
