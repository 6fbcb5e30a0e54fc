#include "SiftKernels.h"
#include "CodeScale.h"
#include <math.h>
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#define SIFT_X86 1
#include <cpuid.h>
#include <immintrin.h>
#include "ScoreReduction.h"
#endif

// MARK: Portable loops (any CPU; the compiler vectorises them for the baseline ISA).

static float dot_f32_portable(const float *a, const float *b, size_t n) {
    // Eight partial sums, so that the loop can run in SIMD lanes without reassociation.
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (int k = 0; k < 8; k++) s[k] += a[j + k] * b[j + k];
    float t = ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
    for (; j < n; j++) t += a[j] * b[j];
    return t;
}

// fp16 ⇄ fp32 without hardware support (F. Giesen's float_to_half_fast3_rtne and its inverse).
static uint16_t f32_to_f16_portable(float value) {
    uint32_t x;
    memcpy(&x, &value, 4);
    uint32_t sign = (x >> 16) & 0x8000;
    x &= 0x7FFFFFFF;
    uint16_t h;
    if (x >= 0x47800000) {  // ≥ 65536, ∞ or NaN
        h = x > 0x7F800000 ? 0x7E00 : 0x7C00;
    } else if (x < 0x38800000) {  // below the smallest normal half: let an fp32 add round it
        const uint32_t magic_bits = ((127 - 15) + (23 - 10) + 1) << 23;
        float magic, f;
        memcpy(&magic, &magic_bits, 4);
        memcpy(&f, &x, 4);
        f += magic;
        uint32_t y;
        memcpy(&y, &f, 4);
        h = (uint16_t)(y - magic_bits);
    } else {
        uint32_t odd = (x >> 13) & 1;
        x += ((uint32_t)(15 - 127) << 23) + 0xFFF;
        x += odd;
        h = (uint16_t)(x >> 13);
    }
    return (uint16_t)(h | sign);
}

