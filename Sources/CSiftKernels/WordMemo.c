// The per-thread memo of word vectors (see WordMemo.h).
#include "WordMemo.h"
#include "SiftKernels.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define SIFT_X86 1
#endif

typedef struct {
    uint64_t model;     // whose vectors these are (0: none yet)
    size_t dim;
    uint32_t limit;     // most words held
    uint32_t count;     // words held
    uint32_t capacity;  // vectors allocated (grows by doubling up to limit)
    uint32_t mask;      // slots - 1 (slots: a power of two, at least twice the limit)
    int32_t *slots;     // index of a word, or -1
    uint64_t *hashes;   // a word's hash
    uint8_t *uses;      // a word's hits since it came in or since the last compaction (at most 255)
    uint8_t *keys;      // a word's length, then its bytes (SIFT_WORD_MEMO_KEY_BYTES + 1 a word)
    uint16_t *vectors;  // capacity × dim fp16 components
} word_memo;

static _Thread_local word_memo *memo_of_thread;
static _Thread_local uint32_t limit_of_thread;
static _Thread_local uint64_t hits_of_thread, misses_of_thread;

// A model's shared memo (`sift_shared_word_memo`): the first `SHARED_LIMIT` words its embedder
// meets, held for every thread, so that the threads preparing a batch together do not each sum
// and keep the same words. Entries are only added, never changed or removed, so a reader needs
// no lock: an entry is written whole by the thread that reserved it, then published by a
// release store of its index into a slot, which a reader loads with acquire before it reads the
// entry. Two threads adding the same word at once both publish it (the second copy is never
// found: harmless). The arrays are zeroed pages (resident once used); the vectors come in
// chunks as they fill. Words beyond it go to the thread's own memo. Every field that several
// threads touch is read and written with the __atomic builtins, but an entry's own bytes.
/// Whether an entry whose hash is `held` and whose key (its length, then its bytes) is `key` is
/// the word `bytes[0..<len]` of hash `hash`; both memos keep their words so.
static inline int key_holds(uint64_t held, const uint8_t *key, uint64_t hash, const uint8_t *bytes, size_t len) {
    return held == hash && key[0] == len && memcmp(key + 1, bytes, len) == 0;
}

/// Writes the word `bytes[0..<len]` as a key: its length, then its bytes.
static inline void write_key(uint8_t *key, const uint8_t *bytes, size_t len) {
    key[0] = (uint8_t)len;
    memcpy(key + 1, bytes, len);
}

#define SHARED_LIMIT 32768u
#define SHARED_CHUNK 1024u
#define SHARED_SLOTS (2u * SHARED_LIMIT)
struct sift_shared_word_memo {
    size_t dim;
    uint32_t count;                // entries reserved (may pass the limit: those got no entry)
    uint32_t slots[SHARED_SLOTS];  // entry index + 1, or 0 for an empty slot
    uint64_t hashes[SHARED_LIMIT];
    uint8_t keys[SHARED_LIMIT][SIFT_WORD_MEMO_KEY_BYTES + 1];
    uint16_t *chunks[SHARED_LIMIT / SHARED_CHUNK];
};

/// The first slot a word of hash `hash` may take in a shared memo (then the next ones, in turn).
static inline uint32_t shared_slot(uint64_t hash) { return (uint32_t)(hash >> 32) & (SHARED_SLOTS - 1); }

/// The shared entry this thread reserved last and has not published yet (+ 1; 0 for none).
static _Thread_local uint32_t pending_of_thread;
/// Set by `sift_word_memo_set_limit` (tests): this thread uses its own memo only.
static _Thread_local int private_of_thread;

sift_shared_word_memo *sift_shared_word_memo_create(size_t dim) {
    if (dim == 0) return NULL;
    sift_shared_word_memo *shared = calloc(1, sizeof *shared);
    if (shared) shared->dim = dim;
    return shared;
}

void sift_shared_word_memo_free(sift_shared_word_memo *shared) {
    if (!shared) return;
    for (uint32_t c = 0; c < SHARED_LIMIT / SHARED_CHUNK; c++) free(shared->chunks[c]);
    free(shared);
}

uint32_t sift_shared_word_memo_count(const sift_shared_word_memo *shared) {
    uint32_t n = __atomic_load_n(&shared->count, __ATOMIC_RELAXED);
    return n < SHARED_LIMIT ? n : SHARED_LIMIT;
}

