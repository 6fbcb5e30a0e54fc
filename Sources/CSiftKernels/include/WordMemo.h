#ifndef SIFT_WORD_MEMO_H
#define SIFT_WORD_MEMO_H
#include <stddef.h>
#include <stdint.h>

/// Memos of word vectors: for each word held, the sum of that word's own feature rows (its
/// unigram and its character n-grams) as one model computed it, rounded to fp16. The embedder
/// adds a held word's vector instead of summing its dozen rows of the table again.
///
/// Two levels. A model's shared memo (`sift_shared_word_memo`, one per model instance) holds the
/// first 32,768 words the model meets, for every thread: entries are only added, each published
/// once written, so readers take no lock (at most 16 MiB of vectors for 256 components, in
/// chunks as they fill, and 1.5 MiB of keys and slots, zero pages until used; freed with the
/// model). Beyond it, every thread has its own memo (nothing shared, nothing locked) that holds
/// the words of one model at a time (`model`, an id from `sift_next_model_id`), forgets them when
/// another model asks, and keeps its most used half when full. It is freed with its thread.

typedef struct sift_shared_word_memo sift_shared_word_memo;

/// A shared memo for a model of `dim` components; NULL when memory ran out (or `dim` is 0).
sift_shared_word_memo *sift_shared_word_memo_create(size_t dim);

/// Frees a shared memo; no thread may be using it.
void sift_shared_word_memo_free(sift_shared_word_memo *shared);

/// How many words the shared memo holds or has reserved room for (for tests and profiles).
uint32_t sift_shared_word_memo_count(const sift_shared_word_memo *shared);

/// A new id for a model instance, never given before in this process.
uint64_t sift_next_model_id(void);

/// The vector (`dim` fp16 components) that `shared` (the model's shared memo, or NULL) or the
/// calling thread's memo holds for the word `bytes[0..<len]`
/// (whose hash is `hash`) of model `model`, or NULL.
uint16_t *sift_word_memo_find(sift_shared_word_memo *shared, uint64_t model, size_t dim, uint64_t hash, const uint8_t *bytes,
                              size_t len);

/// Room in `shared` (while it has room), else in the calling thread's memo, for that word's
/// vector, which the caller must write, then call `sift_word_memo_inserted`, before its next
/// call into the memo; NULL when the word is too long to
/// be held (over `SIFT_WORD_MEMO_KEY_BYTES` bytes) or memory ran out. The word must not be held
/// already.
uint16_t *sift_word_memo_insert(sift_shared_word_memo *shared, uint64_t model, size_t dim, uint64_t hash, const uint8_t *bytes,
                                size_t len);

/// Publishes to the other threads the word that the calling thread's last
/// `sift_word_memo_insert` gave room for in `shared`, once its vector is written (nothing when
/// the room was in the thread's own memo).
void sift_word_memo_inserted(sift_shared_word_memo *shared);

/// The longest word a memo holds, in bytes.
#define SIFT_WORD_MEMO_KEY_BYTES 31

/// The most words the calling thread's memo holds before it starts again (for tests; the default
/// is `SIFT_WORD_MEMO_DEFAULT_LIMIT`). Empties it, and the thread no longer uses the shared memo.
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
