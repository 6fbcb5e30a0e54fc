#!/usr/bin/env bash
# Builds the Sift library's documentation with the toolchain's DocC: the symbol graph of the
# Sift module (public symbols only; no dependency's), then the catalog Sources/Sift/Sift.docc,
# into .build/docs (a static site: open .build/docs/index.html through a web server, or
# `docc preview`). Fails on any warning, in the articles or in the doc comments.
# Environment: SWIFT (default swift), DOCS_OUTPUT (default .build/docs).
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
MODULE=Sift
CATALOG=Sources/$MODULE/$MODULE.docc
OUTPUT=${DOCS_OUTPUT:-.build/docs}
GRAPHS=.build/symbol-graphs/$MODULE

tool() {
    # A toolchain tool: on the PATH, beside `swift`, or through xcrun.
    local name=$1 swift_path
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return; fi
    swift_path=$(command -v "$SWIFT" || true)
    if [ -n "$swift_path" ] && [ -x "$(dirname "$(readlink -f "$swift_path")")/$name" ]; then
        echo "$(dirname "$(readlink -f "$swift_path")")/$name"; return
    fi
    if command -v xcrun >/dev/null 2>&1 && xcrun --find "$name" >/dev/null 2>&1; then
        xcrun --find "$name"; return
    fi
    echo "docs: $name not found (it ships with the Swift toolchain)" >&2
    exit 2
}
extract=$(tool swift-symbolgraph-extract)
docc=$(tool docc)

echo "docs: building $MODULE (debug)" >&2
"$SWIFT" build --target "$MODULE" >&2
bin=$("$SWIFT" build --show-bin-path)
args=()
while IFS= read -r arg; do args+=("$arg"); done < <(scripts/swift-module-paths.sh "$bin")
if [ "$(uname -s)" = "Darwin" ]; then
    args+=(-sdk "$(xcrun --show-sdk-path)")
fi
target=$("$SWIFT" -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

rm -rf "$GRAPHS" "$OUTPUT"
mkdir -p "$GRAPHS"
"$extract" -module-name "$MODULE" -target "$target" "${args[@]}" \
    -minimum-access-level public -skip-inherited-docs -output-dir "$GRAPHS"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
"$docc" convert "$CATALOG" --additional-symbol-graph-dir "$GRAPHS" --output-path "$OUTPUT" \
    --fallback-display-name "$MODULE" --fallback-bundle-identifier "org.sift.$MODULE" \
    --fallback-default-module-kind "Framework" --warnings-as-errors --ide-console-output \
    >"$log" 2>&1 || status=$?
sed "s|$PWD/||" "$log"
problems=$(grep -cE '(warning|error): ' "$log" || true)
if [ "$status" -ne 0 ] || [ "$problems" -ne 0 ]; then
    echo "docs: docc reported $problems problem(s) (exit status $status); see above" >&2
    exit 1
fi
echo "docs: $OUTPUT (no warnings)"
