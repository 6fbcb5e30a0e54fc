#!/usr/bin/env python3
"""Training text for distilling the Sift embedder from all-MiniLM-L6-v2.

    python build_corpus.py OUTDIR [--source debian|shared] [--similarity DIR] [--scifact DIR]
                                  [--shared-root DIR] [--seed 13]

Writes, deterministically (sorted inputs, fixed seed):
  OUTDIR/words.tsv       word<TAB>zipf, no header. Top 150,000 [a-z]{2,} words by Zipf frequency,
                         then every WordNet single-word lemma ([a-z]{2,} after lower-casing) not yet
                         present, with zipf 0; at most 200,000 lines.
  OUTDIR/sentences.txt   one text a line, deduplicated: WordNet definitions, examples, multi-word
                         lemmas, "lemma: definition" strings for a seeded subset of synsets,
                         STS-B train + SICK train sentences (--similarity), SciFact TRAIN queries
                         (--scifact; only ids in qrels/train.tsv, never test).
  OUTDIR/corpus.json     counts per source, line ranges of each source in sentences.txt, settings.

Sources:
  --source debian (default): words from the PyPI package `wordfreq` (data CC BY-SA 4.0), WordNet 3.0
      from the Debian package wordnet-base (`apt-get install -y --no-install-recommends wordnet-base`;
      files /usr/share/wordnet/data.{noun,verb,adj,adv}).
  --source shared: the same data as prepared files under ../shared/corpora
      (wordfreq-en-zipf.tsv, wordnet-synsets.jsonl); needs no package, faster.
Only the standard library is needed, except `wordfreq` for --source debian.
"""
import argparse
import csv
import json
import os
import random
import re
import sys
from pathlib import Path

TOP_WORDS = 150_000
MAX_WORDS = 200_000
LEMMA_DEF_FRACTION = 0.25  # share of synsets that also yield a "lemma: definition" line
WORD_RE = re.compile(r"[a-z]+")
WORDNET_DIR = Path("/usr/share/wordnet")
WORDNET_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")
GLOSS_SPLIT_RE = re.compile(r';\s*"')
ADJ_MARKER_RE = re.compile(r"\((?:a|p|ip)\)$")  # syntactic markers on adjective lemmas: able(p)

csv.field_size_limit(1 << 24)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def clean_line(text: str) -> str:
    """One line of text: no tabs/newlines, single spaces, stripped."""
    return " ".join(text.split())


# ---------------------------------------------------------------- words

def words_from_wordfreq():
    import wordfreq  # PyPI wordfreq; data CC BY-SA 4.0

    out = {}
    for w in wordfreq.top_n_list("en", 10**7, wordlist="large"):
        lw = w.lower()
        if len(lw) >= 2 and WORD_RE.fullmatch(lw) and lw not in out:
            out[lw] = wordfreq.zipf_frequency(lw, "en", wordlist="large")
    return out


