import Foundation

/// One ranked item. An immutable value: safe to hand to any thread.
public struct SearchResult: Sendable, Equatable {
    public var id: ItemID
    public var domain: String
    public var title: String
    public var score: Float
    public var url: String?
    public var date: Date?
    public var displayName: String?
    public var explanation: Explanation?
    /// The passage that shows why it matched (when ``SearchQuery/snippets`` is on).
    public var snippet: Snippet? = nil
}
