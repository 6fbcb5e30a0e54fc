#!/bin/sh
# libFuzzer targets for Sift (make fuzz). Builds the library once with coverage, AddressSanitizer
# and testability, links one binary per target, seeds a corpus, and runs each target for
# $SIFT_LIBFUZZER_RUNS inputs (default 100000; the model loader a fifth of that, as each of its
# inputs is a file written and mapped) with a fixed seed. Fails on the first crash, leak
# or hang (over 10 s for one input); the input that did it is left in $OUT.
set -eu
cd "$(dirname "$0")/../.."
RUNS=${SIFT_LIBFUZZER_RUNS:-100000}
OUT=${SIFT_FUZZ_BUILD:-.build/fuzz}
TARGETS=${SIFT_FUZZ_TARGETS:-"JSONL QUERY RECORD MODEL SNIPPET"}
mkdir -p "$OUT"

BLAS_INCLUDE=$(pkg-config --cflags-only-I openblas | sed 's/-I//g' | awk '{print $1}')
BLAS_LIB=$(pkg-config --libs-only-L openblas | sed 's/-L//g' | awk '{print $1}')
COMMON="-sanitize=fuzzer,address -O -package-name Sift -I Sources/CSQLite -I Sources/CBLAS -I Sources/CLAPACKE -I Sources/COpenSSL"
[ -n "$BLAS_INCLUDE" ] && COMMON="$COMMON -Xcc -I$BLAS_INCLUDE"
LIBS="-L$OUT -lSift -lopenblas -llapacke -lsqlite3 -lcrypto"
[ -n "$BLAS_LIB" ] && LIBS="-L$BLAS_LIB $LIBS"

# The C kernels (SwiftPM's CSiftKernels target): compiled with AddressSanitizer into a static
# library, with the module map SwiftPM would generate for their headers.
KERNELS="$OUT/CSiftKernels"
mkdir -p "$KERNELS"
printf 'module CSiftKernels {\n    umbrella "%s/Sources/CSiftKernels/include"\n    export *\n}\n' "$(pwd)" >"$KERNELS/module.modulemap"
for c in Sources/CSiftKernels/*.c; do
    clang -c -O2 -fsanitize=address -I Sources/CSiftKernels/include -I Sources/CSiftKernels "$c" \
        -o "$KERNELS/$(basename "$c" .c).o" || { echo "fuzz: $c did not build"; exit 1; }
done
rm -f "$OUT/libCSiftKernels.a"
ar rcs "$OUT/libCSiftKernels.a" "$KERNELS"/*.o
COMMON="$COMMON -I $KERNELS"
LIBS="$LIBS -lCSiftKernels"

echo "fuzz: building the library with -sanitize=fuzzer,address"
# shellcheck disable=SC2046
swiftc $COMMON -parse-as-library -enable-testing -module-name Sift -emit-library -static \
    -emit-module -emit-module-path "$OUT/Sift.swiftmodule" -o "$OUT/libSift.a" \
    $(find Sources/Sift -name '*.swift' | sort) 2>&1 | grep -e 'error:' || true
[ -f "$OUT/libSift.a" ] || { echo "fuzz: the library did not build"; exit 1; }

seed() {
    dir="$OUT/corpus-$1"
    mkdir -p "$dir"
    case $1 in
    JSONL)
        printf '%s' '{"id":"a","title":"Coffee","content":"oat latte","keywords":["coffee"],"date":"2026-11-30","rankingHint":40}' >"$dir/seed-1"
        printf '%s' '{"id":7,"domain":"expense","expires":"2026-11-30T08:00:00.5+01:00","private":false,"hidden":true,"keywords":"one"}' >"$dir/seed-2"
        printf 'not json\n{"id":""}\n\n{"title":"no id"}\r\n' >"$dir/seed-3" ;;
    QUERY)
        printf '%s' "last week's expenses" >"$dir/seed-1"
        printf '%s' "recipes from 2026-11-01 to 2026-11-03 and journal days since Monday" >"$dir/seed-2"
        printf '%s' "in the last 3 months between March and May 2025 on Nov 30th, 2026" >"$dir/seed-3" ;;
    SNIPPET)
        printf '\000%s\n%s' "cafe run" "Un café crème; running runs. 東京 に行きました。☕coffee👨‍👩‍👧" >"$dir/seed-1"
        printf '\001%s\n%s' "esp" "Espresso, espressos and an esplanade.  e\314\201te\314\201" >"$dir/seed-2" ;;
    *)
        printf '\000\000' >"$dir/seed-1"
        printf '\001\020\377\377\377\377' >"$dir/seed-2" ;;
    esac
}

for target in $TARGETS; do
    binary="$OUT/fuzz-$(echo "$target" | tr 'A-Z' 'a-z')"
    echo "fuzz: building $binary"
    swiftc $COMMON -parse-as-library -D "FUZZ_$target" -I "$OUT" Tests/Fuzz/FuzzTargets.swift $LIBS -o "$binary" 2>&1 | grep -e 'error:' || true
    [ -x "$binary" ] || { echo "fuzz: $binary did not build"; exit 1; }
    seed "$target"
    runs=$RUNS
    maxlen=65536
    # Each model input is a file written and memory-mapped: a fifth as many, and smaller.
    [ "$target" = MODEL ] && runs=$((RUNS / 5)) && maxlen=4096
    echo "fuzz: running $binary for $runs inputs"
    status=0
    (cd "$OUT" && "./$(basename "$binary")" -seed=1 -runs="$runs" -max_len="$maxlen" -timeout=10 -rss_limit_mb=4096 \
        -print_final_stats=1 "corpus-$target" >"fuzz-$target.log" 2>&1) || status=$?
    grep -E '^(stat::number_of_executed_units|Done)' "$OUT/fuzz-$target.log" || true
    if [ $status -ne 0 ]; then
        grep -E '(ERROR|SUMMARY|Fatal error|==[0-9]+==)' "$OUT/fuzz-$target.log" | head -20
        echo "fuzz: $target failed (exit $status); log and crashing input in $OUT"
        exit 1
    fi
done
echo "fuzz: libFuzzer targets passed"
