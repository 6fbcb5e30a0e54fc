#ifndef SIFT_WORD_MEMO_H
#define SIFT_WORD_MEMO_H
#include <stddef.h>
#include <stdint.h>

/// A thread's memo of word vectors: for each word it holds, the sum of that word's own feature
/// rows (its unigram and its character n-grams) as one model computed it, rounded to fp16. The embedder adds a
/// held word's vector instead of summing its dozen rows of the table again. Every thread has its
/// own (nothing is shared, nothing locked); it holds the words of one model at a time (`model`,
/// an id from `sift_next_model_id`) and forgets them all when another model asks, or when it is
/// full. It is freed with its thread.

/// A new id for a model instance, never given before in this process.
uint64_t sift_next_model_id(void);

/// The vector (`dim` fp16 components) the calling thread's memo holds for the word `bytes[0..<len]`
/// (whose hash is `hash`) of model `model`, or NULL.
uint16_t *sift_word_memo_find(uint64_t model, size_t dim, uint64_t hash, const uint8_t *bytes, size_t len);

/// Room in the calling thread's memo for that word's vector, which the caller must write before
/// its next call into the memo; NULL when the word is too long to be held (over
/// `SIFT_WORD_MEMO_KEY_BYTES` bytes) or memory ran out. The word must not be held already.
uint16_t *sift_word_memo_insert(uint64_t model, size_t dim, uint64_t hash, const uint8_t *bytes, size_t len);

/// The longest word a memo holds, in bytes.
#define SIFT_WORD_MEMO_KEY_BYTES 31

/// The most words the calling thread's memo holds before it starts again (for tests; the default
/// is `SIFT_WORD_MEMO_DEFAULT_LIMIT`). Empties it.
void sift_word_memo_set_limit(uint32_t limit);
#define SIFT_WORD_MEMO_DEFAULT_LIMIT 8192

/// How many look-ups found their word, and how many did not, on the calling thread since it
/// started (for tests and profiles).
void sift_word_memo_counts(uint64_t *hits, uint64_t *misses);

/// acc[0..<dim] += w · v[0..<dim] for fp16 components v (acc += v when w is 1): each component
/// widened to fp32 (exact), then a product and a sum (no fused multiply-add), so every code path
/// (AVX-512 or AVX2 + F16C where the CPU has them, portable C otherwise) gives the same bits.
void sift_add_scaled_f16(float *acc, const uint16_t *v, float w, size_t dim);

/// `sift_add_scaled_f16` with the kernel family capped at `level` (0 portable, 2 AVX2, 3 AVX-512),
/// for tests.
void sift_add_scaled_f16_at_most(int level, float *acc, const uint16_t *v, float w, size_t dim);

#endif
