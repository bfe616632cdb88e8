#!/usr/bin/env bash
# Installs, where missing, what the queue-mode suite starts beside n8n: Redis and PostgreSQL from
# Debian's packages (apt-get, as root as on CI here, or with password-less sudo). The suite starts
# them itself, on free ports in a temporary folder; nothing is started or enabled here.
set -euo pipefail
missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null || missing+=(postgresql)
if [ ${#missing[@]} -eq 0 ]; then
	echo "[ensure-queue-services] Redis and PostgreSQL are installed"
	exit 0
fi
source "$(dirname "$0")/as-root.sh" \
	"[ensure-queue-services] missing ${missing[*]}: install them (apt-get install ${missing[*]}) or run as root"
echo "[ensure-queue-services] apt-get install ${missing[*]}"
start=$SECONDS
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# policy-rc.d: the packages' own services must not start (the suite runs its own, on its own ports).
policy=/usr/sbin/policy-rc.d
created_policy=''
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\nexit 101\n' | "${as_root[@]}" tee "$policy" >/dev/null
	"${as_root[@]}" chmod +x "$policy"
	created_policy=yes
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [ -n "$created_policy" ]; then "${as_root[@]}" rm -f "$policy"; fi
echo "[ensure-queue-services] installed ${missing[*]} in $((SECONDS - start)) s"