def words_from_shared(path: Path):
    out = {}
    with open(path, encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        for row in reader:
            lw = (row["word"] or "").lower()
            if len(lw) >= 2 and WORD_RE.fullmatch(lw):
                z = float(row["zipf"])
                if z > out.get(lw, -1.0):
                    out[lw] = z
    return out


def build_words(zipf: dict, synsets: list):
    ranked = sorted(zipf.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_WORDS]
    present = {w for w, _ in ranked}
    extra = set()
    for s in synsets:
        for lemma in s["lemmas"]:
            lw = lemma.lower()
            if len(lw) >= 2 and WORD_RE.fullmatch(lw) and lw not in present:
                extra.add(lw)
    n_extra_all = len(extra)
    # If the cap bites, keep the WordNet lemmas that are most frequent in the full list (zipf of
    # those outside the top 150k is still known), then alphabetical. They are written with zipf 0.
    extra_sorted = sorted(extra, key=lambda w: (-zipf.get(w, 0.0), w))[: MAX_WORDS - len(ranked)]
    rows = [(w, z) for w, z in ranked] + [(w, 0.0) for w in extra_sorted]
    return rows, {"top_by_zipf": len(ranked), "wordnet_lemmas_added": len(extra_sorted),
                  "wordnet_lemmas_not_in_top": n_extra_all}


# ---------------------------------------------------------------- WordNet

def parse_gloss(gloss: str):
    """WordNet gloss -> (definition, [examples]).

    The definition is the text before the first `; "` (a few glosses lack the space: `;"`); the
    examples are the double-quoted parts of the gloss, including the few quoted inside the definition
    (e.g. 'actor: "Hemingway favors active constructions"'). This matches the shared jsonl.
    """
    gloss = gloss.strip()
    m = GLOSS_SPLIT_RE.search(gloss)
    definition = (gloss[:m.start()] if m else gloss).strip().rstrip(";").strip()
    examples = [e.strip() for e in re.findall(r'"([^"]*)"', gloss) if e.strip()]
    return definition, examples


def wordnet_from_debian(root: Path = WORDNET_DIR):
    synsets = []
    for name in WORDNET_FILES:
        path = root / name
        if not path.is_file():
            sys.exit(f"missing {path}: apt-get install -y --no-install-recommends wordnet-base "
                     f"(or use --source shared)")
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("  "):  # license header
                    continue
                data, _, gloss = line.partition(" | ")
                fields = data.split()
                offset, pos, w_cnt = fields[0], fields[2], int(fields[3], 16)
                lemmas = []
                for i in range(w_cnt):
                    lemma = ADJ_MARKER_RE.sub("", fields[4 + 2 * i]).replace("_", " ")
                    lemmas.append(lemma)
                definition, examples = parse_gloss(gloss)
                synsets.append({"id": offset + pos, "pos": pos, "lemmas": lemmas,
                                "definition": definition, "examples": examples})
    return synsets


def wordnet_from_shared(path: Path):
    synsets = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            synsets.append({"id": d["id"], "pos": d["pos"], "lemmas": [l.replace("_", " ") for l in d["lemmas"]],
                            "definition": d.get("definition") or "", "examples": d.get("examples") or []})
    return synsets


# ---------------------------------------------------------------- other sentence sources

def read_tsv_columns(path: Path, columns):
    out = []
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        for row in reader:
            for c in columns:
                v = row.get(c)
                if v:
                    out.append(v)
    return out


def qrels_ids(path: Path):
    ids = set()
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            parts = line.rstrip("\n").split("\t")
            if i == 0 and parts[0] == "query-id":
                continue
            if parts and parts[0]:
                ids.add(parts[0])
    return ids


def scifact_train_queries(root: Path):
    """SciFact queries whose _id is in qrels/train.tsv and NOT in qrels/test.tsv; plus the test query
    texts (returned only so that they can be kept out of the corpus)."""
    train_ids = qrels_ids(root / "qrels" / "train.tsv")
    test_path = root / "qrels" / "test.tsv"
    test_ids = qrels_ids(test_path) if test_path.is_file() else set()
    train, test_texts = [], set()
    with open(root / "queries.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            qid = str(d["_id"])
            if qid in test_ids:
                test_texts.add(clean_line(d["text"]))
            elif qid in train_ids:
                train.append(d["text"])
    return train, test_texts, len(train_ids & test_ids)


# ---------------------------------------------------------------- main

def atomic_write(path: Path, lines):
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line)
            f.write("\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--source", choices=("debian", "shared"), default="debian")
    ap.add_argument("--shared-root", type=Path, default=None,
                    help="folder holding corpora/ (default: ../shared next to the repository, or /work/shared)")
    ap.add_argument("--similarity", type=Path, default=None, help="folder with stsb_train.tsv, sick_train.tsv")
    ap.add_argument("--scifact", type=Path, default=None, help="BEIR SciFact folder (train queries only)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--compare", action="store_true",
                    help="also parse the other WordNet source and print how the two agree")
    args = ap.parse_args()

    shared_root = args.shared_root
    if shared_root is None:
        here = Path(__file__).resolve().parents[3] / "shared"  # <root>/main/Models/pipeline -> <root>/shared
        shared_root = here if here.is_dir() else Path("/work/shared")
    corpora = shared_root / "corpora"

    if args.source == "shared":
        synsets = wordnet_from_shared(corpora / "wordnet-synsets.jsonl")
        zipf = words_from_shared(corpora / "wordfreq-en-zipf.tsv")
    else:
        synsets = wordnet_from_debian()
        zipf = words_from_wordfreq()
    synsets.sort(key=lambda s: s["id"])
    log(f"wordnet ({args.source}): {len(synsets)} synsets; frequency list: {len(zipf)} [a-z]{{2,}} words")

    if args.compare:
        compare_wordnet(synsets, args.source, corpora)

    # words.tsv
    args.outdir.mkdir(parents=True, exist_ok=True)
    word_rows, wstats = build_words(zipf, synsets)
    atomic_write(args.outdir / "words.tsv", (f"{w}\t{z:.2f}" for w, z in word_rows))
    log(f"words.tsv: {len(word_rows)} words ({wstats['top_by_zipf']} by zipf + "
        f"{wstats['wordnet_lemmas_added']} WordNet lemmas with zipf 0)")

    # sentences.txt: sources in a fixed order, each sorted; first occurrence wins
    rng = random.Random(args.seed)
    sources = []
    sources.append(("wordnet_definitions", [s["definition"] for s in synsets if s["definition"]]))
    sources.append(("wordnet_examples", [e for s in synsets for e in s["examples"]]))
    sources.append(("wordnet_multiword_lemmas", [l for s in synsets for l in s["lemmas"] if " " in l.strip()]))
    lemma_defs = []
    for s in synsets:  # synsets are sorted by id, so the draws are reproducible
        pick = rng.random() < LEMMA_DEF_FRACTION
        lemma = rng.choice(s["lemmas"]) if s["lemmas"] else None
        if pick and lemma and s["definition"]:
            lemma_defs.append(f"{lemma}: {s['definition']}")
    sources.append(("wordnet_lemma_definition", lemma_defs))

    test_texts = set()
    if args.similarity and args.similarity.is_dir():
        for name, fname in (("stsb_train", "stsb_train.tsv"), ("sick_train", "sick_train.tsv")):
            p = args.similarity / fname
            if p.is_file():
                sources.append((name, read_tsv_columns(p, ("sentence1", "sentence2"))))
            else:
                log(f"note: {p} not found, skipped")
    elif args.similarity:
        log(f"note: --similarity {args.similarity} is not a folder, skipped")
    if args.scifact and (args.scifact / "qrels" / "train.tsv").is_file():
        train_q, test_texts, overlap = scifact_train_queries(args.scifact)
        if overlap:
            log(f"note: {overlap} SciFact ids in both train and test qrels: excluded")
        sources.append(("scifact_train_queries", train_q))
    elif args.scifact:
        log(f"note: --scifact {args.scifact} has no qrels/train.tsv, skipped")

    seen = set()
    lines, ranges, counts = [], {}, {}
    dropped_test = 0
    for name, texts in sources:
        start = len(lines)
        raw = 0
        for t in sorted({clean_line(t) for t in texts}):
            raw += 1
            if not t or t in seen:
                continue
            if t in test_texts:
                dropped_test += 1
                continue
            seen.add(t)
            lines.append(t)
        counts[name] = {"raw": len(texts), "unique": raw, "written": len(lines) - start}
        ranges[name] = [start, len(lines)]
        log(f"  {name:28s} raw {len(texts):7d}  unique {raw:7d}  written {len(lines) - start:7d}")
    if dropped_test:
        log(f"  dropped {dropped_test} lines equal to a SciFact test query")
    atomic_write(args.outdir / "sentences.txt", lines)
    log(f"sentences.txt: {len(lines)} lines")

    manifest = {
        "source": args.source, "seed": args.seed, "synsets": len(synsets),
        "words": {"rows": len(word_rows), **wstats},
        "sentences": {"rows": len(lines), "sources": counts, "line_ranges": ranges,
                      "dropped_equal_to_scifact_test_query": dropped_test},
        "settings": {"top_words": TOP_WORDS, "max_words": MAX_WORDS, "lemma_definition_fraction": LEMMA_DEF_FRACTION},
    }
    tmp = args.outdir / "corpus.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    os.replace(tmp, args.outdir / "corpus.json")
    print(json.dumps({"words": len(word_rows), "sentences": len(lines),
                      "per_source": {k: v["written"] for k, v in counts.items()}}))


def compare_wordnet(synsets, source, corpora: Path):
    """Print how the Debian parse and the shared jsonl agree (synsets, lemmas, definitions, examples)."""
    other = wordnet_from_shared(corpora / "wordnet-synsets.jsonl") if source == "debian" else wordnet_from_debian()
    # the jsonl marks adjective satellites 's'; Debian data.adj keeps 's' in the pos field too
    a = {s["id"]: s for s in synsets}
    b = {s["id"]: s for s in other}
    common = a.keys() & b.keys()
    same_def = sum(a[k]["definition"] == b[k]["definition"] for k in common)
    same_ex = sum(a[k]["examples"] == b[k]["examples"] for k in common)
    same_lem = sum(a[k]["lemmas"] == b[k]["lemmas"] for k in common)
    log(f"compare: {source} {len(a)} synsets, other {len(b)}; common ids {len(common)}; "
        f"same definition {same_def}, same examples {same_ex}, same lemmas {same_lem}")
    shown = 0
    for k in sorted(common):
        if (a[k]["definition"], a[k]["examples"], a[k]["lemmas"]) != (b[k]["definition"], b[k]["examples"], b[k]["lemmas"]):
            log(f"  {k}: {source}={a[k]} | other={b[k]}")
            shown += 1
            if shown >= 5:
                break


if __name__ == "__main__":
    main()
