#!/usr/bin/env bash
# `npm run check`: lint, types, format, build, then the unit, sandbox and in-process tests (jest):
# what a change to the nodes needs before a commit, in about 5 minutes on 2 cores. `npm test` runs
# the same stages first, then real n8n, queue mode, the installer and `npm start` (CONTRIBUTING:
# docs/contributing.md).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
source scripts/stages.sh
bash scripts/ensure-deps.sh || exit 1
check_stages
stages_end
