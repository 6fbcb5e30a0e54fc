#!/bin/sh
# Fault tests on real file systems (make test-faults): a 1 MiB tmpfs that fills up and a tmpfs
# that is remounted read-only (root only; mounting needs CAP_SYS_ADMIN), then the permission
# tests again as an unprivileged user, for whom chmod binds. Without root, only the unit-level
# fault tests run (they simulate a full disk with PRAGMA max_page_count).
set -eu
cd "$(dirname "$0")/../.."
SWIFT=${SWIFT:-swift}
SCRATCH=${SIFT_FAULTS_SCRATCH:-.build}

$SWIFT build --build-tests --scratch-path "$SCRATCH"
if [ "$(id -u)" -ne 0 ]; then
    echo "test-faults: not root: no tmpfs; running the unit-level fault tests only"
    exec $SWIFT test --skip-build --scratch-path "$SCRATCH" --filter FaultTests
fi

ROOT=$(mktemp -d /tmp/sift-faults.XXXXXX)
FULL="$ROOT/full"
RO="$ROOT/ro"
mkdir -p "$FULL" "$RO"
cleanup() {
    umount "$FULL" 2>/dev/null || true
    umount "$RO" 2>/dev/null || true
    rm -rf "$ROOT"
}
trap cleanup EXIT INT TERM
if ! mount -t tmpfs -o size=1m tmpfs "$FULL" || ! mount -t tmpfs -o size=8m tmpfs "$RO"; then
    echo "test-faults: cannot mount tmpfs here; running the unit-level fault tests only"
    exec $SWIFT test --skip-build --scratch-path "$SCRATCH" --filter FaultTests
fi
SIFT_FAULT_TMPFS="$FULL" SIFT_FAULT_RO_MOUNT="$RO" $SWIFT test --skip-build --scratch-path "$SCRATCH" --filter FaultTests

# Permissions bind only a user that is not root: run the suite again as nobody.
BINARY=$(find "$SCRATCH/debug/" -maxdepth 1 -name '*PackageTests.xctest' | head -1)
if command -v setpriv >/dev/null 2>&1 && [ -n "$BINARY" ]; then
    NOBODY_TMP=$(mktemp -d /tmp/sift-faults-nobody.XXXXXX)
    chmod 777 "$NOBODY_TMP"
    setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$NOBODY_TMP" TMPDIR="$NOBODY_TMP" \
        "$BINARY" --testing-library swift-testing --filter FaultTests
    rm -rf "$NOBODY_TMP"
fi
echo "test-faults: passed"
