#!/usr/bin/env bash
# Mutation testing (docs/testing.md): StrykerJS over the modules that carry the node's guarantees, one
# group of stryker.config.mjs at a time (consent, paging, trigger, contact; or those named as
# arguments). Incremental: a mutant whose code and covering tests are as test/stryker-incremental/
# records them keeps its result, the others run; `--full` runs them all (then commit the files).
# Fails when a group's mutation score is under the config's thresholds.break. Every group runs even
# when one failed. The run's time is recorded in .cache/results/mutation-testing.json, under `full`
# or `incremental` (docs/testing.md's figures).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/progress.sh

mode=incremental
force=()
groups=()
for arg in "$@"; do
	case "$arg" in
	--full) mode=full force=(--force) ;;
	*) groups+=("$arg") ;;
	esac
done
((${#groups[@]})) || groups=(consent paging trigger contact)

# The generated contact cases run for each mutant they cover: the gate's 1,000, not the suite's 10,000.
export AGENCY_CRM_PROPERTY_RUNS=1000
failed=()
timings=()
start=$SECONDS
for group in "${groups[@]}"; do
	echo "[mutation] $group ($mode)"
	group_start=$SECONDS
	AGENCY_CRM_MUTATION_GROUP="$group" npx stryker run "${force[@]}" || failed+=("$group")
	timings+=("$group" "$((SECONDS - group_start))")
done

node -e '
const [file, mode, seconds, passed, ...timings] = process.argv.slice(1);
const fs = require("fs");
const os = require("os");
const groups = {};
for (let index = 0; index < timings.length; index += 2) groups[timings[index]] = Number(timings[index + 1]);
let results = {};
try { results = JSON.parse(fs.readFileSync(file, "utf8")); } catch {}
results[mode] = {
	date: new Date().toISOString(),
	machine: { cores: os.cpus().length, platform: process.platform, arch: process.arch, node: process.version },
	seconds: Number(seconds),
	groups,
	passed: passed === "true",
};
fs.mkdirSync(require("path").dirname(file), { recursive: true });
fs.writeFileSync(file, JSON.stringify(results, null, "\t") + "\n");' \
	.cache/results/mutation-testing.json "$mode" "$((SECONDS - start))" "$( ((${#failed[@]})) && echo false || echo true)" "${timings[@]}"

if ((${#failed[@]})); then
	echo "[mutation] under the break threshold, or failed: ${failed[*]} (reports/mutation/<group>.html)"
	exit 1
fi
echo "[mutation] every group passed in $(progress_duration $((SECONDS - start)))"
