#!/usr/bin/env python3
"""A textbook BM25 peer for `sift eval`: plain BM25 over a BEIR-layout collection.

What it computes
  * Each document is `title + " " + text`. Analysis: lowercase, split into runs of Unicode letters and
    digits (`[^\\W_]+`), drop NLTK's 179 English stop words, then the Porter stemmer (Martin Porter's
    reference implementation, including its two published departures: -bli → -ble, -logi → -log).
  * Document length is the number of tokens left after stop-word removal.
  * IDF is Lucene's `ln(1 + (N - df + 0.5) / (df + 0.5))`; a term contributes
    `idf · tf / (tf + k1 · (1 - b + b · dl / avgdl))` (Lucene's form; the constant k1 + 1 of the textbook
    numerator does not change rankings). Defaults k1 0.9, b 0.4 (Anserini/Pyserini).
  * Every query occurrence counts: a word said twice contributes twice, as Lucene does with one clause per
    occurrence. `--dedupe-query-terms` counts each distinct query term once, to show the difference.
  * Only queries with at least one positive judgment in qrels/<split>.tsv are scored; a judged query that
    is missing from queries.jsonl counts as 0 (as beir_eval.py does) and is reported on stderr.
  * Metrics (nDCG@10, Recall@100, MRR@10) are computed exactly as /work/shared/tools/beir_eval.py does,
    over the top 100 per query, ties broken the same way (score descending, then document id as
    beir_eval.py orders it). `--check` runs beir_eval.py on the written run file and fails on a mismatch.

usage
  python3 scripts/bm25_reference.py --dataset ../shared/datasets/scifact [--split test]
      [--k1 0.9] [--b 0.4] [--dedupe-query-terms] [--run FILE] [--queries FILE]
      [--check [--beir-eval PATH]]

The last line of output is one JSON object:
  {"dataset": ..., "split": ..., "ndcg@10": ..., "recall@100": ..., "mrr@10": ..., "queries": n}
Standard library only.
"""
import argparse
import collections
import json
import math
import os
import re
import subprocess
import sys

# NLTK's stopwords.words('english'): 179 words.
STOP_WORDS = frozenset("""
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself yourselves he him
his himself she she's her hers herself it it's its itself they them their theirs themselves what which who
whom this that that'll these those am is are was were be been being have has had having do does did doing
a an the and but if or because as until while of at by for with about against between into through during
before after above below to from up down in out on off over under again further then once here there when
where why how all any both each few more most other some such no nor not only own same so than too very s
t can will just don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn
didn't doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't
needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
""".split())
assert len(STOP_WORDS) == 179, len(STOP_WORDS)

WORD = re.compile(r"[^\W_]+")
DEPTH = 100


class InputError(Exception):
    """A problem with an input file, naming the file and line."""


