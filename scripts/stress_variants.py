#!/usr/bin/env python3
"""Builds stress variants of a BEIR-layout collection, for `sift eval` and scripts/bm25_reference.py.

Variants (each a full BEIR directory: corpus.jsonl, queries.jsonl, qrels/<every split>.tsv):

  <name>-long    Each query becomes a pasted paragraph: its own text followed by the texts of the 3 other
                 queries of the collection (every query in queries.jsonl, not only one split's) nearest
                 to it by BM25-weighted cosine over stemmed terms (the analysis of bm25_reference.py;
                 weights idf · tf·(k1+1)/(tf + k1·(1-b+b·len/avglen)), k1 0.9, b 0.4, idf and lengths
                 over the queries; ties by query id, as strings). Pieces are joined with a space, with a
                 full stop added to a piece that ends without . ? or !. Words repeat, as in a real paste.
                 Ids, other query fields, qrels and corpus.jsonl (a copy) are unchanged.
  <name>-titles  Each document keeps only its title: "text" is set to "". Sift's BEIRDataset
                 (Sources/SiftEvaluation/BEIRDataset.swift) accepts an empty or missing title and text,
                 so no document is dropped; documents whose title is empty are kept (and counted in the
                 output). queries.jsonl and qrels are copies.

usage
  python3 scripts/stress_variants.py --dataset ../shared/datasets/scifact --out /work/eval-variants \\
      --name scifact [--variants long,titles] [--neighbours 3]

Output is deterministic (same input, same bytes). The output directory may not lie inside this
repository or inside the source dataset; an existing variant directory is replaced only if it holds
nothing but corpus.jsonl, queries.jsonl and qrels/. Standard library only.
"""
import argparse
import collections
import json
import math
import os
import shutil
import sys

sys.dont_write_bytecode = True  # importing bm25_reference leaves no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bm25_reference import InputError, analyze, field, read_jsonl  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT_ENTRIES = {"corpus.jsonl", "queries.jsonl", "qrels"}


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False)


def inside(path, root):
    path, root = os.path.realpath(path), os.path.realpath(root)
    return path == root or path.startswith(root + os.sep)


def load(dataset):
    """(corpus objects, query objects in file order, qrels split file names)."""
    corpus_path = os.path.join(dataset, "corpus.jsonl")
    queries_path = os.path.join(dataset, "queries.jsonl")
    qrels_dir = os.path.join(dataset, "qrels")
    corpus = []
    for number, o in read_jsonl(corpus_path):
        field(o, "title", corpus_path, number)
        field(o, "text", corpus_path, number)
        corpus.append(o)
    queries = []
    seen = set()
    for number, o in read_jsonl(queries_path):
        field(o, "text", queries_path, number)
        if o["_id"] in seen:
            raise InputError(f"{queries_path}:{number}: query id {o['_id']!r} appears twice")
        seen.add(o["_id"])
        queries.append(o)
    if not os.path.isdir(qrels_dir):
        raise InputError(f"{qrels_dir}: no such directory")
    splits = sorted(f for f in os.listdir(qrels_dir) if f.endswith(".tsv"))
    if not splits:
        raise InputError(f"{qrels_dir}: no <split>.tsv files")
    return corpus, queries, splits


def neighbours(queries, count, k1=0.9, b=0.4):
    """query id → ids of its `count` nearest other queries, by BM25-weighted cosine (ties by id)."""
    ids = [q["_id"] for q in queries]
    tokens = [analyze(q.get("text") or "") for q in queries]
    n = len(ids)
    df = collections.Counter(t for ts in tokens for t in set(ts))
    idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}
    avglen = sum(map(len, tokens)) / n if n else 0.0
    vectors = []
    for ts in tokens:
        norm = k1 * (1 - b + b * len(ts) / avglen) if avglen else k1
        v = {t: idf[t] * tf * (k1 + 1) / (tf + norm) for t, tf in sorted(collections.Counter(ts).items())}
        length = math.sqrt(sum(w * w for w in v.values()))
        vectors.append({t: w / length for t, w in v.items()} if length else {})
    postings = collections.defaultdict(list)
    for i, v in enumerate(vectors):
        for t, w in v.items():
            postings[t].append((i, w))
    result = {}
    for i, v in enumerate(vectors):
        sims = collections.defaultdict(float)
        for t, w in v.items():
            for j, u in postings[t]:
                if j != i:
                    sims[j] += w * u
        # Rounded so that sums taken in a different order cannot split a tie; queries sharing no term
        # with this one have similarity 0 and fill up the list by id.
        order = sorted((j for j in range(n) if j != i), key=lambda j: (-round(sims.get(j, 0.0), 12), ids[j]))
        result[ids[i]] = [ids[j] for j in order[:count]]
    return result


