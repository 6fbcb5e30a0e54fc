#include "SiftAtomics.h"

int64_t sift_atomic_load(const int64_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }

void sift_atomic_store(int64_t *p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }

int64_t sift_atomic_fetch_add(int64_t *p, int64_t v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }

int sift_atomic_compare_exchange(int64_t *p, int64_t expected, int64_t desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

void sift_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
