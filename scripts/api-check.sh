#!/usr/bin/env bash
# The public API of the Sift module against the checked-in baseline, api/Sift.json.
#
#   scripts/api-check.sh            builds the library (debug), dumps its public API with the
#                                   toolchain's swift-api-digester and compares it with the
#                                   baseline: exit 1, with the list, when anything public was
#                                   added, removed or changed.
#   scripts/api-check.sh --update   writes the fresh dump to api/Sift.json (after an intended
#                                   change of the public API; commit it with the change).
#
# The baseline is made on Linux: the dump of another platform differs (its Foundation).
# Environment: SWIFT (default swift), API_MODULE (default Sift), API_BASELINE (default
# api/$API_MODULE.json).
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
MODULE=${API_MODULE:-Sift}
BASELINE=${API_BASELINE:-api/$MODULE.json}
update=0
case "${1:-}" in
    --update) update=1 ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

digester=$(command -v swift-api-digester || true)
if [ -z "$digester" ]; then
    swift_path=$(command -v "$SWIFT" || true)
    if [ -n "$swift_path" ] && [ -x "$(dirname "$(readlink -f "$swift_path")")/swift-api-digester" ]; then
        digester="$(dirname "$(readlink -f "$swift_path")")/swift-api-digester"
    elif command -v xcrun >/dev/null 2>&1; then
        digester="xcrun swift-api-digester"
    else
        echo "api-check: swift-api-digester not found (it ships with the Swift toolchain)" >&2
        exit 2
    fi
fi

echo "api-check: building $MODULE (debug)" >&2
"$SWIFT" build --target "$MODULE" >&2
bin=$("$SWIFT" build --show-bin-path)

# Search paths: the built modules and the C targets' module maps.
args=()
while IFS= read -r arg; do args+=("$arg"); done < <(scripts/swift-module-paths.sh "$bin")
if [ "$(uname -s)" = "Darwin" ]; then
    args+=(-sdk "$(xcrun --show-sdk-path)")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fresh="$work/$MODULE.json"
# Run where no path of this checkout can end up in the dump.
(cd "$work" && $digester -dump-sdk -module "$MODULE" "${args[@]}" \
    -o "$fresh" -swift-only -avoid-location -avoid-tool-args -abort-on-module-fail) >&2

if [ "$update" = 1 ]; then
    mkdir -p "$(dirname "$BASELINE")"
    cp "$fresh" "$BASELINE"
    echo "api-check: wrote $BASELINE" >&2
    exit 0
fi
if [ ! -f "$BASELINE" ]; then
    echo "api-check: no baseline $BASELINE: run scripts/api-check.sh --update and commit it" >&2
    exit 1
fi

# The digester reports what the second dump lost or changed against the first: once from the
# baseline to the fresh dump (removed and changed), once the other way round (what it lost
# going back is what was added).
diagnose() {
    $digester -diagnose-sdk -input-paths "$1" -input-paths "$2" 2>&1 \
        | grep -v '^/\*.*\*/$' | grep -v '^[[:space:]]*$' || true
}
removed_or_changed=$(diagnose "$BASELINE" "$fresh")
added=$(diagnose "$fresh" "$BASELINE" | grep -E 'has been removed' \
    | sed -E 's/has been removed( \(deprecated\))?/has been added/' || true)
# Anything else that differs once the tools' own fields are left out (a new conformance the
# digester does not call a breakage, say): compared as normalized JSON.
structural=$(python3 - "$BASELINE" "$fresh" <<'PY'
import json, sys

def flatten(node, path, out):
    name = node.get("printedName") or node.get("name") or ""
    here = path + [f"{node.get('kind')}:{name}"]
    if node.get("kind") == "Import":
        return
    attrs = {k: v for k, v in node.items() if k not in ("children", "tool_arguments", "json_format_version")}
    out.add(" / ".join(here) + "  " + json.dumps(attrs, sort_keys=True))
    for child in node.get("children", []):
        flatten(child, here, out)

sets = []
for path in sys.argv[1:3]:
    out = set()
    flatten(json.load(open(path))["ABIRoot"], [], out)
    sets.append(out)
print(len(sets[0] ^ sets[1]))
PY
)
if [ -z "$removed_or_changed" ] && [ -z "$added" ] && [ "$structural" = 0 ]; then
    echo "api-check: the public API of $MODULE matches $BASELINE"
    exit 0
fi
echo "api-check: the public API of $MODULE differs from $BASELINE:"
[ -n "$removed_or_changed" ] && printf '%s\n' "$removed_or_changed" | sed 's/^/  /'
[ -n "$added" ] && printf '%s\n' "$added" | sed 's/^/  /'
if [ -z "$removed_or_changed" ] && [ -z "$added" ]; then
    echo "  ($structural declaration details differ that the digester does not list; diff the dumps:"
    echo "   scripts/api-check.sh --update && git diff $BASELINE)"
fi
echo "If the change is intended: scripts/api-check.sh --update, and commit $BASELINE with it."
exit 1
