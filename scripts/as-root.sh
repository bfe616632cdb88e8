# Sourced by the scripts that install Debian packages: `source scripts/as-root.sh "<what to do instead>"`
# sets `as_root`, the prefix that runs a command as root: nothing when root already (CI here),
# `sudo -n` where password-less sudo works (hosted CI runners). Otherwise it prints the advice and exits 1.
as_root=()
if [ "$(id -u)" != 0 ]; then
	if sudo -n true 2>/dev/null; then
		as_root=(sudo -n)
	else
		echo "$1" >&2
		exit 1
	fi
fi