# ----------------------------------------------------------------------------------------------- Porter
class PorterStemmer:
    """Martin Porter's reference implementation (tartarus.org/martin/PorterStemmer), transcribed from C.

    Words of one or two characters are left alone. Characters outside a–z count as consonants, as in
    the reference code.
    """

    def __init__(self):
        self.cache = {}

    def stem(self, word):
        s = self.cache.get(word)
        if s is None:
            s = self._stem(word)
            self.cache[word] = s
        return s

    # b: the word as a list of characters; k: index of its last character; j: a general offset.
    def _cons(self, i):
        ch = self.b[i]
        if ch in "aeiou":
            return False
        if ch == "y":
            return True if i == 0 else not self._cons(i - 1)
        return True

    def _m(self):
        """The number of consonant sequences between 0 and j: [C](VC){m}[V]."""
        n = 0
        i = 0
        j = self.j
        while True:
            if i > j:
                return n
            if not self._cons(i):
                break
            i += 1
        i += 1
        while True:
            while True:
                if i > j:
                    return n
                if self._cons(i):
                    break
                i += 1
            i += 1
            n += 1
            while True:
                if i > j:
                    return n
                if not self._cons(i):
                    break
                i += 1
            i += 1

    def _vowel_in_stem(self):
        return any(not self._cons(i) for i in range(self.j + 1))

    def _doublec(self, j):
        if j < 1 or self.b[j] != self.b[j - 1]:
            return False
        return self._cons(j)

    def _cvc(self, i):
        if i < 2 or not self._cons(i) or self._cons(i - 1) or not self._cons(i - 2):
            return False
        return self.b[i] not in "wxy"

    def _ends(self, s):
        n = len(s)
        if s[-1] != self.b[self.k] or n > self.k + 1:
            return False
        if "".join(self.b[self.k - n + 1:self.k + 1]) != s:
            return False
        self.j = self.k - n
        return True

    def _setto(self, s):
        self.b[self.j + 1:] = list(s)
        self.k = self.j + len(s)

    def _r(self, s):
        if self._m() > 0:
            self._setto(s)

    def _step1ab(self):
        b = self.b
        if b[self.k] == "s":
            if self._ends("sses"):
                self.k -= 2
            elif self._ends("ies"):
                self._setto("i")
            elif b[self.k - 1] != "s":
                self.k -= 1
            del b[self.k + 1:]
        if self._ends("eed"):
            if self._m() > 0:
                self.k -= 1
                del b[self.k + 1:]
        elif (self._ends("ed") or self._ends("ing")) and self._vowel_in_stem():
            self.k = self.j
            del b[self.k + 1:]
            if self._ends("at"):
                self._setto("ate")
            elif self._ends("bl"):
                self._setto("ble")
            elif self._ends("iz"):
                self._setto("ize")
            elif self._doublec(self.k):
                if b[self.k] not in "lsz":
                    self.k -= 1
                    del b[self.k + 1:]
            elif self._m() == 1 and self._cvc(self.k):
                self._setto("e")

    def _step1c(self):
        if self._ends("y") and self._vowel_in_stem():
            self.b[self.k] = "i"

    STEP2 = {
        "a": (("ational", "ate"), ("tional", "tion")),
        "c": (("enci", "ence"), ("anci", "ance")),
        "e": (("izer", "ize"),),
        "l": (("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous")),
        "o": (("ization", "ize"), ("ation", "ate"), ("ator", "ate")),
        "s": (("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous")),
        "t": (("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")),
        "g": (("logi", "log"),),
    }
    STEP3 = {
        "e": (("icate", "ic"), ("ative", ""), ("alize", "al")),
        "i": (("iciti", "ic"),),
        "l": (("ical", "ic"), ("ful", "")),
        "s": (("ness", ""),),
    }
    STEP4 = {
        "a": ("al",), "c": ("ance", "ence"), "e": ("er",), "i": ("ic",), "l": ("able", "ible"),
        "n": ("ant", "ement", "ment", "ent"), "s": ("ism",), "t": ("ate", "iti"), "u": ("ous",),
        "v": ("ive",), "z": ("ize",),
    }

    def _replace(self, rules):
        """The first suffix in `rules` that ends the word is replaced when m() > 0; later ones are not tried."""
        for suffix, replacement in rules:
            if self._ends(suffix):
                self._r(replacement)
                return

    def _step2(self):
        if self.k >= 1:
            self._replace(self.STEP2.get(self.b[self.k - 1], ()))

    def _step3(self):
        self._replace(self.STEP3.get(self.b[self.k], ()))

    def _step4(self):
        if self.k < 1:
            return
        ch = self.b[self.k - 1]
        if ch == "o":
            if self._ends("ion") and self.j >= 0 and self.b[self.j] in "st":
                pass
            elif self._ends("ou"):
                pass
            else:
                return
        else:
            for suffix in self.STEP4.get(ch, ()):
                if self._ends(suffix):
                    break
            else:
                return
        if self._m() > 1:
            self.k = self.j
            del self.b[self.k + 1:]

    def _step5(self):
        self.j = self.k
        if self.b[self.k] == "e":
            a = self._m()
            if a > 1 or (a == 1 and not self._cvc(self.k - 1)):
                self.k -= 1
        if self.b[self.k] == "l" and self._doublec(self.k) and self._m() > 1:
            self.k -= 1
        del self.b[self.k + 1:]

    def _stem(self, word):
        if len(word) <= 2:
            return word
        self.b = list(word)
        self.k = len(word) - 1
        self.j = 0
        self._step1ab()
        if self.k > 0:
            self._step1c()
            self._step2()
            self._step3()
            self._step4()
            self._step5()
        return "".join(self.b[:self.k + 1])


STEMMER = PorterStemmer()


def analyze(text):
    """Lowercased letter/digit runs, stop words dropped, Porter-stemmed."""
    stem = STEMMER.stem
    return [stem(w) for w in WORD.findall(text.lower()) if w not in STOP_WORDS]


