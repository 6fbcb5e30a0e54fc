#!/usr/bin/env python3
"""Domain text for distillation: the documents of a BEIR corpus (never its queries or qrels).

    python domain_corpus.py CORPUS.jsonl OUTDIR [--known words.tsv] [--min-count 2]

Writes OUTDIR/domain_sentences.txt (each title and each sentence of each text, deduplicated, in
corpus order), OUTDIR/domain_documents.txt (each document whole, `title + " " + text` on one line,
as the index embeds it; deduplicated, in corpus order) and OUTDIR/domain_words.tsv (words [a-z]{3,}
of the corpus seen at least --min-count times that words.tsv does not already hold, most frequent
first; second column the count). All three are then embedded by teacher.py and passed to sift-train
as --extra-sentences / --extra-documents / --extra-words.
"""
import argparse, json, re, collections
from pathlib import Path

SENT_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9(\[])")
WORD_RE = re.compile(r"[a-z]{3,}")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus", type=Path)
    ap.add_argument("outdir", type=Path)
    ap.add_argument("--known", type=Path)
    ap.add_argument("--min-count", type=int, default=2)
    a = ap.parse_args()
    known = set()
    if a.known:
        known = {l.split("\t", 1)[0] for l in a.known.read_text(encoding="utf-8").splitlines()}
    seen, lines, counts = set(), [], collections.Counter()
    seen_docs, documents = set(), []
    for raw in a.corpus.read_text(encoding="utf-8").splitlines():
        d = json.loads(raw)
        title, text = d.get("title") or "", d.get("text") or ""
        document = title + " " + text
        parts = [title] + SENT_RE.split(text)
        for p in parts:
            p = " ".join(p.split())
            if len(p) >= 8 and p not in seen:
                seen.add(p)
                lines.append(p)
        whole = " ".join(document.split())
        if whole and whole not in seen_docs:
            seen_docs.add(whole)
            documents.append(whole)
        for w in WORD_RE.findall(document.lower()):
            counts[w] += 1
    a.outdir.mkdir(parents=True, exist_ok=True)
    (a.outdir / "domain_sentences.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (a.outdir / "domain_documents.txt").write_text("\n".join(documents) + "\n", encoding="utf-8")
    words = sorted((w for w, c in counts.items() if c >= a.min_count and w not in known), key=lambda w: (-counts[w], w))
    (a.outdir / "domain_words.tsv").write_text("".join(f"{w}\t{counts[w]}\n" for w in words), encoding="utf-8")
    print(json.dumps({"sentences": len(lines), "documents": len(documents), "new_words": len(words)}))

main()