static inline uint16_t *shared_vector(sift_shared_word_memo *shared, uint32_t i) {
    uint16_t *chunk = __atomic_load_n(&shared->chunks[i / SHARED_CHUNK], __ATOMIC_ACQUIRE);
    return chunk + (size_t)(i % SHARED_CHUNK) * shared->dim;
}

void sift_word_memo_inserted(sift_shared_word_memo *shared) {
    uint32_t pending = pending_of_thread;
    if (!pending || !shared) return;
    pending_of_thread = 0;
    uint32_t i = pending - 1;
    for (uint32_t s = shared_slot(shared->hashes[i]);; s = (s + 1) & (SHARED_SLOTS - 1)) {
        uint32_t empty = 0;
        if (__atomic_compare_exchange_n(&shared->slots[s], &empty, pending, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) return;
    }
}

/// Whether this thread uses `shared` (given, for vectors of `dim` components, and the thread
/// not kept to its own memo by a test).
static inline int shared_serves(const sift_shared_word_memo *shared, size_t dim) {
    return shared && !private_of_thread && shared->dim == dim;
}

static uint16_t *shared_find(sift_shared_word_memo *shared, size_t dim, uint64_t hash, const uint8_t *bytes, size_t len) {
    if (!shared_serves(shared, dim)) return NULL;
    for (uint32_t s = shared_slot(hash);; s = (s + 1) & (SHARED_SLOTS - 1)) {
        uint32_t v = __atomic_load_n(&shared->slots[s], __ATOMIC_ACQUIRE);
        if (!v) return NULL;
        if (key_holds(shared->hashes[v - 1], shared->keys[v - 1], hash, bytes, len)) return shared_vector(shared, v - 1);
    }
}

/// Room for the word in the shared memo, or NULL when it is full (or memory ran out).
static uint16_t *shared_reserve(sift_shared_word_memo *shared, size_t dim, uint64_t hash, const uint8_t *bytes, size_t len) {
    if (!shared_serves(shared, dim)) return NULL;
    if (__atomic_load_n(&shared->count, __ATOMIC_RELAXED) >= SHARED_LIMIT) return NULL;
    uint32_t i = __atomic_fetch_add(&shared->count, 1, __ATOMIC_RELAXED);
    if (i >= SHARED_LIMIT) return NULL;
    uint16_t **chunk = &shared->chunks[i / SHARED_CHUNK];
    if (!__atomic_load_n(chunk, __ATOMIC_ACQUIRE)) {
        uint16_t *fresh = malloc(sizeof(uint16_t) * dim * SHARED_CHUNK);
        if (!fresh) return NULL;  // the entry stays unused
        uint16_t *none = NULL;
        if (!__atomic_compare_exchange_n(chunk, &none, fresh, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) free(fresh);
    }
    shared->hashes[i] = hash;
    write_key(shared->keys[i], bytes, len);
    pending_of_thread = i + 1;
    return shared_vector(shared, i);
}
static pthread_key_t memo_key;
static pthread_once_t memo_once = PTHREAD_ONCE_INIT;

static void memo_free(void *p) {
    word_memo *m = p;
    if (!m) return;
    free(m->slots);
    free(m->hashes);
    free(m->uses);
    free(m->keys);
    free(m->vectors);
    free(m);
}

static void memo_key_init(void) { pthread_key_create(&memo_key, memo_free); }

uint64_t sift_next_model_id(void) {
    static uint64_t next = 0;
    return __atomic_add_fetch(&next, 1, __ATOMIC_RELAXED);
}

/// The thread's memo, made on first use (NULL when memory ran out).
static word_memo *thread_memo(void) {
    word_memo *m = memo_of_thread;
    if (m) return m;
    pthread_once(&memo_once, memo_key_init);
    m = calloc(1, sizeof *m);
    if (!m) return NULL;
    uint32_t limit = limit_of_thread ? limit_of_thread : SIFT_WORD_MEMO_DEFAULT_LIMIT;
    uint32_t slots = 16;
    while (slots < 2 * limit) slots <<= 1;
    m->limit = limit;
    m->mask = slots - 1;
    m->slots = malloc(sizeof(int32_t) * slots);
    m->hashes = malloc(sizeof(uint64_t) * limit);
    m->uses = calloc(limit, 1);
    m->keys = malloc((size_t)(SIFT_WORD_MEMO_KEY_BYTES + 1) * limit);
    if (!m->slots || !m->hashes || !m->keys || !m->uses) {
        memo_free(m);
        return NULL;
    }
    memset(m->slots, 0xFF, sizeof(int32_t) * slots);
    memo_of_thread = m;
    pthread_setspecific(memo_key, m);
    return m;
}

static inline uint32_t slot_of(const word_memo *m, uint64_t hash) {
    return (uint32_t)(hash >> 32) & m->mask;
}

/// Enters word `i`, whose hash is `hash`, in the first free slot from its own.
static inline void place_in_slot(word_memo *m, uint64_t hash, int32_t i) {
    uint32_t s = slot_of(m, hash);
    while (m->slots[s] >= 0) s = (s + 1) & m->mask;
    m->slots[s] = i;
}

/// Keeps the most used half of the words (those used at least as often as the half's least
/// used), in their order, and forgets the rest; every use count starts again from zero.
static void memo_compact(word_memo *m) {
    uint32_t histogram[256] = {0};
    for (uint32_t i = 0; i < m->count; i++) histogram[m->uses[i]]++;
    uint32_t threshold = 256, kept = 0;
    while (threshold > 1 && kept + histogram[threshold - 1] <= m->limit / 2) kept += histogram[--threshold];
    uint32_t n = 0;
    memset(m->slots, 0xFF, sizeof(int32_t) * ((size_t)m->mask + 1));
    for (uint32_t i = 0; i < m->count; i++) {
        if (m->uses[i] < threshold) continue;
        if (n != i) {
            m->hashes[n] = m->hashes[i];
            memcpy(m->keys + (size_t)n * (SIFT_WORD_MEMO_KEY_BYTES + 1), m->keys + (size_t)i * (SIFT_WORD_MEMO_KEY_BYTES + 1),
                   SIFT_WORD_MEMO_KEY_BYTES + 1);
            memcpy(m->vectors + (size_t)n * m->dim, m->vectors + (size_t)i * m->dim, sizeof(uint16_t) * m->dim);
        }
        place_in_slot(m, m->hashes[n], (int32_t)n);
        n++;
    }
    memset(m->uses, 0, m->limit);
    m->count = n;
}

/// Forgets every word (the vectors' memory is kept for the next ones).
static void memo_clear(word_memo *m) {
    m->count = 0;
    memset(m->slots, 0xFF, sizeof(int32_t) * ((size_t)m->mask + 1));
    memset(m->uses, 0, m->limit);
}

static inline int same_word(const word_memo *m, int32_t i, uint64_t hash, const uint8_t *bytes, size_t len) {
    return key_holds(m->hashes[i], m->keys + (size_t)i * (SIFT_WORD_MEMO_KEY_BYTES + 1), hash, bytes, len);
}

uint16_t *sift_word_memo_find(sift_shared_word_memo *shared, uint64_t model, size_t dim, uint64_t hash, const uint8_t *bytes,
                              size_t len) {
    if (len > SIFT_WORD_MEMO_KEY_BYTES) {
        misses_of_thread++;
        return NULL;
    }
    uint16_t *held = shared_find(shared, dim, hash, bytes, len);
    if (held) {
        hits_of_thread++;
        return held;
    }
    word_memo *m = memo_of_thread;
    if (!m || m->model != model || m->dim != dim) {
        misses_of_thread++;
        return NULL;
    }
    for (uint32_t s = slot_of(m, hash);; s = (s + 1) & m->mask) {
        int32_t i = m->slots[s];
        if (i < 0) break;
        if (same_word(m, i, hash, bytes, len)) {
            hits_of_thread++;
            if (m->uses[i] < 255) m->uses[i]++;
            return m->vectors + (size_t)i * dim;
        }
    }
    misses_of_thread++;
    return NULL;
}

uint16_t *sift_word_memo_insert(sift_shared_word_memo *shared, uint64_t model, size_t dim, uint64_t hash, const uint8_t *bytes,
                                size_t len) {
    pending_of_thread = 0;
    if (len > SIFT_WORD_MEMO_KEY_BYTES || dim == 0) return NULL;
    uint16_t *room = shared_reserve(shared, dim, hash, bytes, len);
    if (room) return room;
    word_memo *m = thread_memo();
    if (!m) return NULL;
    if (m->model != model || m->dim != dim) {
        if (m->dim != dim) {
            free(m->vectors);
            m->vectors = NULL;
            m->capacity = 0;
        }
        m->model = model;
        m->dim = dim;
        memo_clear(m);
    }
    if (m->count == m->limit) memo_compact(m);
    if (m->count == m->capacity) {
        uint32_t grown = m->capacity ? m->capacity * 2 : 64;
        if (grown > m->limit) grown = m->limit;
        uint16_t *vectors = realloc(m->vectors, sizeof(uint16_t) * dim * grown);
        if (!vectors) return NULL;
        m->vectors = vectors;
        m->capacity = grown;
    }
    int32_t i = (int32_t)m->count++;
    place_in_slot(m, hash, i);
    m->hashes[i] = hash;
    m->uses[i] = 0;
    write_key(m->keys + (size_t)i * (SIFT_WORD_MEMO_KEY_BYTES + 1), bytes, len);
    return m->vectors + (size_t)i * dim;
}

void sift_word_memo_set_limit(uint32_t limit) {
    limit_of_thread = limit;
    private_of_thread = 1;
    word_memo *m = memo_of_thread;
    if (m) {
        pthread_setspecific(memo_key, NULL);
        memo_of_thread = NULL;
        memo_free(m);
        thread_memo();
    }
}

void sift_word_memo_counts(uint64_t *hits, uint64_t *misses) {
    *hits = hits_of_thread;
    *misses = misses_of_thread;
}

static void add_scaled_portable(float *acc, const uint16_t *v, float w, size_t dim) {
    float x[64];
    for (size_t j = 0; j < dim; j += 64) {
        size_t n = dim - j < 64 ? dim - j : 64;
        sift_f16_to_f32_portable(v + j, x, n);
        if (w == 1) {
            for (size_t k = 0; k < n; k++) acc[j + k] += x[k];
        } else {
            for (size_t k = 0; k < n; k++) acc[j + k] += w * x[k];
        }
    }
}

#ifdef SIFT_X86
__attribute__((target("avx512f,avx2,f16c")))
static void add_scaled_avx512(float *acc, const uint16_t *v, float w, size_t dim) {
    size_t j = 0;
    if (w == 1) {
        for (; j + 16 <= dim; j += 16)
            _mm512_storeu_ps(acc + j, _mm512_add_ps(_mm512_loadu_ps(acc + j), _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(v + j)))));
    } else {
        __m512 s = _mm512_set1_ps(w);
        for (; j + 16 <= dim; j += 16)
            _mm512_storeu_ps(acc + j, _mm512_add_ps(_mm512_loadu_ps(acc + j),
                                                    _mm512_mul_ps(s, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)(v + j))))));
    }
    add_scaled_portable(acc + j, v + j, w, dim - j);
}

