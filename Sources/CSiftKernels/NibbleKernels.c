// 4-bit codes for the quantized scan's first pass: half the bytes of int8 codes a row.
//
// A row of `n` components (n even) is n / 2 bytes: byte i holds component i in its low nibble
// and component i + n / 2 in its high nibble, each as its code + 8 (codes -7…7 scaled by the
// row's largest magnitude over 7; a row whose scale is 0 is all zero bytes). Splitting the row in
// halves, not pairing neighbours, lets a kernel multiply the low nibbles of a block by one run of
// the query and the high nibbles by another, with no shuffle.
#include "SiftKernels.h"
#include "CodeScale.h"
#include <string.h>

#if defined(__x86_64__) || defined(_M_X64)
#define SIFT_NIBBLE_X86 1
#include <immintrin.h>
#include "ScoreReduction.h"
#endif

float sift_code_u4(const float *v, size_t n, uint8_t *codes) {
    size_t half = n / 2;
    float scale = sift_code_scale(v, n, 7);
    if (scale == 0) {
        memset(codes, 0, half);
        return 0;
    }
    for (size_t i = 0; i < half; i++) {
        int c[2];
        for (int k = 0; k < 2; k++) {
            int t = sift_round_code(v[i + (size_t)k * half] / scale);
            c[k] = (t > 7 ? 7 : (t < -7 ? -7 : t)) + 8;
        }
        codes[i] = (uint8_t)(c[0] | (c[1] << 4));
    }
    return scale;
}

/// Σ_j code_j · q_j over one row, the nibbles' offset of 8 included (the caller subtracts 8 Σ q).
static int32_t dot_u4_portable(const uint8_t *row, const int8_t *q, size_t half) {
    int32_t s = 0;
    for (size_t i = 0; i < half; i++) s += (int32_t)(row[i] & 15) * q[i] + (int32_t)(row[i] >> 4) * q[i + half];
    return s;
}

#ifdef SIFT_NIBBLE_X86

/// Rows of `half` bytes, `half` a multiple of 16 (a last 16 bytes with 128-bit instructions):
/// `vpmaddubsw` multiplies the unsigned nibbles by the signed query bytes in pairs (|pair| ≤
/// 2 · 15 · 128, no saturation), `vpmaddwd` widens.
__attribute__((target("avx2"))) static void scores_u4_avx2(const uint8_t *codes, const float *scales, size_t rows, size_t half,
                                                           const int8_t *q, int32_t offset, float qscale, float *out) {
    __m256i ql[16], qh[16];  // half ≤ 512
    size_t blocks = half / 32;
    for (size_t b = 0; b < blocks; b++) {
        ql[b] = _mm256_loadu_si256((const __m256i *)(q + 32 * b));
        qh[b] = _mm256_loadu_si256((const __m256i *)(q + half + 32 * b));
    }
    const __m256i low = _mm256_set1_epi8(15);
    const __m256i ones = _mm256_set1_epi16(1);
    const int tail = half % 32 != 0;
    const __m128i qlt = tail ? _mm_loadu_si128((const __m128i *)(q + 32 * blocks)) : _mm_setzero_si128();
    const __m128i qht = tail ? _mm_loadu_si128((const __m128i *)(q + half + 32 * blocks)) : _mm_setzero_si128();
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *row = codes + r * half;
        __m256i s = _mm256_setzero_si256();
        for (size_t b = 0; b < blocks; b++) {
            __m256i v = _mm256_loadu_si256((const __m256i *)(row + 32 * b));
            __m256i lo = _mm256_and_si256(v, low);
            __m256i hi = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
            __m256i pairs = _mm256_add_epi16(_mm256_maddubs_epi16(lo, ql[b]), _mm256_maddubs_epi16(hi, qh[b]));
            s = _mm256_add_epi32(s, _mm256_madd_epi16(pairs, ones));
        }
        if (tail) {
            __m128i v = _mm_loadu_si128((const __m128i *)(row + 32 * blocks));
            __m128i lo = _mm_and_si128(v, _mm256_castsi256_si128(low));
            __m128i hi = _mm_and_si128(_mm_srli_epi16(v, 4), _mm256_castsi256_si128(low));
            __m128i pairs = _mm_add_epi16(_mm_maddubs_epi16(lo, qlt), _mm_maddubs_epi16(hi, qht));
            s = _mm256_add_epi32(s, _mm256_set_m128i(_mm_setzero_si128(), _mm_madd_epi16(pairs, _mm256_castsi256_si128(ones))));
        }
        out[r] = (float)(sift_hsum256_epi32(s) - offset) * scales[r] * qscale;
    }
}

