#!/usr/bin/env bash
# Dumps the top 10 (ids and scores, exactly as Swift prints the Float) of every query of
# SciFact test, Cranfield and the demo queries, in keyword, semantic and hybrid mode (hybrid
# also with the int8 scan and with reciprocal-rank fusion; the demo with explanations), so a
# refactor can prove it changed no ranking: run it on the commit before and after, then
#   diff -r BEFORE AFTER
# Usage: scripts/ranking-dump.sh OUTDIR [SIFT_BINARY]   (datasets from ../shared/datasets)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/ranking-dump.sh OUTDIR [SIFT_BINARY]}
SIFT=${2:-.build/release/sift}
DATA=${SIFT_DATASETS:-../shared/datasets}
NOW=2026-12-02T12:00:00Z
mkdir -p "$OUT"
[ -x "$SIFT" ] || { echo "ranking-dump: $SIFT not built (swift build -c release)" >&2; exit 1; }
modes=(keyword semantic hybrid)
for set in scifact cranfield; do
    [ -d "$DATA/$set" ] || { echo "ranking-dump: $DATA/$set missing, skipped" >&2; continue; }
    for mode in "${modes[@]}"; do
        run=$(mktemp)
        "$SIFT" eval --dataset "$DATA/$set" --split test --mode "$mode" --run "$run" >/dev/null
        # TREC run: qid Q0 doc rank score tag; keep ranks 1-10.
        awk '$4 <= 10 { print $1, $3, $4, $5 }' "$run" > "$OUT/$set-$mode.txt"
        rm -f "$run"
    done
done
# The large-index path forced onto these small collections (`--int8`: the int8 scan's nominees
# re-scored exactly; keyword candidates bounded at 2,000, the matches left out setting the cosine
# floor) and reciprocal-rank fusion, hybrid mode. The default ranks SciFact and Cranfield exactly
# (both are under 16,384 documents).
for set in scifact cranfield; do
    [ -d "$DATA/$set" ] || continue
    for variant in "int8:--int8 --int8-components 128 --keyword-candidates 2000" "rrf:--fusion rrf:60"; do
        run=$(mktemp)
        # shellcheck disable=SC2086
        "$SIFT" eval --dataset "$DATA/$set" --split test --mode hybrid ${variant#*:} --run "$run" >/dev/null
        awk '$4 <= 10 { print $1, $3, $4, $5 }' "$run" > "$OUT/$set-hybrid-${variant%%:*}.txt"
        rm -f "$run"
    done
done
store=$(mktemp -d)
"$SIFT" index --store "$store" --index demo Examples/demo/sample.jsonl >/dev/null
for mode in "${modes[@]}"; do
    : > "$OUT/demo-$mode.txt"
    while IFS= read -r query; do
        [ -z "$query" ] && continue
        echo "== $query" >> "$OUT/demo-$mode.txt"
        # Snippets are presentation, not ranking: their key is dropped so that dumps of builds
        # before and after `sift search` printed them compare equal.
        "$SIFT" search --store "$store" --index demo --now "$NOW" --limit 10 --mode "$mode" --explain --json "$query" |
            python3 -c 'import json, sys
o = json.load(sys.stdin)
for r in o.get("results", []): r.pop("snippet", None)
print(json.dumps(o, sort_keys=True, ensure_ascii=False, separators=(",", ":")))' >> "$OUT/demo-$mode.txt"
    done < Examples/demo/queries.txt
done
rm -rf "$store"
wc -l "$OUT"/*.txt | tail -1
