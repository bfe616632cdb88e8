#!/usr/bin/env bash
# Installs, once, an n8n the real-n8n tests and the demo run: `bash scripts/ensure-n8n.sh 2.41`
# (the default) or `1.123`, from tools/n8n/runtimes/n8n-<version> (package.json and lockfile), into
# the git-ignored .cache/n8n-<version>. A runtime whose package.json asks for Node >= 24 (n8n 2.x)
# runs on the machine's Node when it is 24 or later, else on Node 24 from the npm registry, the build
# for this platform (scripts/node-runtime.sh), under .cache/node24 (.cache/node24/bin/node, which
# tools/n8n/launcher.ts runs). The others run on the machine's Node. A second run finds the stamp and
# returns at once.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/progress.sh"
source "$root/scripts/runtime-stamp.sh"
source "$root/scripts/node-runtime.sh"
version="${1:-2.41}"
cache="$root/.cache"
runtime="$root/tools/n8n/runtimes/n8n-$version"
n8n_dir="$cache/n8n-$version"
[ -f "$runtime/package.json" ] || {
	echo "[ensure-n8n] no runtime $runtime (versions: $(ls "$root/tools/n8n/runtimes" | sed 's/^n8n-//' | tr '\n' ' '))" >&2
	exit 1
}
want="$(runtime_digest "$runtime")"
needs_node24="$(node -p "/>=\\s*24/.test(require('$runtime/package.json').engines?.node ?? '') && Number(process.versions.node.split('.')[0]) < 24 ? 'yes' : ''")"

if [ -n "$needs_node24" ]; then
	node24_package="$(node_runtime_package "$(node -p process.platform)" "$(node -p process.arch)")"
	node24_dir="$cache/node24/node_modules/$node24_package"
	if [ ! -x "$node24_dir/bin/node" ]; then
		mkdir -p "$cache/node24"
		progress ensure-n8n "installing Node 24 from the npm registry ($node24_package@24)" "about 10 s" \
			bash -c "npm install --prefix '$cache/node24' --no-save --no-audit --no-fund --loglevel=error $node24_package@24 >/dev/null"
	fi
	mkdir -p "$cache/node24/bin"
	ln -sfn "../node_modules/$node24_package/bin/node" "$cache/node24/bin/node"
fi

installed_version() { node -p "require('$n8n_dir/node_modules/n8n/package.json').version"; }
if runtime_installed "$n8n_dir" "$want" "$n8n_dir/node_modules/n8n/bin/n8n"; then
	echo "[ensure-n8n] n8n $(installed_version) already installed"
	exit 0
fi

echo "[ensure-n8n] installing n8n $version from tools/n8n/runtimes/n8n-$version, once: later runs find it in .cache/"
start=$SECONDS
runtime_prepare "$runtime" "$n8n_dir"
if [ -n "$needs_node24" ]; then
	export PATH="$cache/node24/bin:$PATH"
	# The machine's npmrc points nodedir at Node 20 headers; native modules must build for Node 24.
	export npm_config_nodedir="$node24_dir"
fi
# --ignore-scripts: an optional dependency's install script downloads zlib/openssl, which fails here.
# Times measured on 2 cores: npm ci 2.5-5 min for 2.41, about 3 min for 1.123; sqlite3 70-90 s.
progress_count="progress_size '$n8n_dir/node_modules'"
progress ensure-n8n "downloading and unpacking n8n $version's packages (npm ci, 2-3 GB)" "about 2-5 min" \
	bash -c "cd '$n8n_dir' && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error"
# --ignore-scripts=false: the build of sqlite3 is its install script, and under npm start or npm test
# npm passes the repository's ignore-scripts on to every npm it runs (npm_config_ignore_scripts).
progress ensure-n8n "compiling sqlite3 for n8n $version (npm rebuild sqlite3)" "about 90 s" \
	bash -c "cd '$n8n_dir' && npm rebuild sqlite3 --ignore-scripts=false --loglevel=error"
# A rebuild that ran no script succeeds without building: without the binding n8n cannot open its database.
[ -f "$n8n_dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ] || {
	echo "[ensure-n8n] sqlite3 was not compiled for n8n $version: its install is left unstamped, the next run installs again" >&2
	exit 1
}

runtime_stamp "$n8n_dir" "$want"
echo "[ensure-n8n] n8n $(installed_version) installed in $((SECONDS - start)) s"
