// Hot loops of the embedding model, with a runtime choice of AVX-512 or AVX2 on x86-64 (the
// package is built for generic x86-64, so the compiler may not use them elsewhere).
#include "EmbeddingKernels.h"
#include "SiftKernels.h"
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define SIFT_X86 1
#endif

static inline float row_factor(const unsigned char *row, float weight) {
    float scale;
    memcpy(&scale, row, sizeof scale);
    return scale * weight;
}

// The scalar sums, components j..<dim, that every path uses in the same order (so the AVX2
// path's tails and the portable loops give the same bits): four rows at a time, then one.
static inline void add4_from(float *acc, size_t j, size_t dim, const int8_t *q0, const int8_t *q1,
                             const int8_t *q2, const int8_t *q3, float s0, float s1, float s2, float s3) {
    for (; j < dim; j++) {
        float a = (float)q0[j] * s0 + (float)q1[j] * s1;
        float b = (float)q2[j] * s2 + (float)q3[j] * s3;
        acc[j] += a + b;
    }
}

static inline void add1_from(float *acc, size_t j, size_t dim, const int8_t *q, float s) {
    for (; j < dim; j++) acc[j] += (float)q[j] * s;
}

void sift_accumulate_int8_rows_portable(float *acc, const unsigned char *rows, size_t stride,
                                const sift_term *terms, size_t n, size_t dim) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const unsigned char *r0 = rows + (size_t)terms[i].bucket * stride;
        const unsigned char *r1 = rows + (size_t)terms[i + 1].bucket * stride;
        const unsigned char *r2 = rows + (size_t)terms[i + 2].bucket * stride;
        const unsigned char *r3 = rows + (size_t)terms[i + 3].bucket * stride;
        float s0 = row_factor(r0, terms[i].weight), s1 = row_factor(r1, terms[i + 1].weight);
        float s2 = row_factor(r2, terms[i + 2].weight), s3 = row_factor(r3, terms[i + 3].weight);
        const int8_t *q0 = (const int8_t *)(r0 + 4), *q1 = (const int8_t *)(r1 + 4);
        const int8_t *q2 = (const int8_t *)(r2 + 4), *q3 = (const int8_t *)(r3 + 4);
        add4_from(acc, 0, dim, q0, q1, q2, q3, s0, s1, s2, s3);
    }
    for (; i < n; i++) {
        const unsigned char *r = rows + (size_t)terms[i].bucket * stride;
        float s = row_factor(r, terms[i].weight);
        const int8_t *q = (const int8_t *)(r + 4);
        add1_from(acc, 0, dim, q, s);
    }
}

#ifdef SIFT_X86
static inline void prefetch_row(const unsigned char *r, size_t stride) {
    for (size_t o = 0; o < stride; o += 64) _mm_prefetch((const char *)r + o, _MM_HINT_T0);
    _mm_prefetch((const char *)r + stride - 1, _MM_HINT_T0);
}

/// The SIMD paths' sums: `add4` adds four rows (components 0..<`dim` rounded down to its width,
/// then `add4_from`'s scalar tail), `add1` one. Inlined into each path with its own adders.
typedef size_t (*sift_add4_fn)(float *acc, size_t dim, const int8_t *q0, const int8_t *q1, const int8_t *q2,
                               const int8_t *q3, float s0, float s1, float s2, float s3);
typedef size_t (*sift_add1_fn)(float *acc, size_t dim, const int8_t *q, float s);

static inline __attribute__((always_inline)) void accumulate_simd(float *acc, const unsigned char *rows, size_t stride,
                                                                  const sift_term *terms, size_t n, size_t dim,
                                                                  sift_add4_fn add4, sift_add1_fn add1) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        // The next four rows are fetched while these four are added: the table is far larger
        // than the caches, so each row is a miss and the loop waits on memory, not arithmetic.
        for (size_t k = i + 4; k < i + 8 && k < n; k++) prefetch_row(rows + (size_t)terms[k].bucket * stride, stride);
        const unsigned char *r0 = rows + (size_t)terms[i].bucket * stride;
        const unsigned char *r1 = rows + (size_t)terms[i + 1].bucket * stride;
        const unsigned char *r2 = rows + (size_t)terms[i + 2].bucket * stride;
        const unsigned char *r3 = rows + (size_t)terms[i + 3].bucket * stride;
        float s0 = row_factor(r0, terms[i].weight), s1 = row_factor(r1, terms[i + 1].weight);
        float s2 = row_factor(r2, terms[i + 2].weight), s3 = row_factor(r3, terms[i + 3].weight);
        const int8_t *q0 = (const int8_t *)(r0 + 4), *q1 = (const int8_t *)(r1 + 4);
        const int8_t *q2 = (const int8_t *)(r2 + 4), *q3 = (const int8_t *)(r3 + 4);
        size_t j = add4(acc, dim, q0, q1, q2, q3, s0, s1, s2, s3);
        add4_from(acc, j, dim, q0, q1, q2, q3, s0, s1, s2, s3);
    }
    for (; i < n; i++) {
        const unsigned char *r = rows + (size_t)terms[i].bucket * stride;
        float s = row_factor(r, terms[i].weight);
        const int8_t *q = (const int8_t *)(r + 4);
        add1_from(acc, add1(acc, dim, q, s), dim, q, s);
    }
}

