import CSiftKernels

/// A model's shared memo of word vectors (`WordMemo.h`): the first 32,768 words the model
/// meets, held for every thread, so that threads embedding at once (a batch's preparation on
/// every core) do not each sum and keep the same words. Lock-free: entries are only added, each
/// published once written. Made with the model, shared by its copies, freed with the last.
final class SharedWordMemo: Sendable {
    /// The model's key in the threads' own memos (`sift_next_model_id`).
    let model: UInt64 = sift_next_model_id()
    /// The C memo; nil when it could not be made (every word then goes to the threads' memos).
    nonisolated(unsafe) let pointer: OpaquePointer?

    init(dimension: Int) { pointer = sift_shared_word_memo_create(dimension) }

    deinit { sift_shared_word_memo_free(pointer) }

    /// Words held (or with room reserved).
    var count: Int { pointer.map { Int(sift_shared_word_memo_count($0)) } ?? 0 }
}
