#!/usr/bin/env python3
"""Teacher peer for sift-bench: texts/s of all-MiniLM-L6-v2 (int8 ONNX on onnxruntime) on the
same texts Sift embeds.

    VENV/bin/python Benchmarks/peers/teacher_peer.py TEXTS_FILE [--threads 1] [--batch 64]

Runs Models/pipeline/teacher_throughput.py (the training pipeline's own teacher, so that the
benchmark measures exactly the model Sift's embedder was distilled from) and prints its one JSON
line: {"texts", "seconds", "per_s", "threads", "batch", "max_len", "model"}. Timed: tokenizing,
the model, pooling and normalisation; not timed: loading the model and one warm-up batch.

Needs the venv made by Models/pipeline/setup_venv.sh (${SIFT_TRAIN_CACHE:-~/.cache/sift-train}/venv);
sift-bench skips this peer, saying so, when that venv is absent. Exit status 2 when the pipeline
script or its packages are missing.
"""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PIPELINE = ROOT / "Models" / "pipeline"


def main() -> int:
    script = PIPELINE / "teacher_throughput.py"
    if not script.is_file():
        print(f"teacher peer: {script} not found", file=sys.stderr)
        return 2
    sys.path.insert(0, str(PIPELINE))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import teacher_throughput  # noqa: E402
    except ImportError as error:  # onnxruntime / tokenizers missing: not the venv of setup_venv.sh
        print(f"teacher peer: {error}; run Models/pipeline/setup_venv.sh", file=sys.stderr)
        return 2
    args = sys.argv[1:]
    if "--json" not in args:
        args.append("--json")
    if not any(a == "--threads" or a.startswith("--threads=") for a in args):
        args += ["--threads", "1"]
    sys.argv = [str(script)] + args
    teacher_throughput.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