static float f16_to_f32_portable(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF, x;
    if (exponent == 0) {
        if (mantissa == 0) {
            x = sign;
        } else {  // subnormal: normalise
            exponent = 127 - 15 + 1;
            while (!(mantissa & 0x400)) { mantissa <<= 1; exponent--; }
            x = sign | (exponent << 23) | ((mantissa & 0x3FF) << 13);
        }
    } else if (exponent == 31) {
        x = sign | 0x7F800000 | (mantissa << 13);
    } else {
        x = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static float dot_f16_portable(const uint16_t *a, const float *b, size_t n) {
    float s[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        for (int k = 0; k < 8; k++) s[k] += f16_to_f32_portable(a[j + k]) * b[j + k];
    float t = ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
    for (; j < n; j++) t += f16_to_f32_portable(a[j]) * b[j];
    return t;
}

static int32_t dot_i8_portable(const int8_t *a, const int8_t *b, size_t n) {
    int32_t s = 0;
    for (size_t j = 0; j < n; j++) s += (int32_t)a[j] * (int32_t)b[j];
    return s;
}

#ifdef SIFT_X86

// MARK: CPU features, checked once.

enum { LEVEL_UNKNOWN = -1, LEVEL_PORTABLE = 0, LEVEL_AVX2 = 2, LEVEL_AVX512 = 3 };
static int level_cache = LEVEL_UNKNOWN;

static unsigned long long xgetbv0(void) {
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

static int detect_level(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return LEVEL_PORTABLE;
    int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
    if (!(fma && osxsave && avx && f16c)) return LEVEL_PORTABLE;
    unsigned long long xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6) return LEVEL_PORTABLE;  // the OS saves SSE and AVX state
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return LEVEL_PORTABLE;
    int avx2 = (b >> 5) & 1;
    if (!avx2) return LEVEL_PORTABLE;
    int avx512f = (b >> 16) & 1, avx512bw = (b >> 30) & 1, avx512vnni = (c >> 11) & 1;
    if (avx512f && avx512bw && avx512vnni && (xcr0 & 0xE6) == 0xE6) return LEVEL_AVX512;
    return LEVEL_AVX2;
}

int sift_kernel_level(void) {
    // A benign race: every thread computes and stores the same value.
    int level = __atomic_load_n(&level_cache, __ATOMIC_RELAXED);
    if (level == LEVEL_UNKNOWN) {
        level = detect_level();
        __atomic_store_n(&level_cache, level, __ATOMIC_RELAXED);
    }
    return level;
}

// MARK: AVX2 + FMA

/// How many scattered rows ahead the row-list kernels prefetch: enough misses in flight to
/// cover the memory latency (~100 ns) with the ~10 ns a row takes to sum.
#define PREFETCH_AHEAD 12

__attribute__((target("avx2,fma"))) static inline float hsum256(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

/// One row against the query, `dim` a multiple of 32.
__attribute__((target("avx2,fma"))) static inline float dot_f32_avx2(const float *a, const float *q, size_t dim) {
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    for (size_t j = 0; j < dim; j += 32) {
        s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + j), _mm256_loadu_ps(q + j), s0);
        s1 = _mm256_fmadd_ps(_mm256_loadu_ps(a + j + 8), _mm256_loadu_ps(q + j + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_loadu_ps(a + j + 16), _mm256_loadu_ps(q + j + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_loadu_ps(a + j + 24), _mm256_loadu_ps(q + j + 24), s3);
    }
    return hsum256(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
}

__attribute__((target("avx2,fma"))) static void scores_f32_avx2(const float *m, size_t rows, size_t dim, const float *q, float *out) {
    for (size_t r = 0; r < rows; r++) out[r] = dot_f32_avx2(m + r * dim, q, dim);
}

__attribute__((target("avx2,fma"))) static void scores_f32_rows_avx2(const float *m, size_t dim, const int32_t *rows, size_t count, const float *q, float *out, int packed) {
    // The rows are scattered, each a miss to memory: keep PREFETCH_AHEAD of them in flight.
    for (size_t i = 0; i < count; i++) {
        if (i + PREFETCH_AHEAD < count) {
            const char *next = (const char *)(m + (size_t)rows[i + PREFETCH_AHEAD] * dim);
            for (size_t b = 0; b < dim * sizeof(float); b += 64) _mm_prefetch(next + b, _MM_HINT_T0);
        }
        out[packed ? i : (size_t)rows[i]] = dot_f32_avx2(m + (size_t)rows[i] * dim, q, dim);
    }
}

/// One fp16 row against the query, `dim` a multiple of 32: the same sums as `dot_f32_avx2` on
/// the row converted to fp32.
__attribute__((target("avx2,fma,f16c"))) static inline float dot_f16_avx2(const uint16_t *a, const float *q, size_t dim) {
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    for (size_t j = 0; j < dim; j += 32) {
        s0 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + j))), _mm256_loadu_ps(q + j), s0);
        s1 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + j + 8))), _mm256_loadu_ps(q + j + 8), s1);
        s2 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + j + 16))), _mm256_loadu_ps(q + j + 16), s2);
        s3 = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + j + 24))), _mm256_loadu_ps(q + j + 24), s3);
    }
    return hsum256(_mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3)));
}

__attribute__((target("avx2,fma,f16c"))) static void scores_f16_avx2(const uint16_t *m, size_t rows, size_t dim, const float *q, float *out) {
    for (size_t r = 0; r < rows; r++) out[r] = dot_f16_avx2(m + r * dim, q, dim);
}

