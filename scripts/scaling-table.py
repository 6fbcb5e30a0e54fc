#!/usr/bin/env python3
"""Prints the scaling table of a multi-size `sift-bench --json` run (Markdown): each measure at
each N beside its peer or bound from the same run, and its growth from one size to the next.

Usage: scripts/scaling-table.py RUN.json
"""
import json
import sys


def growth(values):
    """'×g' from each size to the next (the sizes' ratio is given in the header)."""
    out = []
    for a, b in zip(values, values[1:]):
        out.append("—" if not a or not b else f"×{b / a:.2f}")
    return out


def table(run):
    """The Markdown table of `run` (a parsed `sift-bench --json` file)."""
    by = {}
    for r in run["results"]:
        by.setdefault(r["measure"], {})[r["n"]] = r
    sizes = sorted({r["n"] for r in run["results"] if r["measure"] == "index"})
    rows = []

    def add(measure, name, unit, value, peer=None):
        results = by.get(measure, {})
        vals = [value(results[n]) if n in results else None for n in sizes]
        peers = [peer(results[n]) if peer and n in results else None for n in sizes]
        rows.append((name, unit, vals, peers))

    def fmt(v):
        if v is None:
            return "—"
        if v >= 100:
            return f"{v:,.0f}"
        if v >= 10:
            return f"{v:.1f}"
        return f"{v:.3g}"

    add("index", "indexing", "items/s", lambda r: r.get("per_s"),
        lambda r: r.get("peer_per_s") and f"FTS5 {fmt(r['peer_per_s'])}/s ({r['ratio']:.2f}×)")
    add("open", "cold open p50", "ms", lambda r: r.get("p50_ms"))
    add("query.keyword", "keyword p50", "ms", lambda r: r.get("p50_ms"),
        lambda r: r.get("peer_p50_ms") and f"FTS5 {fmt(r['peer_p50_ms'])} ms ({r['ratio']:.1f}× faster)")
    for mode in ["semantic", "hybrid"]:
        add(f"query.{mode}", f"{mode} p50", "ms", lambda r: r.get("p50_ms"),
            lambda r: r.get("bound_ms") and (
                f"bound {fmt(r['bound_ms'])} ms ({r['p50_ms'] / r['bound_ms']:.2f}×), exact path {fmt(r.get('exact_p50_ms'))} ms, "
                f"top-10 agreement {r.get('agreement_at_10', float('nan')):.3f}"))
    add("memory", "memory", "B/item", lambda r: r.get("bytes_per_item"),
        lambda r: r.get("peer_disk_bytes_per_item") and f"disk {fmt(r['disk_bytes_per_item'])} B/item (FTS5 {fmt(r['peer_disk_bytes_per_item'])})")
    # The same resident bytes split by what backs them, where the run measured it.
    if any("anonymous_bytes_per_item" in r for r in by.get("memory", {}).values()):
        add("memory", "memory, anonymous", "B/item", lambda r: r.get("anonymous_bytes_per_item"))
        add("memory", "memory, mapped file", "B/item", lambda r: r.get("mapped_file_bytes_per_item"))
    lines = ["| measure | " + " | ".join(f"{n:,}" for n in sizes) + " | growth per step | peer or bound, same run (at each N) |",
             "|" + "---|" * (len(sizes) + 3)]
    for name, unit, vals, peers in rows:
        cells = " | ".join(fmt(v) for v in vals)
        g = ", ".join(growth(vals))
        p = "; ".join(f"{n:,}: {x}" for n, x in zip(sizes, peers) if x)
        lines.append(f"| {name} ({unit}) | {cells} | {g} | {p} |")
    return "\n".join(lines)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(table(json.load(f)))
