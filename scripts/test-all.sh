#!/usr/bin/env bash
# Every test, in the order that fails fastest: lint, unit and sandbox tests (jest, in-process),
# then the workflows inside real n8n (n8n 2.41 and 1.123), then n8n in queue mode on Redis and
# PostgreSQL (both versions), then n8n's own Community Nodes installer from a registry (both
# versions), then `npm start` as a user runs it, with the sandbox console in Chromium. Installs what it needs on a fresh clone. Every stage runs even when an earlier one
# failed (a flaky file must not hide the results of the others); the exit status is non-zero when
# any stage failed, and the stages that failed are listed at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1

failed=()
stage() {
	local name="$1"
	shift
	echo "== $name"
	local start=$SECONDS
	if "$@"; then
		echo "[test] $name: passed in $((SECONDS - start)) s"
	else
		echo "[test] $name: FAILED (exit $?) after $((SECONDS - start)) s"
		failed+=("$name")
	fi
}

stage "lint" npm run lint --silent
stage "types" npm run typecheck --silent
stage "format" npm run format:check --silent
stage "build" npm run build --silent
stage "unit, sandbox and in-process tests" npx jest --config jest.config.js
stage "real n8n" bash scripts/test-real-n8n.sh
stage "queue mode" bash scripts/test-queue-mode.sh
stage "installed from a registry by n8n's Community Nodes installer" bash scripts/test-installer.sh
stage "npm start and the sandbox console" bash scripts/test-demo.sh

if ((${#failed[@]})); then
	echo "[test] FAILED stages: ${failed[*]}"
	exit 1
fi
echo "[test] every stage passed"
