#!/usr/bin/env python3
"""Top-10 agreement of two ranking dumps (scripts/ranking-dump.sh files: qid doc rank score).

Usage: scripts/top10-agreement.py REFERENCE CANDIDATE
Prints the mean over the reference's queries of |top10(ref) ∩ top10(cand)| / |top10(ref)|,
the number of queries whose top 10 differ as a set, and whose order differs."""
import sys
from collections import defaultdict


def load(path):
    runs = defaultdict(list)
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3:
                continue
            runs[parts[0]].append((int(parts[2]), parts[1]))
    return {q: [d for _, d in sorted(v)[:10]] for q, v in runs.items()}


def main():
    ref, cand = load(sys.argv[1]), load(sys.argv[2])
    total, sets, orders = 0.0, 0, 0
    for q, docs in ref.items():
        other = cand.get(q, [])
        total += len(set(docs) & set(other)) / max(len(docs), 1)
        sets += set(docs) != set(other)
        orders += docs != other
    n = max(len(ref), 1)
    print(f"{total / n:.4f} agreement over {len(ref)} queries; {sets} sets differ, {orders} orders differ")


if __name__ == "__main__":
    main()