# ------------------------------------------------------------------------------------------------ input
def read_jsonl(path, required=("_id",)):
    """Yields (line number, object) for each non-blank line; raises InputError naming file and line."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line.rstrip("\r\n"))
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{number}: malformed JSON ({e.msg}, column {e.colno})") from None
            if not isinstance(obj, dict):
                raise InputError(f"{path}:{number}: expected a JSON object")
            for key in required:
                if key not in obj or not isinstance(obj[key], (str, int)) or isinstance(obj[key], bool):
                    raise InputError(f"{path}:{number}: expected a JSON object with \"{key}\"")
            obj["_id"] = str(obj["_id"])
            yield number, obj


def field(obj, key, path, number):
    value = obj.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InputError(f"{path}:{number}: \"{key}\" should be a string")
    return value


def read_qrels(path):
    """query id → document id → grade, as beir_eval.py reads it (first line is a header)."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    qrels = collections.defaultdict(dict)
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if number == 1:
                continue
            if not line.strip():
                continue
            try:
                q, d, s = fields[:3]
                qrels[q][d] = int(float(s))
            except ValueError:
                raise InputError(f"{path}:{number}: expected query-id, corpus-id, score separated by tabs") from None
    return qrels


# ----------------------------------------------------------------------------------------------- BM25
class BM25:
    def __init__(self, docs, k1, b):
        """docs: list of (id, token list)."""
        self.ids = [d for d, _ in docs]
        self.postings = collections.defaultdict(list)  # term → [(doc index, tf)]
        lengths = []
        for i, (_, tokens) in enumerate(docs):
            lengths.append(len(tokens))
            for term, tf in collections.Counter(tokens).items():
                self.postings[term].append((i, tf))
        n = len(docs)
        avgdl = sum(lengths) / n if n else 0.0
        self.norm = [k1 * (1 - b + b * dl / avgdl) if avgdl else k1 for dl in lengths]
        self.idf = {t: math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)) for t, p in self.postings.items()}

    def search(self, terms, depth=DEPTH):
        """terms: Counter of query term → weight (its count in the query, or 1)."""
        scores = collections.defaultdict(float)
        norm = self.norm
        for term, qtf in terms.items():
            postings = self.postings.get(term)
            if not postings:
                continue
            w = qtf * self.idf[term]
            for i, tf in postings:
                scores[i] += w * tf / (tf + norm[i])
        if not scores:
            return []
        ranked = sorted(scores.items(), key=lambda x: -x[1])
        if len(ranked) > depth:
            cutoff = ranked[depth - 1][1]
            ranked = [x for x in ranked if x[1] >= cutoff]
        ids = self.ids
        ranked = [(s, ids[i]) for i, s in ranked]
        ranked.sort(key=tie_order)
        return ranked[:depth]


def tie_order(x):
    """beir_eval.py's order: score descending, then its document-id key."""
    return (-x[0], [-ord(c) for c in x[1]])


# --------------------------------------------------------------------------------------------- metrics
def evaluate(qrels, run):
    """beir_eval.py's metrics. run: query id → [(score, doc id)]. Returns (n, ndcg, recall, mrr)."""
    judged = [q for q, rel in qrels.items() if any(v > 0 for v in rel.values())]
    ndcg = rec = mrr = 0.0
    for q in judged:
        ranked = [d for _, d in sorted(run.get(q, []), key=tie_order)]
        rel = qrels[q]
        dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if rel.get(d, 0) > 0)
        ideal = sorted((v for v in rel.values() if v > 0), reverse=True)[:10]
        idcg = sum(v / math.log2(i + 2) for i, v in enumerate(ideal))
        ndcg += dcg / idcg if idcg else 0
        relevant = {d for d, v in rel.items() if v > 0}
        rec += len(relevant & set(ranked[:100])) / len(relevant)
        mrr += next((1 / (i + 1) for i, d in enumerate(ranked[:10]) if d in relevant), 0)
    n = len(judged)
    if n == 0:
        return 0, 0.0, 0.0, 0.0
    return n, ndcg / n, rec / n, mrr / n