/// Rows of `half` bytes, any `half` up to 512 (a last partial block read masked): `vpdpbusd`
/// multiplies the unsigned nibbles by the signed query bytes, four rows at a time.
__attribute__((target("avx512f,avx512bw,avx512vnni,avx2"))) static void scores_u4_avx512(
    const uint8_t *codes, const float *scales, size_t rows, size_t half, const int8_t *q, int32_t offset, float qscale, float *out) {
    __m512i ql[8], qh[8];  // half ≤ 512
    size_t blocks = (half + 63) / 64;
    // A half that is not a multiple of 64 ends in a partial block: its lanes past the row are
    // zero in the query and in the codes (masked loads), so they add nothing.
    const __mmask64 last = half % 64 ? (1ull << (half % 64)) - 1 : ~0ull;
    for (size_t b = 0; b < blocks; b++) {
        __mmask64 m = b + 1 == blocks ? last : ~0ull;
        ql[b] = _mm512_maskz_loadu_epi8(m, q + 64 * b);
        qh[b] = _mm512_maskz_loadu_epi8(m, q + half + 64 * b);
    }
    const __m512i low = _mm512_set1_epi8(15);
    size_t r = 0;
#define SIFT_U4_STEP(s, row, b)                                                                                    \
    do {                                                                                                           \
        __m512i v = _mm512_maskz_loadu_epi8(b + 1 == blocks ? last : ~0ull, (row) + 64 * (b));                     \
        s = _mm512_dpbusd_epi32(s, _mm512_and_si512(v, low), ql[b]);                                               \
        s = _mm512_dpbusd_epi32(s, _mm512_and_si512(_mm512_srli_epi16(v, 4), low), qh[b]);                         \
    } while (0)
    for (; r + 4 <= rows; r += 4) {
        const uint8_t *row = codes + r * half;
        __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512(), s2 = _mm512_setzero_si512(), s3 = _mm512_setzero_si512();
        for (size_t b = 0; b < blocks; b++) {
            SIFT_U4_STEP(s0, row, b);
            SIFT_U4_STEP(s1, row + half, b);
            SIFT_U4_STEP(s2, row + 2 * half, b);
            SIFT_U4_STEP(s3, row + 3 * half, b);
        }
        sift_store4_scores(s0, s1, s2, s3, offset, scales + r, qscale, out + r);
    }
    for (; r < rows; r++) {
        const uint8_t *row = codes + r * half;
        __m512i s = _mm512_setzero_si512();
        for (size_t b = 0; b < blocks; b++) SIFT_U4_STEP(s, row, b);
        out[r] = (float)(_mm512_reduce_add_epi32(s) - offset) * scales[r] * qscale;
    }
#undef SIFT_U4_STEP
}

#endif

void sift_scores_u4(const uint8_t *codes, const float *scales, size_t rows, size_t n, const int8_t *query, float query_scale,
                    float *out) {
    sift_scores_u4_at_most(3, codes, scales, rows, n, query, query_scale, out);
}

void sift_scores_u4_at_most(int ceiling, const uint8_t *codes, const float *scales, size_t rows, size_t n, const int8_t *query,
                            float query_scale, float *out) {
    size_t half = n / 2;
    int32_t qsum = 0;
    for (size_t j = 0; j < 2 * half; j++) qsum += query[j];
    const int32_t offset = 8 * qsum;
#ifdef SIFT_NIBBLE_X86
    if (half > 0 && half <= 512) {
        int level = sift_kernel_level() < ceiling ? sift_kernel_level() : ceiling;
        if (level >= 3) { scores_u4_avx512(codes, scales, rows, half, query, offset, query_scale, out); return; }
        if (level >= 2 && half % 16 == 0) { scores_u4_avx2(codes, scales, rows, half, query, offset, query_scale, out); return; }
    }
#else
    (void)ceiling;
#endif
    for (size_t r = 0; r < rows; r++)
        out[r] = (float)(dot_u4_portable(codes + r * half, query, half) - offset) * scales[r] * query_scale;
}
