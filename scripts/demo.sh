#!/usr/bin/env bash
# Indexes the bundled sample corpus into a fresh store and answers the sample queries, with
# the clock pinned to the corpus's "now" so date phrases give the same answers every day.
set -euo pipefail
cd "$(dirname "$0")/.."
SIFT=.build/release/sift
STORE=.build/demo-store
NOW=2026-12-02T12:00:00Z
rm -rf "$STORE"
echo "== sift index Examples/demo/sample.jsonl"
"$SIFT" index --store "$STORE" --index demo Examples/demo/sample.jsonl
echo
while IFS= read -r query; do
    [ -z "$query" ] && continue
    echo "== sift search --now $NOW \"$query\""
    "$SIFT" search --store "$STORE" --index demo --now "$NOW" --limit 5 "$query"
    echo
done < Examples/demo/queries.txt
echo "== sift donate --id recipe-yerba-mate-latte --intent OpenRecipe (twice), then sift suggest"
"$SIFT" donate --store "$STORE" --index demo --intent OpenRecipe --at 2026-12-01T08:00:00Z --id recipe-yerba-mate-latte
"$SIFT" donate --store "$STORE" --index demo --intent OpenRecipe --at 2026-12-02T08:00:00Z --id recipe-yerba-mate-latte
"$SIFT" suggest --store "$STORE" --index demo --now "$NOW" --limit 3
echo
echo "== sift search --explain --now $NOW \"last week's expenses\""
"$SIFT" search --store "$STORE" --index demo --now "$NOW" --limit 3 --explain "last week's expenses"
echo
"$SIFT" stats --store "$STORE" --index demo
