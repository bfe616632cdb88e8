#!/usr/bin/env bash
# Every test, in the order that fails fastest: lint, unit and sandbox tests (jest, in-process),
# then the workflows inside real n8n (n8n 2.41 and 1.123), then n8n in queue mode on Redis and
# PostgreSQL (both versions). Installs what it needs on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
echo "== lint, types and format"
npm run lint --silent
npm run typecheck --silent
npm run format:check --silent
echo "== build"
npm run build --silent
echo "== unit, sandbox and in-process tests"
npx jest --config jest.config.js
echo "== real n8n"
bash scripts/test-real-n8n.sh
echo "== queue mode"
bash scripts/test-queue-mode.sh
