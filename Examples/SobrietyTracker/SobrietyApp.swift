import Foundation
import Sift

/// The composition root: every dependency of the app's search layer, built in one place.
///
/// The app builds one with ``live(store:directory:embedder:policy:clock:)``; tests build one
/// with ``init(store:index:policy:donations:clock:)`` and a spy index
/// (`RecordingSearchIndex`) and a spy recorder (`MemoryDonationRecorder`).
public struct SobrietyApp: Sendable {
    /// Every entity type the app indexes.
    public static let entityTypes: [any IndexedEntity.Type] = [StreakDay.self, Trigger.self, Reflection.self]

    /// Every intent, for the inventory.
    public static let intentInventory: [IntentInventoryEntry] = [
        LogTriggerOccurrence.inventoryEntry, MarkDayPrivate.inventoryEntry, ArchiveTrigger.inventoryEntry,
        WriteReflection.inventoryEntry, OpenEntity.inventoryEntry, SearchJournal.inventoryEntry,
    ]

    public let store: SobrietyStore
    public let entities: EntityIndex
    public let donations: any DonationRecorder
    public let clock: @Sendable () -> Date
    public let days: EntityResolver<StreakDaySource>
    public let triggers: EntityResolver<TriggerSource>
    public let reflections: EntityResolver<ReflectionSource>

    /// - Parameters:
    ///   - index: the search index, or a spy in tests.
    ///   - donations: where donations go; default: into `index`.
    ///   - clock: the present (tests and the scripted session pass a fixed one).
    public init(
        store: SobrietyStore, index: any SearchIndexing, policy: SobrietyPrivacyPolicy = SobrietyPrivacyPolicy(),
        donations: (any DonationRecorder)? = nil, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.store = store
        let entities = try EntityIndex(index: index, policy: policy, entityTypes: Self.entityTypes)
        self.entities = entities
        self.donations = donations ?? index.donationRecorder
        self.clock = clock
        self.days = EntityResolver(source: StreakDaySource(store: store), index: entities)
        self.triggers = EntityResolver(source: TriggerSource(store: store), index: entities)
        self.reflections = EntityResolver(source: ReflectionSource(store: store), index: entities)
    }

    /// The app as it ships: a ``SearchIndex`` in `directory` (nil: in memory) with `embedder`
    /// (nil: keyword search only), donations into it.
    public static func live(
        store: SobrietyStore, directory: URL? = nil, embedder: (any Embedder)? = nil,
        policy: SobrietyPrivacyPolicy = SobrietyPrivacyPolicy(), clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> SobrietyApp {
        let index = try SearchIndex(configuration: .init(directory: directory, embedder: embedder, clock: clock))
        return try SobrietyApp(store: store, index: index, policy: policy, clock: clock)
    }

    /// Runs `intent`.
    @discardableResult
    public func perform<Intent: SobrietyIntent>(_ intent: Intent) async throws -> Intent.Output {
        try await intent.perform(in: self)
    }

    /// What ``indexEverything()`` did, per entity type.
    public struct IndexingReport: Sendable, Hashable {
        public var days: EntityIndexingSummary
        public var triggers: EntityIndexingSummary
        public var reflections: EntityIndexingSummary
    }

    /// Rebuilds the index from the store: each type's domain replaced by its entities, under
    /// the privacy policy (run at first launch, after a restore, or when a Settings switch
    /// changes the policy).
    @discardableResult
    public func indexEverything() async throws -> IndexingReport {
        IndexingReport(
            days: try await entities.reindex(StreakDay.self, with: store.allDays()),
            triggers: try await entities.reindex(Trigger.self, with: store.allTriggers()),
            reflections: try await entities.reindex(Reflection.self, with: store.allReflections()))
    }

    /// The entity `reference` names, failing closed (missing or withheld: an error).
    /// - Throws: `EntityError`.
    public func entity(for reference: EntityReference) async throws -> SobrietyEntity {
        if reference.refers(to: StreakDay.self) { return .day(try await days.entity(for: reference)) }
        if reference.refers(to: Trigger.self) { return .trigger(try await triggers.entity(for: reference)) }
        if reference.refers(to: Reflection.self) { return .reflection(try await reflections.entity(for: reference)) }
        throw EntityError.otherType(reference.itemID, domain: reference.domain)
    }
}