__attribute__((target("avx2,fma,f16c"))) static void scores_f16_rows_avx2(const uint16_t *m, size_t dim, const int32_t *rows, size_t count, const float *q, float *out, int packed) {
    for (size_t i = 0; i < count; i++) {
        if (i + PREFETCH_AHEAD < count) {
            const char *next = (const char *)(m + (size_t)rows[i + PREFETCH_AHEAD] * dim);
            for (size_t b = 0; b < dim * sizeof(uint16_t); b += 64) _mm_prefetch(next + b, _MM_HINT_T0);
        }
        out[packed ? i : (size_t)rows[i]] = dot_f16_avx2(m + (size_t)rows[i] * dim, q, dim);
    }
}

__attribute__((target("avx2,f16c"))) static void f32_to_f16_f16c(const float *src, uint16_t *dst, size_t n) {
    size_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm_storeu_si128((__m128i *)(dst + j), _mm256_cvtps_ph(_mm256_loadu_ps(src + j), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    for (; j < n; j++) dst[j] = f32_to_f16_portable(src[j]);
}

__attribute__((target("avx2,f16c"))) static void f16_to_f32_f16c(const uint16_t *src, float *dst, size_t n) {
    size_t j = 0;
    for (; j + 8 <= n; j += 8) _mm256_storeu_ps(dst + j, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(src + j))));
    for (; j < n; j++) dst[j] = f16_to_f32_portable(src[j]);
}

/// int8 rows, `dim` a multiple of 32: sign-extend 16 codes to int16 and multiply-add pairs into
/// int32 lanes (|a·b| ≤ 127², a pair ≤ 32,258: exact).
__attribute__((target("avx2,fma"))) static void scores_i8_avx2(const int8_t *codes, const float *scales, size_t rows, size_t dim, const int8_t *q, float qscale, float *out) {
    __m256i qw[64];  // the query as int16, dim ≤ 1024
    size_t blocks = dim / 16;
    for (size_t b = 0; b < blocks; b++) qw[b] = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(q + 16 * b)));
    for (size_t r = 0; r < rows; r++) {
        const int8_t *row = codes + r * dim;
        __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
        for (size_t b = 0; b < blocks; b += 2) {
            __m256i c0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(row + 16 * b)));
            __m256i c1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(row + 16 * b + 16)));
            s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(c0, qw[b]));
            s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(c1, qw[b + 1]));
        }
        out[r] = (float)sift_hsum256_epi32(_mm256_add_epi32(s0, s1)) * scales[r] * qscale;
    }
}

// MARK: AVX-512 (F, BW, VNNI)