def sentence(text):
    text = " ".join(text.split())
    return text if not text or text[-1] in ".?!" else text + "."


def write_lines(path, objects):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for o in objects:
            f.write(dumps(o) + "\n")


def replace_dir(tmp, target):
    if os.path.lexists(target):
        if not os.path.isdir(target) or os.path.islink(target):
            raise InputError(f"{target}: exists and is not a directory; not replacing it")
        extra = set(os.listdir(target)) - VARIANT_ENTRIES
        if extra:
            raise InputError(f"{target}: holds {', '.join(sorted(extra))}, not only a variant; not replacing it")
        shutil.rmtree(target)
    os.rename(tmp, target)


def build(dataset, out, name, variants, count):
    corpus, queries, splits = load(dataset)
    os.makedirs(out, exist_ok=True)
    made = []
    for variant in variants:
        target = os.path.join(out, f"{name}-{variant}")
        tmp = os.path.join(out, f".{name}-{variant}.tmp")
        if os.path.lexists(tmp):
            shutil.rmtree(tmp)
        os.makedirs(os.path.join(tmp, "qrels"))
        for s in splits:
            shutil.copyfile(os.path.join(dataset, "qrels", s), os.path.join(tmp, "qrels", s))
        if variant == "long":
            shutil.copyfile(os.path.join(dataset, "corpus.jsonl"), os.path.join(tmp, "corpus.jsonl"))
            near = neighbours(queries, count)
            texts = {q["_id"]: q.get("text") or "" for q in queries}
            longer = []
            for q in queries:
                o = dict(q)
                o["text"] = " ".join(p for p in (sentence(texts[i]) for i in [q["_id"]] + near[q["_id"]]) if p)
                longer.append(o)
            write_lines(os.path.join(tmp, "queries.jsonl"), longer)
            before = sum(len(analyze(texts[q["_id"]])) for q in queries) / max(len(queries), 1)
            after = sum(len(analyze(o["text"])) for o in longer) / max(len(longer), 1)
            note = (f"{len(longer)} queries, each with its {count} nearest; "
                    f"mean terms per query {before:.1f} → {after:.1f}")
        elif variant == "titles":
            shutil.copyfile(os.path.join(dataset, "queries.jsonl"), os.path.join(tmp, "queries.jsonl"))
            docs = []
            for d in corpus:
                o = {"_id": d["_id"], "title": d.get("title") or "", "text": ""}
                o.update((k, v) for k, v in d.items() if k not in o)
                docs.append(o)
            write_lines(os.path.join(tmp, "corpus.jsonl"), docs)
            empty = sum(1 for o in docs if not o["title"].strip())
            note = (f"{len(docs)} documents, text emptied; {empty} with an empty title kept "
                    f"(Sift's BEIRDataset accepts empty title and text), none dropped")
        else:
            raise InputError(f"unknown variant {variant!r}")
        replace_dir(tmp, target)
        made.append((target, note))
    return made, splits


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", required=True, help="source BEIR directory")
    p.add_argument("--out", default="/work/eval-variants", help="where <name>-<variant> directories go")
    p.add_argument("--name", help="collection name (default: the dataset directory's name)")
    p.add_argument("--variants", default="long,titles", help="comma-separated: long, titles")
    p.add_argument("--neighbours", type=int, default=3, help="queries appended in the long variant (default 3)")
    args = p.parse_args()
    name = args.name or os.path.basename(os.path.normpath(args.dataset))
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in ("long", "titles")]
    if unknown:
        p.error(f"unknown variant(s): {', '.join(unknown)}")
    if args.neighbours < 0:
        p.error("--neighbours must be 0 or more")
    if inside(args.out, REPO):
        p.error(f"--out {args.out} is inside the repository {REPO}; put variants outside it")
    if inside(args.out, args.dataset):
        p.error(f"--out {args.out} is inside the source dataset")
    if not os.path.isdir(args.dataset):
        sys.exit(f"stress_variants.py: {args.dataset}: no such directory")
    try:
        made, splits = build(args.dataset, args.out, name, variants, args.neighbours)
    except InputError as e:
        sys.exit(f"stress_variants.py: {e}")
    for target, note in made:
        print(f"{target}: {note}; qrels {', '.join(splits)}")


if __name__ == "__main__":
    main()
