#!/usr/bin/env bash
# Installs Chromium from Debian's packages where it is missing (apt-get, as root as on CI here, or
# with password-less sudo), for the test and the screenshots that drive a browser with
# playwright-core. AGENCY_CRM_CHROMIUM names another browser instead.
set -euo pipefail
source "$(dirname "$0")/progress.sh"
if [ -n "${AGENCY_CRM_CHROMIUM:-}" ] || command -v chromium >/dev/null; then exit 0; fi
source "$(dirname "$0")/as-root.sh" \
	"[chromium] missing: install it (apt-get install chromium), run as root, or set AGENCY_CRM_CHROMIUM"
progress chromium "installing Chromium from Debian's packages (apt-get install chromium)" "about 1-2 min" \
	"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive bash -c "apt-get update -qq && apt-get install -y -qq chromium >/dev/null"