/// int8 rows, `dim` a multiple of 32 (a last half block read masked): `vpdpbusd` multiplies
/// unsigned by signed bytes, so the codes are offset by 128 (xor 0x80) and 128 · Σ query is
/// subtracted back: exact.
__attribute__((target("avx512f,avx512bw,avx512vnni,avx2"))) static void scores_i8_avx512(const int8_t *codes, const float *scales, size_t rows, size_t dim, const int8_t *q, float qscale, float *out) {
    __m512i qv[16];  // dim ≤ 1024
    size_t blocks = dim / 64;
    // A dim of 64k + 32 ends in a half block, read with its upper 32 bytes masked to zero: the
    // query's are 0 there, so those lanes (codes 0 offset to 128) add nothing.
    const int half = dim % 64 != 0;
    const __mmask64 low = 0xFFFFFFFFull;
    int32_t qsum = 0;
    for (size_t j = 0; j < dim; j++) qsum += q[j];
    for (size_t b = 0; b < blocks; b++) qv[b] = _mm512_loadu_si512((const void *)(q + 64 * b));
    if (half) qv[blocks] = _mm512_maskz_loadu_epi8(low, q + 64 * blocks);
    const __m512i flip = _mm512_set1_epi8((char)0x80);
    const int32_t offset = 128 * qsum;
    size_t r = 0;
    // Four rows at a time: four independent accumulation chains.
    for (; r + 4 <= rows; r += 4) {
        const int8_t *row = codes + r * dim;
        __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512(), s2 = _mm512_setzero_si512(), s3 = _mm512_setzero_si512();
        for (size_t b = 0; b < blocks; b++) {
            s0 = _mm512_dpbusd_epi32(s0, _mm512_xor_si512(_mm512_loadu_si512((const void *)(row + 64 * b)), flip), qv[b]);
            s1 = _mm512_dpbusd_epi32(s1, _mm512_xor_si512(_mm512_loadu_si512((const void *)(row + dim + 64 * b)), flip), qv[b]);
            s2 = _mm512_dpbusd_epi32(s2, _mm512_xor_si512(_mm512_loadu_si512((const void *)(row + 2 * dim + 64 * b)), flip), qv[b]);
            s3 = _mm512_dpbusd_epi32(s3, _mm512_xor_si512(_mm512_loadu_si512((const void *)(row + 3 * dim + 64 * b)), flip), qv[b]);
        }
        if (half) {
            const int8_t *h = row + 64 * blocks;
            s0 = _mm512_dpbusd_epi32(s0, _mm512_xor_si512(_mm512_maskz_loadu_epi8(low, h), flip), qv[blocks]);
            s1 = _mm512_dpbusd_epi32(s1, _mm512_xor_si512(_mm512_maskz_loadu_epi8(low, h + dim), flip), qv[blocks]);
            s2 = _mm512_dpbusd_epi32(s2, _mm512_xor_si512(_mm512_maskz_loadu_epi8(low, h + 2 * dim), flip), qv[blocks]);
            s3 = _mm512_dpbusd_epi32(s3, _mm512_xor_si512(_mm512_maskz_loadu_epi8(low, h + 3 * dim), flip), qv[blocks]);
        }
        sift_store4_scores(s0, s1, s2, s3, offset, scales + r, qscale, out + r);
    }
    for (; r < rows; r++) {
        const int8_t *row = codes + r * dim;
        __m512i s = _mm512_setzero_si512();
        for (size_t b = 0; b < blocks; b++)
            s = _mm512_dpbusd_epi32(s, _mm512_xor_si512(_mm512_loadu_si512((const void *)(row + 64 * b)), flip), qv[b]);
        if (half) s = _mm512_dpbusd_epi32(s, _mm512_xor_si512(_mm512_maskz_loadu_epi8(low, row + 64 * blocks), flip), qv[blocks]);
        out[r] = (float)(_mm512_reduce_add_epi32(s) - offset) * scales[r] * qscale;
    }
}

// MARK: Threshold search

/// Bit j set when `x[j] >= t` (false for NaN), for j in [0, 32).
__attribute__((target("avx2"))) static inline unsigned at_least_mask32(const float *x, __m256 tv) {
    __m256 a = _mm256_cmp_ps(_mm256_loadu_ps(x), tv, _CMP_GE_OQ);
    __m256 b = _mm256_cmp_ps(_mm256_loadu_ps(x + 8), tv, _CMP_GE_OQ);
    __m256 c = _mm256_cmp_ps(_mm256_loadu_ps(x + 16), tv, _CMP_GE_OQ);
    __m256 d = _mm256_cmp_ps(_mm256_loadu_ps(x + 24), tv, _CMP_GE_OQ);
    return (unsigned)_mm256_movemask_ps(a) | ((unsigned)_mm256_movemask_ps(b) << 8)
        | ((unsigned)_mm256_movemask_ps(c) << 16) | ((unsigned)_mm256_movemask_ps(d) << 24);
}

__attribute__((target("avx2"))) static size_t next_at_least_avx2(const float *x, size_t n, float t) {
    const __m256 tv = _mm256_set1_ps(t);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        unsigned mask = at_least_mask32(x + i, tv);
        if (mask) return i + (size_t)__builtin_ctz(mask);
    }
    for (; i < n; i++) if (x[i] >= t) return i;
    return n;
}

static size_t rows_at_least_portable(const float *x, size_t n, float t, const uint8_t *keep, size_t keep_count,
                                     int32_t *out, size_t capacity, size_t *start);

