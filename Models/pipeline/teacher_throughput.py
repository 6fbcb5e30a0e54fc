#!/usr/bin/env python3
"""Throughput of the teacher (all-MiniLM-L6-v2, int8 ONNX on onnxruntime) for benchmark comparisons.

    python teacher_throughput.py TEXTS_FILE [--json] [--threads 1] [--batch 64] [--max-len 128]

Embeds every line of TEXTS_FILE (one text a line) and reports texts per second. Timed: tokenizing
plus the model plus pooling/normalisation, batches sorted by length (as teacher.py does); not timed:
loading the model and one warm-up batch. With --json prints {"texts": N, "seconds": s, "per_s": r}
(plus the settings), else a line of text.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from teacher import Teacher, read_texts  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("texts", type=Path)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--max-len", type=int, default=128)
    args = ap.parse_args()
    os.environ.setdefault("RAYON_NUM_THREADS", str(args.threads))  # tokenizer threads

    texts = read_texts(args.texts)
    if not texts:
        sys.exit("no texts")
    t = Teacher(threads=args.threads, max_len=args.max_len)
    t.embed(texts[: min(len(texts), args.batch)], batch=args.batch)  # warm-up
    start = time.perf_counter()
    emb = t.embed(texts, batch=args.batch)
    seconds = time.perf_counter() - start
    assert emb.shape == (len(texts), 384)
    result = {"texts": len(texts), "seconds": round(seconds, 3), "per_s": round(len(texts) / seconds, 1),
              "threads": args.threads, "batch": args.batch, "max_len": args.max_len,
              "model": "all-MiniLM-L6-v2 int8 ONNX (onnxruntime)"}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['texts']} texts in {result['seconds']} s: {result['per_s']} texts/s "
              f"({args.threads} threads, batch {args.batch})")


if __name__ == "__main__":
    main()
