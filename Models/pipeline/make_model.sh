#!/usr/bin/env bash
# Rebuilds Models/sift-ngram-256.siftmodel from scratch (`make model`): venv → training text →
# teacher vectors → sift-train (fit, quantise, evaluate, write) → Models/train.log.
# Caches everything under ${SIFT_TRAIN_CACHE:-$HOME/.cache/sift-train}; nothing but the model and
# its log is written into the repository. About 30–45 minutes on 2 cores (mostly the teacher).
#
#   SHARED=../shared bash Models/pipeline/make_model.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/Models/pipeline"
CACHE="${SIFT_TRAIN_CACHE:-$HOME/.cache/sift-train}"
C="$CACHE/corpus"
SHARED="${SHARED:-$ROOT/../shared}"
[[ -d "$SHARED/datasets" ]] || SHARED=/work/shared
DATA="$SHARED/datasets"
OUT="${SIFT_MODEL_OUT:-$ROOT/Models/sift-ngram-256.siftmodel}"

VENV="$(bash "$HERE/setup_venv.sh")"
PY="$VENV/bin/python"
SOURCE="${SIFT_CORPUS_SOURCE:-shared}"   # shared (../shared/corpora) or debian (wordnet-base + wordfreq)
mkdir -p "$C"
"$PY" "$HERE/build_corpus.py" "$C" --source "$SOURCE" --shared-root "$SHARED" \
    --similarity "$DATA/similarity" --scifact "$DATA/scifact" >&2
# Domain text: the SciFact documents (no queries, no judgments).
"$PY" "$HERE/domain_corpus.py" "$DATA/scifact/corpus.jsonl" "$C" --known "$C/words.tsv" >&2
for f in words.tsv sentences.txt domain_words.tsv domain_sentences.txt; do
    "$PY" "$HERE/teacher.py" "$C/$f" "$C/${f%.*}.f32" >&2
done
# Whole documents, as the index embeds them: up to the teacher's 256 word pieces (128 truncates
# most of them; 3,710 of 5,183 still reach 256).
"$PY" "$HERE/teacher.py" "$C/domain_documents.txt" "$C/domain_documents.f32" --max-len 256 >&2

cd "$ROOT"
swift build -c release --product sift-train >&2
for seed in 11 23; do
    python3 "$SHARED/tools/typo_queries.py" "$DATA/scifact" "$CACHE/scifact-typo-$seed" --seed $seed >&2
done
.build/release/sift-train train --corpus "$C" --out "$OUT" --log "$ROOT/Models/train.log" \
    --extra-words "$C/domain_words.tsv" --extra-sentences "$C/domain_sentences.txt" \
    --extra-documents "$C/domain_documents.txt" --document-example-weight 20 \
    --bigram-weight 0.3 --word-example-weight 0.25 --typo-top 100000 --typo-copies 3 --typo-weight 1 \
    --filter-bits 24 --iterations 96 --checkpoints 64,80 \
    --similarity "$DATA/similarity" --beir "$DATA/scifact" --split train --split test \
    --typo "$CACHE/scifact-typo-11" --typo "$CACHE/scifact-typo-23"
