#!/usr/bin/env bash
# Builds nothing: expects `swift build -c release` done (make quality does it).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/quality-gate.py "$@"