/// ``sift_rows_at_least`` a block of 32 scores a compare; it returns early, before a block,
/// when fewer than 32 places are left in `out` (an `out` of fewer than 32 goes to the plain loop).
__attribute__((target("avx2"))) static size_t rows_at_least_avx2(const float *x, size_t n, float t, const uint8_t *keep,
                                                                 size_t keep_count, int32_t *out, size_t capacity,
                                                                 size_t *start) {
    if (capacity < 32) return rows_at_least_portable(x, n, t, keep, keep_count, out, capacity, start);
    const __m256 tv = _mm256_set1_ps(t);
    size_t written = 0, i = *start;
    for (; i + 32 <= n; i += 32) {
        if (capacity - written < 32) {
            *start = i;
            return written;
        }
        unsigned mask = at_least_mask32(x + i, tv);
        while (mask) {
            size_t r = i + (size_t)__builtin_ctz(mask);
            if (r < keep_count && keep[r]) out[written++] = (int32_t)r;
            mask &= mask - 1;
        }
    }
    for (; i < n && written < capacity; i++)
        if (x[i] >= t && i < keep_count && keep[i]) out[written++] = (int32_t)i;
    *start = i;
    return written;
}

#else

int sift_kernel_level(void) { return 0; }

#endif

// MARK: Entry points

void sift_scores_f32(const float *matrix, size_t rows, size_t dim, const float *query, float *out) {
#ifdef SIFT_X86
    if (dim % 32 == 0 && sift_kernel_level() >= 2) { scores_f32_avx2(matrix, rows, dim, query, out); return; }
#endif
    for (size_t r = 0; r < rows; r++) out[r] = dot_f32_portable(matrix + r * dim, query, dim);
}

void sift_scores_f32_rows(const float *matrix, size_t dim, const int32_t *rows, size_t count, const float *query, float *out, int packed) {
#ifdef SIFT_X86
    if (dim % 32 == 0 && sift_kernel_level() >= 2) { scores_f32_rows_avx2(matrix, dim, rows, count, query, out, packed); return; }
#endif
    for (size_t i = 0; i < count; i++) out[packed ? i : (size_t)rows[i]] = dot_f32_portable(matrix + (size_t)rows[i] * dim, query, dim);
}

void sift_scores_f16(const uint16_t *matrix, size_t rows, size_t dim, const float *query, float *out) {
#ifdef SIFT_X86
    if (dim % 32 == 0 && sift_kernel_level() >= 2) { scores_f16_avx2(matrix, rows, dim, query, out); return; }
#endif
    for (size_t r = 0; r < rows; r++) out[r] = dot_f16_portable(matrix + r * dim, query, dim);
}

void sift_scores_f16_rows(const uint16_t *matrix, size_t dim, const int32_t *rows, size_t count, const float *query, float *out, int packed) {
#ifdef SIFT_X86
    if (dim % 32 == 0 && sift_kernel_level() >= 2) { scores_f16_rows_avx2(matrix, dim, rows, count, query, out, packed); return; }
#endif
    for (size_t i = 0; i < count; i++) out[packed ? i : (size_t)rows[i]] = dot_f16_portable(matrix + (size_t)rows[i] * dim, query, dim);
}

void sift_f32_to_f16(const float *src, uint16_t *dst, size_t n) {
#ifdef SIFT_X86
    if (sift_kernel_level() >= 2) { f32_to_f16_f16c(src, dst, n); return; }
#endif
    for (size_t j = 0; j < n; j++) dst[j] = f32_to_f16_portable(src[j]);
}

void sift_f16_to_f32(const uint16_t *src, float *dst, size_t n) {
#ifdef SIFT_X86
    if (sift_kernel_level() >= 2) { f16_to_f32_f16c(src, dst, n); return; }
#endif
    for (size_t j = 0; j < n; j++) dst[j] = f16_to_f32_portable(src[j]);
}