__attribute__((target("avx2,f16c")))
static void add_scaled_avx2(float *acc, const uint16_t *v, float w, size_t dim) {
    size_t j = 0;
    if (w == 1) {
        for (; j + 8 <= dim; j += 8)
            _mm256_storeu_ps(acc + j, _mm256_add_ps(_mm256_loadu_ps(acc + j), _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(v + j)))));
    } else {
        __m256 s = _mm256_set1_ps(w);
        for (; j + 8 <= dim; j += 8)
            _mm256_storeu_ps(acc + j, _mm256_add_ps(_mm256_loadu_ps(acc + j),
                                                    _mm256_mul_ps(s, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(v + j))))));
    }
    add_scaled_portable(acc + j, v + j, w, dim - j);
}
#endif

void sift_add_scaled_f16_at_most(int ceiling, float *acc, const uint16_t *v, float w, size_t dim) {
#ifdef SIFT_X86
    int level = sift_kernel_level() < ceiling ? sift_kernel_level() : ceiling;
    if (level >= 3) {
        add_scaled_avx512(acc, v, w, dim);
        return;
    }
    if (level >= 2) {
        add_scaled_avx2(acc, v, w, dim);
        return;
    }
#else
    (void)ceiling;
#endif
    add_scaled_portable(acc, v, w, dim);
}

void sift_add_scaled_f16(float *acc, const uint16_t *v, float w, size_t dim) { sift_add_scaled_f16_at_most(3, acc, v, w, dim); }
