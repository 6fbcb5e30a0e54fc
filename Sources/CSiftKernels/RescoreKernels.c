// The re-scoring copy's kernel: int8 rows (every component) against a query coded as int16, over
// a list of scattered rows. The integer sums are exact, so every kernel gives the same values.
#include "SiftKernels.h"

#if defined(__x86_64__) || defined(_M_X64)
#define SIFT_X86 1
#include <immintrin.h>
#include "ScoreReduction.h"
#endif

/// How many scattered rows ahead the kernel prefetches (as the fp16 row-list kernels do).
#define RESCORE_AHEAD 12

static int32_t dot_i8_i16_portable(const int8_t *a, const int16_t *b, size_t n) {
    int32_t s = 0;
    for (size_t j = 0; j < n; j++) s += (int32_t)a[j] * (int32_t)b[j];
    return s;
}

static void rescore_portable(const int8_t *codes, const float *scales, size_t dim, const int32_t *rows, size_t count,
                             const int16_t *query, float query_scale, float *out, int packed) {
    for (size_t i = 0; i < count; i++) {
        size_t r = (size_t)rows[i];
        out[packed ? i : r] = (float)dot_i8_i16_portable(codes + r * dim, query, dim) * scales[r] * query_scale;
    }
}

#ifdef SIFT_X86
/// `dim` a multiple of 32: sixteen codes sign-extended to int16, multiplied by the query's int16
/// codes and added in pairs into int32 lanes (exact while dim · 127 · |query| < 2³¹).
__attribute__((target("avx2"))) static void rescore_avx2(const int8_t *codes, const float *scales, size_t dim, const int32_t *rows,
                                                         size_t count, const int16_t *query, float query_scale, float *out, int packed) {
    for (size_t i = 0; i < count; i++) {
        if (i + RESCORE_AHEAD < count) {
            const char *next = (const char *)(codes + (size_t)rows[i + RESCORE_AHEAD] * dim);
            for (size_t b = 0; b < dim; b += 64) _mm_prefetch(next + b, _MM_HINT_T0);
            _mm_prefetch((const char *)(scales + rows[i + RESCORE_AHEAD]), _MM_HINT_T0);
        }
        size_t r = (size_t)rows[i];
        const int8_t *row = codes + r * dim;
        __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
        for (size_t j = 0; j < dim; j += 32) {
            __m256i c0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(row + j)));
            __m256i c1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(row + j + 16)));
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(c0, _mm256_loadu_si256((const __m256i *)(query + j))));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(c1, _mm256_loadu_si256((const __m256i *)(query + j + 16))));
        }
        out[packed ? i : r] = (float)sift_hsum256_epi32(_mm256_add_epi32(s0, s1)) * scales[r] * query_scale;
    }
}
#endif

void sift_rescore_i8_rows_at_most(int ceiling, const int8_t *codes, const float *scales, size_t dim, const int32_t *rows,
                                  size_t count, const int16_t *query, float query_scale, float *out, int packed) {
#ifdef SIFT_X86
    if (dim % 32 == 0 && ceiling >= 2 && sift_kernel_level() >= 2) {
        rescore_avx2(codes, scales, dim, rows, count, query, query_scale, out, packed);
        return;
    }
#else
    (void)ceiling;
#endif
    rescore_portable(codes, scales, dim, rows, count, query, query_scale, out, packed);
}

void sift_rescore_i8_rows(const int8_t *codes, const float *scales, size_t dim, const int32_t *rows, size_t count,
                          const int16_t *query, float query_scale, float *out, int packed) {
    sift_rescore_i8_rows_at_most(3, codes, scales, dim, rows, count, query, query_scale, out, packed);
}
