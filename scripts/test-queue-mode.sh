#!/usr/bin/env bash
# Runs test/queue-mode: n8n in queue mode (main instance, workers, webhook processor) on Redis and
# PostgreSQL from Debian's packages (installed by scripts/ensure-queue-services.sh where missing),
# with this package installed on every process, once per n8n version (AGENCY_CRM_N8N_VERSIONS,
# default "2.41 1.123"). Ports: AGENCY_CRM_N8N_PORT_BASE + 20 to + 27 for n8n; Redis and PostgreSQL
# take free ports.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
bash scripts/ensure-queue-services.sh
bash scripts/jest-per-n8n.sh queue-mode jest.queue-mode.config.js "$@"
