// Private to CSiftKernels: what the int8 and 4-bit row coders share (SiftKernels.c, NibbleKernels.c).
#ifndef SIFT_CODE_SCALE_H
#define SIFT_CODE_SCALE_H
#include <math.h>
#include <stddef.h>

/// A row's scale for codes of ±`levels`: its largest magnitude over `levels`, or 0 for a zero row
/// and for one with an infinity or a NaN (rows a damaged snapshot decodes before its checksum
/// rejects them).
static inline float sift_code_scale(const float *v, size_t n, float levels) {
    float peak = 0;
    int finite = 1;
    for (size_t j = 0; j < n; j++) {
        float a = fabsf(v[j]);
        finite &= a <= 3.402823466e+38f;  // false for infinities and NaN
        peak = a > peak ? a : peak;
    }
    return peak > 0 && finite ? peak / levels : 0;
}

/// roundf (halves away from zero) without the library call, for |x| up to a code's range: the
/// truncation is exact and so is the remainder.
static inline int sift_round_code(float x) {
    int i = (int)x;
    float rest = x - (float)i;
    return i + (rest >= 0.5f) - (rest <= -0.5f);
}

#endif
