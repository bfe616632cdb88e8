# Sourced by `npm run check` (scripts/check.sh) and `npm test` (scripts/test-all.sh): `stage <name>
# <command…>` runs one stage and says how long it took; every stage runs even when an earlier one
# failed (a flaky file must not hide the results of the others), and `stages_end` lists the stages
# that failed and exits non-zero when one did.

stages_failed=()

stage() {
	local name="$1"
	shift
	echo "== $name"
	local start=$SECONDS
	if "$@"; then
		echo "[test] $name: passed in $((SECONDS - start)) s"
	else
		echo "[test] $name: FAILED (exit $?) after $((SECONDS - start)) s"
		stages_failed+=("$name")
	fi
}

# What `npm run check` runs, and `npm test` first: no n8n, no browser, about 5 minutes on 2 cores.
check_stages() {
	stage "lint" npm run lint --silent
	stage "types" npm run typecheck --silent
	stage "format" npm run format:check --silent
	stage "build" npm run build --silent
	stage "unit, sandbox and in-process tests" npx jest --config jest.config.js
}

stages_end() {
	if ((${#stages_failed[@]})); then
		echo "[test] FAILED stages: ${stages_failed[*]}"
		exit 1
	fi
	echo "[test] every stage passed in $(progress_duration "$SECONDS")"
}
