#!/usr/bin/env python3
"""The general model's own training text beside the broad units (issue 17).

    python general_corpus.py SOURCE_DIR BROAD_DIR OUT_DIR [--datasets ../shared/datasets]

SOURCE_DIR holds build_corpus.py's output built WITHOUT --scifact (words.tsv, sentences.txt).
BROAD_DIR holds broad_corpus.py's units.tsv. Writes OUT_DIR/words.tsv (a copy) and
OUT_DIR/sentences.txt, the teacher cache layout sift-train reads: the lines of SOURCE_DIR's
sentences.txt that are not already broad units (compared after lower-casing and whitespace folding,
as broad_corpus.py deduplicates), and that are not the text of any evaluation split: a line equal to
a SciFact or Cranfield text or to a STS-B / SICK sentence of a dev, test or trial file is dropped
(train splits may stay, and do). Prints the counts. Deterministic: sentences.txt order is kept.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import broad_corpus  # noqa: E402


def write_if_changed(path: Path, text: str):
    """Writes text unless the file holds it already (keeps the teacher cache's timestamps)."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def similarity_held_out(directory: Path):
    """Exclusion keys of every sentence of the similarity files that are not train splits."""
    keys = set()
    for path in sorted(directory.glob("*.tsv")):
        if "train" in path.name:
            continue
        with open(path, encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            cols = [i for i, h in enumerate(header) if h.startswith("sentence")]
            for line in f:
                cells = line.rstrip("\n").split("\t")
                keys.update(broad_corpus.exclusion_key(cells[i]) for i in cols if i < len(cells))
    return keys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("source", type=Path)
    ap.add_argument("broad", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--datasets", type=Path, default=Path(__file__).resolve().parents[2] / ".." / "shared" / "datasets")
    a = ap.parse_args()
    units = set()
    with open(a.broad / "units.tsv", encoding="utf-8") as f:
        for line in f:
            units.add(broad_corpus.dedup_key(line.rstrip("\n").split("\t", 1)[1]))
    # Evaluation texts, train splits of the similarity sets left out (they may stay).
    keys = set()
    for sub in sorted(a.datasets.iterdir()) if a.datasets.is_dir() else []:
        if sub.name == "similarity":
            keys |= similarity_held_out(sub)
        else:
            keys |= broad_corpus.load_exclusions(sub)[0]
    kept, in_units, excluded = [], 0, 0
    with open(a.source / "sentences.txt", encoding="utf-8") as f:
        for line in f:
            text = line.rstrip("\n")
            if broad_corpus.dedup_key(text) in units:
                in_units += 1
            elif broad_corpus.exclusion_key(text) in keys:
                excluded += 1
            else:
                kept.append(text)
    a.out.mkdir(parents=True, exist_ok=True)
    write_if_changed(a.out / "sentences.txt", "".join(t + "\n" for t in kept))
    write_if_changed(a.out / "words.tsv", (a.source / "words.tsv").read_text(encoding="utf-8"))
    print(f"general_corpus: {len(kept)} sentences; {in_units} already broad units; "
          f"{excluded} dropped as evaluation text ({len(keys)} keys)", file=sys.stderr)


if __name__ == "__main__":
    main()
