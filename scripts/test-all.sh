#!/usr/bin/env bash
# `npm test`: every test, in the order that fails fastest: lint, types, format, build, the unit,
# sandbox and in-process tests (jest), then mutation testing of the modules that carry the guarantees
# (StrykerJS), then the workflows inside real n8n (n8n 2.41 and 1.123), then n8n in queue mode on Redis
# and PostgreSQL (both versions), then n8n's own Community Nodes installer from a registry and
# docs/installation.md's commands (both versions), then `npm start` as a user runs it, with the sandbox
# console in Chromium. Installs what it needs on a fresh clone.
# `npm run check` (`--check`): the stages before mutation testing only, no n8n and no browser: what a
# change to the nodes needs before a commit.
# Every stage runs even when an earlier one failed (a flaky file must not hide the results of the
# others); the stages that failed are listed at the end, and the exit status is then non-zero. The run,
# its stages and their times are recorded in .cache/results/npm-test.json (npm-run-check.json), which
# the docs' figures come from (scripts/docs-figures.ts).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh
bash scripts/ensure-deps.sh || exit 1

failed=()
record=()
stage() {
	local name="$1"
	shift
	echo "== $name"
	local start=$SECONDS status=0
	"$@" || status=$?
	if ((status == 0)); then
		echo "[test] $name: passed in $((SECONDS - start)) s"
	else
		echo "[test] $name: FAILED (exit $status) after $((SECONDS - start)) s"
		failed+=("$name")
	fi
	record+=("$name" "$((SECONDS - start))" "$status")
}

# Records the run in .cache/results/$1.json, says how it went, and exits.
finish() {
	local total=$SECONDS
	node -e '
const [file, seconds, ...stages] = process.argv.slice(1);
const fs = require("fs");
const os = require("os");
const ran = [];
for (let index = 0; index < stages.length; index += 3)
	ran.push({ name: stages[index], seconds: Number(stages[index + 1]), passed: stages[index + 2] === "0" });
fs.mkdirSync(require("path").dirname(file), { recursive: true });
fs.writeFileSync(file, JSON.stringify({
	date: new Date().toISOString(),
	machine: { cores: os.cpus().length, platform: process.platform, arch: process.arch, node: process.version },
	seconds: Number(seconds),
	passed: ran.every((stage) => stage.passed),
	stages: ran,
}, null, "\t") + "\n");' ".cache/results/$1.json" "$total" "${record[@]}"
	if ((${#failed[@]})); then
		echo "[test] FAILED stages: ${failed[*]}"
		exit 1
	fi
	echo "[test] every stage passed in $(progress_duration "$total") (recorded in .cache/results/$1.json)"
	exit 0
}

stage "lint" npm run lint --silent
stage "types" npm run typecheck --silent
stage "format" npm run format:check --silent
stage "build" npm run build --silent
# Generated cases of the contact policy (test/inprocess/contactPolicy.test.ts): 1,000 in the gate, 10,000 in the suite.
export AGENCY_CRM_PROPERTY_RUNS="${AGENCY_CRM_PROPERTY_RUNS:-$([ "${1:-}" = --check ] && echo 1000 || echo 10000)}"
stage "unit, sandbox and in-process tests" npx jest --config jest.config.js
[ "${1:-}" = --check ] && finish npm-run-check
stage "mutation testing of the modules that carry the guarantees (StrykerJS)" bash scripts/test-mutation.sh
stage "real n8n" bash scripts/test-real-n8n.sh
stage "queue mode" bash scripts/test-queue-mode.sh
stage "installed from a registry by n8n's Community Nodes installer, and by docs/installation.md" bash scripts/test-installer.sh
stage "npm start and the sandbox console" bash scripts/test-demo.sh
finish npm-test