void sift_f32_to_f16_portable(const float *src, uint16_t *dst, size_t n) {
    for (size_t j = 0; j < n; j++) dst[j] = f32_to_f16_portable(src[j]);
}

void sift_f16_to_f32_portable(const uint16_t *src, float *dst, size_t n) {
    for (size_t j = 0; j < n; j++) dst[j] = f16_to_f32_portable(src[j]);
}

void sift_prefetch_rows(const void *items, size_t stride, size_t count, int32_t lo, int32_t hi,
                        const void *a, size_t a_size, const void *b, size_t b_size, const void *c, size_t c_size) {
    const char *p = (const char *)items;
    for (size_t i = 0; i < count; i++) {
        int32_t row = *(const int32_t *)(p + i * stride);
        if (row < lo || row >= hi) continue;
        __builtin_prefetch((const char *)a + (size_t)row * a_size, 1, 3);
        __builtin_prefetch((const char *)b + (size_t)row * b_size, 1, 3);
        __builtin_prefetch((const char *)c + (size_t)row * c_size, 1, 3);
    }
}

size_t sift_next_at_least(const float *x, size_t n, float t) {
#ifdef SIFT_X86
    if (sift_kernel_level() >= 2) return next_at_least_avx2(x, n, t);
#endif
    for (size_t i = 0; i < n; i++) if (x[i] >= t) return i;
    return n;
}

static size_t rows_at_least_portable(const float *x, size_t n, float t, const uint8_t *keep, size_t keep_count,
                                     int32_t *out, size_t capacity, size_t *start) {
    size_t written = 0, i = *start;
    for (; i < n && written < capacity; i++)
        if (x[i] >= t && i < keep_count && keep[i]) out[written++] = (int32_t)i;
    *start = i;
    return written;
}

size_t sift_rows_at_least(const float *x, size_t n, float t, const uint8_t *keep, size_t keep_count,
                          int32_t *out, size_t capacity, size_t *start) {
#ifdef SIFT_X86
    if (sift_kernel_level() >= 2) return rows_at_least_avx2(x, n, t, keep, keep_count, out, capacity, start);
#endif
    return rows_at_least_portable(x, n, t, keep, keep_count, out, capacity, start);
}

void sift_scores_i8(const int8_t *codes, const float *scales, size_t rows, size_t dim, const int8_t *query, float query_scale, float *out) {
    sift_scores_i8_at_most(3, codes, scales, rows, dim, query, query_scale, out);
}

void sift_scores_i8_at_most(int ceiling, const int8_t *codes, const float *scales, size_t rows, size_t dim, const int8_t *query,
                            float query_scale, float *out) {
#ifdef SIFT_X86
    // Every multiple of 32 the int8 copy may code (on the portable loop, a 1M-row index's
    // hybrid p50 was 17 ms with a 96-component copy, against 8 ms with 128 on the SIMD kernel).
    if (dim % 32 == 0 && dim <= 1024) {
        int level = sift_kernel_level() < ceiling ? sift_kernel_level() : ceiling;
        if (level >= 3) { scores_i8_avx512(codes, scales, rows, dim, query, query_scale, out); return; }
        if (level >= 2) { scores_i8_avx2(codes, scales, rows, dim, query, query_scale, out); return; }
    }
#else
    (void)ceiling;
#endif
    for (size_t r = 0; r < rows; r++) out[r] = (float)dot_i8_portable(codes + r * dim, query, dim) * scales[r] * query_scale;
}

float sift_code_i8(const float *v, size_t n, int8_t *codes) {
    float scale = sift_code_scale(v, n, 127);
    if (scale > 0) {
        for (size_t j = 0; j < n; j++) {
            int i = sift_round_code(v[j] / scale);
            codes[j] = (int8_t)(i > 127 ? 127 : (i < -128 ? -128 : i));
        }
    } else {
        memset(codes, 0, n);
    }
    return scale;
}
