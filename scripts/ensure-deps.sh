#!/usr/bin/env bash
# Installs the C libraries Sift links against when they are missing: OpenBLAS, LAPACKE,
# SQLite and OpenSSL's libcrypto (Debian/Ubuntu via apt-get; nothing to do on macOS, where
# Accelerate and the system SQLite are used).
set -euo pipefail
if [ "$(uname -s)" = "Darwin" ]; then exit 0; fi
need=()
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
have_pc openblas || need+=(libopenblas-dev)
have_pc lapacke || need+=(liblapacke-dev)
have_pc sqlite3 || need+=(libsqlite3-dev)
have_pc libcrypto || need+=(libssl-dev)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "sift: missing ${need[*]} and no apt-get here: install them with your package manager" >&2
    exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "sift: installing ${need[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
