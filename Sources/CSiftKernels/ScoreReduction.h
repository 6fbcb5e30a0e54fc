// Private to CSiftKernels: the last step the row-dot kernels share (int8 and 4-bit codes).
#ifndef SIFT_SCORE_REDUCTION_H
#define SIFT_SCORE_REDUCTION_H
#include <stddef.h>
#include <stdint.h>
#include <immintrin.h>

/// The sum of an AVX2 register's eight int32 lanes (exact in any order).
__attribute__((target("avx2"))) static inline int32_t sift_hsum256_epi32(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

/// Four rows' int32 lane sums reduced at once — halve each to 256 bits, then two rounds of
/// pairwise adds (hadd within 128-bit lanes) and the lanes added: [s0, s1, s2, s3] — less
/// `offset`, scaled by each row's scale and `qscale` into `out[0..<4]`. Integer sums are exact
/// in any order, and each row's float arithmetic is a one-row reduction's.
__attribute__((target("avx512f,avx2"))) static inline void sift_store4_scores(__m512i s0, __m512i s1, __m512i s2, __m512i s3,
                                                                               int32_t offset, const float *scales, float qscale,
                                                                               float *out) {
    __m256i h0 = _mm256_add_epi32(_mm512_castsi512_si256(s0), _mm512_extracti64x4_epi64(s0, 1));
    __m256i h1 = _mm256_add_epi32(_mm512_castsi512_si256(s1), _mm512_extracti64x4_epi64(s1, 1));
    __m256i h2 = _mm256_add_epi32(_mm512_castsi512_si256(s2), _mm512_extracti64x4_epi64(s2, 1));
    __m256i h3 = _mm256_add_epi32(_mm512_castsi512_si256(s3), _mm512_extracti64x4_epi64(s3, 1));
    __m256i h = _mm256_hadd_epi32(_mm256_hadd_epi32(h0, h1), _mm256_hadd_epi32(h2, h3));
    __m128i sums = _mm_sub_epi32(_mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1)), _mm_set1_epi32(offset));
    _mm_storeu_ps(out, _mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(sums), _mm_loadu_ps(scales)), _mm_set1_ps(qscale)));
}

#endif
