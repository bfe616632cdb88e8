# Sourced by the scripts that install a pinned runtime (n8n, Verdaccio) once into .cache/: a runtime is
# a package.json and its lockfile, and the install holds a stamp of their digest, so that editing
# either installs again and anything else finds the install as it is.

# SHA-256 of files, or of what comes in: sha256sum on Linux, shasum on macOS (which has no sha256sum).
sha256_command() { if command -v sha256sum >/dev/null; then echo sha256sum; else echo "shasum -a 256"; fi; }
sha256_of_input() { $(sha256_command) | cut -d' ' -f1; }

# The digest of the runtime folder $1.
runtime_digest() { cat "$1/package.json" "$1/package-lock.json" | sha256_of_input; }

# Whether the install folder $1 was made from the digest $2 and still holds the file $3.
runtime_installed() { [ -f "$1/.installed" ] && [ "$(cat "$1/.installed")" = "$2" ] && [ -f "$3" ]; }

# Empties the install folder $2 and puts the runtime $1's package.json and lockfile in it.
runtime_prepare() {
	rm -rf "$2"
	mkdir -p "$2"
	cp "$1/package.json" "$1/package-lock.json" "$2/"
}

# Marks the install folder $1 as made from the digest $2 (once its install has succeeded).
runtime_stamp() { echo "$2" >"$1/.installed"; }
