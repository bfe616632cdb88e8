#!/usr/bin/env bash
# Runs test/queue-mode: n8n in queue mode (main instance, workers, webhook processor) on Redis and
# PostgreSQL from Debian's packages (installed by scripts/ensure-queue-services.sh where missing),
# with this package installed on every process, once per n8n version (AGENCY_CRM_N8N_VERSIONS,
# default "2.41 1.123"). Ports: AGENCY_CRM_N8N_PORT_BASE + 20 to + 27 for n8n; Redis and PostgreSQL
# take free ports.
set -euo pipefail
cd "$(dirname "$0")/.."
versions="${AGENCY_CRM_N8N_VERSIONS:-2.41 1.123}"
bash scripts/ensure-deps.sh
bash scripts/ensure-queue-services.sh
for version in $versions; do bash scripts/ensure-n8n.sh "$version"; done
bash scripts/build-and-pack.sh
for version in $versions; do
	echo "== queue mode, n8n $version"
	start=$SECONDS
	AGENCY_CRM_N8N_VERSION="$version" npx jest --config jest.queue-mode.config.js "$@"
	echo "[queue-mode] n8n $version: $((SECONDS - start)) s"
done
