// The vector scan's inner loops: row-major dot products over the whole matrix (fp32, fp16 or
// int8 rows) and over a list of rows, and the fp16 conversions. Plain C so that the compiler can give each loop the
// widest SIMD the CPU has: on x86-64 the functions check once, at run time, for AVX2 + FMA +
// F16C and AVX-512 (BW, VNNI) and otherwise run portable loops; elsewhere (arm64) the portable
// loops, which the compiler vectorises for the baseline. Only Sources/Sift/Vector calls them, and
// Support/ScatteredReads.swift the prefetch.
#ifndef SIFT_KERNELS_H
#define SIFT_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// `out[r] = Σ_j matrix[r·dim + j] · query[j]` for `r` in `[0, rows)`, fp32 accumulation.
void sift_scores_f32(const float *matrix, size_t rows, size_t dim, const float *query, float *out);

/// `out[rows[i]] = Σ_j matrix[rows[i]·dim + j] · query[j]` for `i` in `[0, count)`; with
/// `packed`, the same sum is written at `out[i]` instead.
void sift_scores_f32_rows(const float *matrix, size_t dim, const int32_t *rows, size_t count,
                          const float *query, float *out, int packed);

/// `out[r] = (float)(Σ_j codes[r·dim + j] · query[j]) · scales[r] · query_scale`: the integer
/// dot product is exact (int32 accumulation of int8 products), so every kernel gives the same
/// values. `dim` must be a multiple of 32 (at most 1,024) for the SIMD kernels (others use the
/// portable loop).
void sift_scores_i8(const int8_t *codes, const float *scales, size_t rows, size_t dim,
                    const int8_t *query, float query_scale, float *out);

/// `sift_scores_i8` with the kernel family capped at `level` (0 portable, 2 AVX2, 3 AVX-512;
/// the machine's own when lower): lets tests run every kernel this machine has.
void sift_scores_i8_at_most(int level, const int8_t *codes, const float *scales, size_t rows, size_t dim,
                            const int8_t *query, float query_scale, float *out);

/// `out[r] = (float)(Σ_j code_j · query[j]) · scales[r] · query_scale` over 4-bit rows of `n`
/// components (`n / 2` bytes a row, as `sift_code_u4` writes them): exact integer sums, so every
/// kernel gives the same values. The AVX-512 kernel takes any `n` up to 1,024, the AVX2 one a
/// multiple of 32 (others use the portable loop).
void sift_scores_u4(const uint8_t *codes, const float *scales, size_t rows, size_t n,
                    const int8_t *query, float query_scale, float *out);

/// `sift_scores_u4` with the kernel family capped at `level` (0 portable, 2 AVX2, 3 AVX-512).
void sift_scores_u4_at_most(int level, const uint8_t *codes, const float *scales, size_t rows, size_t n,
                            const int8_t *query, float query_scale, float *out);

/// Codes the `n` floats of `v` (`n` even) as 4-bit codes -7…7 scaled by their largest magnitude
/// over 7 (`roundf`), component i in the low nibble of byte i and component i + n / 2 in its
/// high nibble, each + 8; returns the scale (0, and all zero bytes, for a zero or non-finite
/// vector).
float sift_code_u4(const float *v, size_t n, uint8_t *codes);

/// Prefetches, for each of `count` records `stride` bytes apart whose first four bytes are a
/// row number in `[lo, hi)`, that row's element of three per-row arrays (`a_size`, `b_size`,
/// `c_size` bytes an element): the keyword walk's scattered reads, asked for ahead of use.
void sift_prefetch_rows(const void *items, size_t stride, size_t count, int32_t lo, int32_t hi,
                        const void *a, size_t a_size, const void *b, size_t b_size, const void *c, size_t c_size);

/// The first `i` in `[0, n)` with `x[i] >= t` (false for NaN), or `n`: where a selection's
/// threshold test next passes, eight (AVX2) scores a compare.
size_t sift_next_at_least(const float *x, size_t n, float t);

/// The rows `i` in `[*start, n)` with `x[i] >= t` and `keep[i] != 0` (a row at or past
/// `keep_count` is not kept), in ascending order, into `out` (at most `capacity` of them);
/// returns how many it wrote and sets `*start` to the row after the last one it looked at (`n`
/// when it looked at every row): call again while `*start < n`.
size_t sift_rows_at_least(const float *x, size_t n, float t, const uint8_t *keep, size_t keep_count,
                          int32_t *out, size_t capacity, size_t *start);

/// fp16 rows (IEEE binary16 bit patterns): `out[r] = Σ_j float(matrix[r·dim + j]) · query[j]`.
/// The conversion to fp32 is exact, and the sums run as in ``sift_scores_f32``.
void sift_scores_f16(const uint16_t *matrix, size_t rows, size_t dim, const float *query, float *out);

/// fp16 rows: `out[rows[i]] = Σ_j float(matrix[rows[i]·dim + j]) · query[j]` (`out[i]` with
/// `packed`).
void sift_scores_f16_rows(const uint16_t *matrix, size_t dim, const int32_t *rows, size_t count,
                          const float *query, float *out, int packed);

/// fp32 → fp16, rounding to nearest even (overflow to ±∞, NaN kept); the same bits on every CPU.
void sift_f32_to_f16(const float *src, uint16_t *dst, size_t n);

/// fp16 → fp32, exact.
void sift_f16_to_f32(const uint16_t *src, float *dst, size_t n);

/// The re-scoring copy's scores over a list of rows: `out[rows[i]] = (float)(Σ_j codes[rows[i]·dim
/// + j] · query[j]) · scales[rows[i]] · query_scale` (at `out[i]` with `packed`), int8 codes
/// against an int16 query. The integer sum is exact (callers keep `dim · 127 · max |query|`
/// below 2³¹), so every kernel gives the same values. Prefetches the rows ahead.
void sift_rescore_i8_rows(const int8_t *codes, const float *scales, size_t dim, const int32_t *rows, size_t count,
                          const int16_t *query, float query_scale, float *out, int packed);

/// `sift_rescore_i8_rows` with the kernel family capped at `level` (0 portable, 2 AVX2).
void sift_rescore_i8_rows_at_most(int level, const int8_t *codes, const float *scales, size_t dim, const int32_t *rows,
                                  size_t count, const int16_t *query, float query_scale, float *out, int packed);

/// Codes `v[0..<n]` as int8, scaled by their largest magnitude to ±127 (each code
/// `roundf(v / scale)`, halves away from zero); returns the scale, 0 (and zero codes) for a zero
/// vector or one that is not finite.
float sift_code_i8(const float *v, size_t n, int8_t *codes);

/// The portable conversions the two functions above fall back to (exposed for tests).
void sift_f32_to_f16_portable(const float *src, uint16_t *dst, size_t n);
void sift_f16_to_f32_portable(const uint16_t *src, float *dst, size_t n);

/// The widest kernel family in use: 0 portable, 2 AVX2 + FMA + F16C, 3 AVX-512 (+ VNNI).
int sift_kernel_level(void);

#ifdef __cplusplus
}
#endif

#endif