__attribute__((target("avx2")))
static inline __m256 widen8(const int8_t *q) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)q)));
}

__attribute__((target("avx2")))
static inline size_t add4_avx2(float *acc, size_t dim, const int8_t *q0, const int8_t *q1, const int8_t *q2, const int8_t *q3,
                               float s0, float s1, float s2, float s3) {
    __m256 v0 = _mm256_set1_ps(s0), v1 = _mm256_set1_ps(s1), v2 = _mm256_set1_ps(s2), v3 = _mm256_set1_ps(s3);
    size_t j = 0;
    for (; j + 8 <= dim; j += 8) {
        __m256 a = _mm256_add_ps(_mm256_mul_ps(widen8(q0 + j), v0), _mm256_mul_ps(widen8(q1 + j), v1));
        __m256 b = _mm256_add_ps(_mm256_mul_ps(widen8(q2 + j), v2), _mm256_mul_ps(widen8(q3 + j), v3));
        _mm256_storeu_ps(acc + j, _mm256_add_ps(_mm256_loadu_ps(acc + j), _mm256_add_ps(a, b)));
    }
    return j;
}

__attribute__((target("avx2")))
static inline size_t add1_avx2(float *acc, size_t dim, const int8_t *q, float s) {
    __m256 v = _mm256_set1_ps(s);
    size_t j = 0;
    for (; j + 8 <= dim; j += 8) _mm256_storeu_ps(acc + j, _mm256_add_ps(_mm256_loadu_ps(acc + j), _mm256_mul_ps(widen8(q + j), v)));
    return j;
}

__attribute__((target("avx2")))
static void accumulate_avx2(float *acc, const unsigned char *rows, size_t stride,
                            const sift_term *terms, size_t n, size_t dim) {
    accumulate_simd(acc, rows, stride, terms, n, dim, add4_avx2, add1_avx2);
}

__attribute__((target("avx512f,avx2")))
static inline __m512 widen16(const int8_t *q) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)q)));
}

/// The AVX2 path's sums, sixteen components an instruction: the same multiplications and
/// additions in the same order for every component, so the same bits.
__attribute__((target("avx512f,avx2")))
static inline size_t add4_avx512(float *acc, size_t dim, const int8_t *q0, const int8_t *q1, const int8_t *q2, const int8_t *q3,
                                 float s0, float s1, float s2, float s3) {
    __m512 v0 = _mm512_set1_ps(s0), v1 = _mm512_set1_ps(s1), v2 = _mm512_set1_ps(s2), v3 = _mm512_set1_ps(s3);
    size_t j = 0;
    for (; j + 16 <= dim; j += 16) {
        __m512 a = _mm512_add_ps(_mm512_mul_ps(widen16(q0 + j), v0), _mm512_mul_ps(widen16(q1 + j), v1));
        __m512 b = _mm512_add_ps(_mm512_mul_ps(widen16(q2 + j), v2), _mm512_mul_ps(widen16(q3 + j), v3));
        _mm512_storeu_ps(acc + j, _mm512_add_ps(_mm512_loadu_ps(acc + j), _mm512_add_ps(a, b)));
    }
    return j;
}

__attribute__((target("avx512f,avx2")))
static inline size_t add1_avx512(float *acc, size_t dim, const int8_t *q, float s) {
    __m512 v = _mm512_set1_ps(s);
    size_t j = 0;
    for (; j + 16 <= dim; j += 16) _mm512_storeu_ps(acc + j, _mm512_add_ps(_mm512_loadu_ps(acc + j), _mm512_mul_ps(widen16(q + j), v)));
    return j;
}

__attribute__((target("avx512f,avx2")))
static void accumulate_avx512(float *acc, const unsigned char *rows, size_t stride,
                              const sift_term *terms, size_t n, size_t dim) {
    accumulate_simd(acc, rows, stride, terms, n, dim, add4_avx512, add1_avx512);
}
#endif

int sift_kernels_avx2(void) {
#ifdef SIFT_X86
    return sift_kernel_level() >= 2;
#else
    return 0;
#endif
}

void sift_accumulate_int8_rows(float *acc, const void *rows, size_t stride,
                               const sift_term *terms, size_t n, size_t dim) {
    sift_accumulate_int8_rows_at_most(3, acc, rows, stride, terms, n, dim);
}

void sift_accumulate_int8_rows_at_most(int ceiling, float *acc, const void *rows, size_t stride,
                                       const sift_term *terms, size_t n, size_t dim) {
#ifdef SIFT_X86
    int level = sift_kernel_level() < ceiling ? sift_kernel_level() : ceiling;
    if (level >= 3) {
        accumulate_avx512(acc, (const unsigned char *)rows, stride, terms, n, dim);
        return;
    }
    if (level >= 2) {
        accumulate_avx2(acc, (const unsigned char *)rows, stride, terms, n, dim);
        return;
    }
#else
    (void)ceiling;
#endif
    sift_accumulate_int8_rows_portable(acc, (const unsigned char *)rows, stride, terms, n, dim);
}
