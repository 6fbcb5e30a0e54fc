#ifndef SIFT_EMBEDDING_KERNELS_H
#define SIFT_EMBEDDING_KERNELS_H
#include <stddef.h>
#include <stdint.h>
#include "WordMemo.h"

/// One feature of a text: the bucket whose row is added, and the weight it is added with.
typedef struct {
    int32_t bucket;
    float weight;
} sift_term;

/// acc[0..<dim] += Σ weight · scale(row) · row over `terms`, for int8 rows of `stride` bytes
/// (an fp32 scale, then `dim` int8 weights). Rows are taken four at a time and summed as
/// (p0 + p1) + (p2 + p3) before being added to acc, in fp32 without fused multiply-adds, so every
/// code path (AVX-512 or AVX2 where the CPU has it, portable C otherwise) gives the same bits.
void sift_accumulate_int8_rows(float *acc, const void *rows, size_t stride,
                               const sift_term *terms, size_t n, size_t dim);

/// `sift_accumulate_int8_rows` with the kernel family capped at `level` (0 portable, 2 AVX2,
/// 3 AVX-512; the machine's own when lower): lets tests run every path this machine has.
void sift_accumulate_int8_rows_at_most(int level, float *acc, const void *rows, size_t stride,
                                       const sift_term *terms, size_t n, size_t dim);

/// The same sums without the SIMD paths (for tests: all must give the same bits).
void sift_accumulate_int8_rows_portable(float *acc, const unsigned char *rows, size_t stride,
                                        const sift_term *terms, size_t n, size_t dim);

/// Asks for the cache line holding `address` ahead of its use (a hint: it loads nothing and
/// cannot fault). The featurizer uses it for the vocabulary filter's probes of the next terms.
static inline void sift_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

/// Whether the AVX2 path is in use on this CPU (for the benchmark's report).
int sift_kernels_avx2(void);

#endif
