#!/usr/bin/env bash
# Prints, one argument a line, the search-path flags a tool needs to load the package's built
# Swift modules on its own (swift-api-digester, swift-symbolgraph-extract): -I for the build
# folder's modules and for the module maps of the C targets (system libraries' under Sources/,
# the ones SwiftPM generates for C targets in the build folder), -Isystem for the C libraries'
# include directories as pkg-config gives them.
# Usage: scripts/swift-module-paths.sh "$(swift build --show-bin-path)"
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: $0 BIN_PATH}
if [ -d "$bin/Modules" ]; then printf '%s\n' -I "$bin/Modules"; else printf '%s\n' -I "$bin"; fi
for map in Sources/*/module.modulemap Sources/*/include/module.modulemap "$bin"/*.build/module.modulemap; do
    [ -e "$map" ] && printf '%s\n' -I "$(cd "$(dirname "$map")" && pwd)"
done
if command -v pkg-config >/dev/null 2>&1; then
    for flag in $(pkg-config --cflags-only-I openblas lapacke sqlite3 libcrypto 2>/dev/null || true); do
        printf '%s\n' -Isystem "${flag#-I}"
    done
fi
