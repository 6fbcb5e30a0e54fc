#!/usr/bin/env bash
# The public API of the library's modules against the checked-in baselines, api/<Module>.json.
#
#   scripts/api-check.sh [MODULE ...]            builds each module (debug), dumps its public
#                                                API with the toolchain's swift-api-digester and
#                                                compares it with api/MODULE.json: exit 1, with
#                                                the list, when anything public was added,
#                                                removed or changed.
#   scripts/api-check.sh --update [MODULE ...]   writes the fresh dumps to api/MODULE.json
#                                                (after an intended change of the public API;
#                                                commit them with the change).
#
# MODULE defaults to Sift. The baselines are made on Linux: the dump of another platform or
# toolchain differs (its Foundation, the digester's format). Environment: SWIFT (default swift).
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
case "${1:-}" in -*) echo "usage: $0 [--update] [MODULE ...]" >&2; exit 2 ;; esac
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(Sift)

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

for module in "${modules[@]}"; do
    echo "api-check: building $module (debug)" >&2
    "$SWIFT" build --target "$module" >&2
done
bin=$("$SWIFT" build --show-bin-path)

# Search paths: the built modules and the C targets' module maps.
args=()
while IFS= read -r arg; do args+=("$arg"); done < <(scripts/swift-module-paths.sh "$bin")
if [ "$(uname -s)" = "Darwin" ]; then
    args+=(-sdk "$(xcrun --show-sdk-path)")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The digester reports what the second dump lost or changed against the first.
diagnose() {
    $digester -diagnose-sdk -input-paths "$1" -input-paths "$2" 2>&1 \
        | grep -v '^/\*.*\*/$' | grep -v '^[[:space:]]*$' || true
}

# The declarations that differ between two dumps once the tools' own fields and the imports are
# left out, one a line ("added", "removed", "changed" and the declaration's path): catches what
# the digester does not call a breakage (a new conformance, say).
structural_differences() {
    python3 - "$1" "$2" <<'PY'
import json, sys
from collections import defaultdict

def flatten(node, path, out):
    if node.get("kind") == "Import":
        return
    here = path + [f"{node.get('kind')} {node.get('printedName') or node.get('name') or ''}"]
    attrs = {k: v for k, v in node.items() if k not in ("children", "tool_arguments", "json_format_version")}
    out[" / ".join(here[1:]) or "(module)"].add(json.dumps(attrs, sort_keys=True))
    for child in node.get("children", []):
        flatten(child, here, out)

old, new = defaultdict(set), defaultdict(set)
flatten(json.load(open(sys.argv[1]))["ABIRoot"], [], old)
flatten(json.load(open(sys.argv[2]))["ABIRoot"], [], new)
for path in sorted(set(old) | set(new)):
    if path not in old:
        print(f"added:   {path}")
    elif path not in new:
        print(f"removed: {path}")
    elif old[path] != new[path]:
        detail = ""
        if len(old[path]) == 1 and len(new[path]) == 1:
            a, b = json.loads(next(iter(old[path]))), json.loads(next(iter(new[path])))
            parts = []
            for key in sorted(set(a) | set(b)):
                if a.get(key) == b.get(key):
                    continue
                if key == "conformances":
                    names = lambda d: {c.get("printedName") or c.get("name") for c in d.get(key, [])}
                    parts += [f"conformance {n} added" for n in sorted(names(b) - names(a))]
                    parts += [f"conformance {n} removed" for n in sorted(names(a) - names(b))]
                else:
                    parts.append(f"{key}: {json.dumps(a.get(key))} -> {json.dumps(b.get(key))}"[:200])
            detail = " (" + "; ".join(parts) + ")" if parts else ""
        print(f"changed: {path}{detail}")
PY
}

status=0
for module in "${modules[@]}"; do
    baseline="api/$module.json"
    fresh="$work/$module.json"
    # Run where no path of this checkout can end up in the dump.
    (cd "$work" && $digester -dump-sdk -module "$module" "${args[@]}" \
        -o "$fresh" -swift-only -avoid-location -avoid-tool-args -abort-on-module-fail) >&2

    if [ "$update" = 1 ]; then
        mkdir -p api
        # The same JSON without the digester's indentation, a value a line: it halves the file
        # (1.7 → 0.9 MB for Sift, package symbols included) and still diffs line by line.
        python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), indent=0, separators=(",", ":"), ensure_ascii=False)' \
            "$fresh" "$baseline"
        echo "api-check: wrote $baseline"
        continue
    fi
    if [ ! -f "$baseline" ]; then
        echo "api-check: no baseline $baseline: run scripts/api-check.sh --update $module and commit it" >&2
        status=1
        continue
    fi

    # Once from the baseline to the fresh dump (removed and changed), once the other way round
    # (what the baseline lacks is what was added).
    removed_or_changed=$(diagnose "$baseline" "$fresh")
    added=$(diagnose "$fresh" "$baseline" | grep -E 'has been removed' \
        | sed -E 's/has been removed( \(deprecated\))?/has been added/' || true)
    structural=$(structural_differences "$baseline" "$fresh")
    if [ -z "$removed_or_changed" ] && [ -z "$added" ] && [ -z "$structural" ]; then
        echo "api-check: the public API of $module matches $baseline"
        continue
    fi
    status=1
    echo "api-check: the public API of $module differs from $baseline:"
    if [ -n "$removed_or_changed" ]; then printf '%s\n' "$removed_or_changed" | sed 's/^/  /'; fi
    if [ -n "$added" ]; then printf '%s\n' "$added" | sed 's/^/  /'; fi
    if [ -z "$removed_or_changed" ] && [ -z "$added" ]; then
        echo "  declarations that differ (the digester lists no breakage):"
        printf '%s\n' "$structural" | head -40 | sed 's/^/    /'
    fi
    echo "  If the change is intended: scripts/api-check.sh --update $module, and commit $baseline with it."
done
exit $status