def check_with_beir_eval(tool, dataset, run_path, split, ndcg, recall, mrr):
    """Runs beir_eval.py on the run file; returns its line, or raises on a mismatch at 4 decimals."""
    out = subprocess.run([sys.executable, tool, dataset, run_path, "--split", split],
                         capture_output=True, text=True, check=True).stdout.strip()
    m = re.search(r"ndcg@10 ([\d.]+)\s+recall@100 ([\d.]+)\s+mrr@10 ([\d.]+)", out)
    if not m:
        raise RuntimeError(f"unexpected beir_eval.py output: {out!r}")
    theirs = tuple(float(x) for x in m.groups())
    ours = tuple(round(x, 4) for x in (ndcg, recall, mrr))
    if theirs != ours:
        raise RuntimeError(f"beir_eval.py disagrees: it says {theirs}, this script {ours}")
    return out


# ------------------------------------------------------------------------------------------------ main
def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", required=True, help="BEIR directory: corpus.jsonl, queries.jsonl, qrels/")
    p.add_argument("--split", default="test", help="qrels/<split>.tsv (default test)")
    p.add_argument("--k1", type=float, default=0.9)
    p.add_argument("--b", type=float, default=0.4)
    p.add_argument("--dedupe-query-terms", action="store_true", help="count each distinct query term once")
    p.add_argument("--run", help="write a TREC run here (top 100 per query)")
    p.add_argument("--queries", help="queries.jsonl to use instead of the dataset's")
    p.add_argument("--check", action="store_true", help="run beir_eval.py on the run file and compare (needs --run)")
    p.add_argument("--beir-eval", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "..", "shared", "tools", "beir_eval.py"),
                   help="path to beir_eval.py for --check (default ../shared/tools/beir_eval.py beside the repo)")
    args = p.parse_args()
    if args.check and not args.run:
        p.error("--check needs --run")

    try:
        corpus_path = os.path.join(args.dataset, "corpus.jsonl")
        queries_path = args.queries or os.path.join(args.dataset, "queries.jsonl")
        qrels_path = os.path.join(args.dataset, "qrels", f"{args.split}.tsv")
        qrels = read_qrels(qrels_path)
        docs = []
        for number, o in read_jsonl(corpus_path):
            text = field(o, "title", corpus_path, number) + " " + field(o, "text", corpus_path, number)
            docs.append((o["_id"], analyze(text)))
        queries = {o["_id"]: field(o, "text", queries_path, number) for number, o in read_jsonl(queries_path)}
    except InputError as e:
        sys.exit(f"bm25_reference.py: {e}")

    index = BM25(docs, args.k1, args.b)
    judged = sorted(q for q, rel in qrels.items() if any(v > 0 for v in rel.values()))
    missing = [q for q in judged if q not in queries]
    if missing:
        print(f"warning: {len(missing)} judged queries are not in {queries_path} and count as 0: "
              f"{', '.join(missing[:10])}{' …' if len(missing) > 10 else ''}", file=sys.stderr)
    run = {}
    for q in judged:
        if q not in queries:
            continue
        terms = collections.Counter(analyze(queries[q]))
        if args.dedupe_query_terms:
            terms = collections.Counter(dict.fromkeys(terms, 1))
        run[q] = index.search(terms)

    if args.run:
        with open(args.run, "w", encoding="utf-8") as f:
            for q in judged:
                for rank, (score, d) in enumerate(run.get(q, []), 1):
                    f.write(f"{q} Q0 {d} {rank} {score!r} bm25ref\n")

    n, ndcg, recall, mrr = evaluate(qrels, run)
    print(f"documents {len(docs)}  queries {n}  k1 {args.k1}  b {args.b}  "
          f"query terms {'deduplicated' if args.dedupe_query_terms else 'every occurrence'}")
    print(f"ndcg@10 {ndcg:.4f}  recall@100 {recall:.4f}  mrr@10 {mrr:.4f}")
    if args.check:
        try:
            out = check_with_beir_eval(args.beir_eval, args.dataset, args.run, args.split, ndcg, recall, mrr)
        except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
            sys.exit(f"bm25_reference.py: check failed: {e}")
        print(f"beir_eval.py agrees: {out}")
    print(json.dumps({"dataset": os.path.basename(os.path.normpath(args.dataset)), "split": args.split,
                      "ndcg@10": round(ndcg, 4), "recall@100": round(recall, 4), "mrr@10": round(mrr, 4),
                      "queries": n}))


if __name__ == "__main__":
    main()
