#!/usr/bin/env bash
# Every test, in the order that fails fastest: `npm run check`'s stages (lint, types, format, build,
# unit, sandbox and in-process tests: scripts/stages.sh), then the workflows inside real n8n (n8n
# 2.41 and 1.123), then n8n in queue mode on Redis and PostgreSQL (both versions), then n8n's own
# Community Nodes installer from a registry (both versions), then `npm start` as a user runs it, with
# the sandbox console in Chromium. Installs what it needs on a fresh clone. Every stage runs even when
# an earlier one failed; the exit status is non-zero when any stage failed, and the stages that
# failed are listed at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
source scripts/stages.sh
bash scripts/ensure-deps.sh || exit 1

check_stages
stage "real n8n" bash scripts/test-real-n8n.sh
stage "queue mode" bash scripts/test-queue-mode.sh
stage "installed from a registry by n8n's Community Nodes installer" bash scripts/test-installer.sh
stage "npm start and the sandbox console" bash scripts/test-demo.sh
stages_end
