#ifndef SIFT_ATOMICS_H
#define SIFT_ATOMICS_H

#include <stdint.h>

// Sequentially consistent atomics on one 64-bit word, for Sift's worker pool
// (Sources/Sift/Support/WorkerPool.swift), which must build where the Synchronization module
// needs a newer OS than the package asks for.

int64_t sift_atomic_load(const int64_t *p);
void sift_atomic_store(int64_t *p, int64_t v);
/// Adds `v`; returns the value before.
int64_t sift_atomic_fetch_add(int64_t *p, int64_t v);
/// Stores `desired` if `*p` is `expected`; returns whether it did.
int sift_atomic_compare_exchange(int64_t *p, int64_t expected, int64_t desired);
/// A hint that the caller is spinning (x86 `pause`; nothing elsewhere).
void sift_spin_pause(void);

#endif
