import Foundation

/// `sift check [--repair]`: what of an index is whole, and recovery from what is not.
extension SearchIndex {
    /// Checks the index in `configuration.directory` without opening it as an index, so that it
    /// works on a store too damaged to open: SQLite's integrity check; the settings; every
    /// item, donation and meta record read, decoded and verified (checksum, and for a protected
    /// store its AES-GCM authentication), and bound to its row; the identifier table's
    /// invariants over the projections rebuilt from the store; the snapshot's integrity and,
    /// when it is current, its agreement with those projections; owner-only permissions.
    ///
    /// Like every writable open it tightens permissions that are too wide (logged), and
    /// migrates an older schema; it writes no record. Never throws: a store that cannot be
    /// opened at all is a report with that reason.
    /// - Complexity: O(store): one read of every record and the analysis of every item.
    package static func check(configuration: Configuration) -> IndexCheckReport {
        let started = Date()
        let name = configuration.directory?.lastPathComponent ?? ":memory:"
        guard let directory = configuration.directory else {
            let part = IndexCheckReport.Part(
                name: "database", isWhole: false, summary: "an index in memory has nothing on disk to check; call check() on the open index"
            )
            return IndexCheckReport(index: name, storePath: nil, parts: [part], unreadable: [], readableItems: 0)
        }
        var report: IndexCheckReport?
        let (store, failure) = openStore(configuration, directory: directory)
        if let store {
            logPermissions(store.permissionNotes, configuration: configuration, name: name)
            let survey = store.survey(openFailure: failure)
            if failure == nil || survey.readsAnything {
                report = inspect(
                    store, survey: survey, live: nil, configuration: configuration, name: name, permissionNotes: store.permissionNotes)
            }
        }
        if report == nil {
            let part = IndexCheckReport.Part(
                name: "database", isWhole: false, summary: "the store cannot be opened: \(failure.map { "\($0)" } ?? "")")
            report = IndexCheckReport(
                index: name, storePath: directory.appendingPathComponent(Store.fileName).path,
                parts: [part, permissionsPart(directory, notes: [])], unreadable: [], readableItems: 0)
        }
        log(report!, operation: "check", configuration: configuration, started: started)
        return report!
    }

    /// Opens the store as any open does; when that fails (damaged settings, a damaged key
    /// check), opens it again without verifying the settings, for the records to be surveyed:
    /// the store and the first failure. Nil when even that fails (not a database, a newer
    /// schema).
    private static func openStore(_ configuration: Configuration, directory: URL) -> (Store?, (any Error)?) {
        do {
            return (try Store(directory: directory, codec: configuration.codec, readOnly: configuration.readOnly), nil)
        } catch let failure {
            return (
                (try? Store(directory: directory, codec: configuration.codec, readOnly: configuration.readOnly, salvaging: true)), failure
            )
        }
    }

    /// Checks this open index as ``check(configuration:)`` checks a store, and also that the
    /// projections in memory keep the identifier table's invariants and agree with the store.
    package func check() -> IndexCheckReport {
        let started = Date()
        let report = Self.inspect(
            store, survey: store.survey(), live: (state, generation), configuration: configuration, name: name, permissionNotes: [])
        Self.log(report, operation: "check", configuration: configuration, started: started)
        return report
    }

    /// Repairs the index in `configuration.directory`, which no one else may have open (another
    /// process, or another `SearchIndex`: the repair takes SQLite's exclusive lock, and fails
    /// naming the cause when it cannot): drops exactly the records ``check(configuration:)``
    /// finds unreadable — with the donations of the dropped items — and touches no readable
    /// one; then rebuilds the in-memory projections from the store and writes a new snapshot.
    /// When SQLite finds the file itself unsound, the store is rebuilt into a new file from
    /// every record that can be read (each copied byte for byte, under its own row number),
    /// which replaces the old one; otherwise the unreadable rows are deleted in place. Both end
    /// with a new generation.
    ///
    /// The host app indexes ``IndexRepairReport/idsToReindex`` again afterwards. A store that
    /// cannot be opened at all (not a database, a newer schema, a wrong key or a damaged key
    /// check) is left as it is, and the error says why.
    package static func repair(configuration: Configuration) async throws -> IndexRepairReport {
        let started = Date()
        guard let directory = configuration.directory, !configuration.readOnly else {
            throw IndexError.invalidConfiguration("only an index on disk opened for writing can be repaired")
        }
        let before = check(configuration: configuration)
        let outcome = try repairStore(in: directory, configuration: configuration)
        // The projections and the snapshot, from the store alone.
        IndexSnapshot.remove(in: directory)
        IndexSnapshot.removeTemporaryFiles(in: directory)
        var snapshotWritten = false
        do {
            let index = try SearchIndex(configuration: configuration)
            snapshotWritten = IndexSnapshot.unavailability(configuration) == nil ? await index.saveSnapshot() : false
        }
        let after = check(configuration: configuration)
        let report = IndexRepairReport(
            before: before, after: after, dropped: outcome.dropped, droppedDonationsOfDroppedItems: outcome.droppedDonationsOfDroppedItems,
            rebuiltDatabase: outcome.rebuiltFile, snapshotWritten: snapshotWritten)
        let outcomeText =
            "\(after.isWhole ? "ok" : "not whole after repair"): dropped \(outcome.dropped.count) unreadable records\(outcome.rebuiltFile ? ", rebuilt the file" : "")"
        configuration.logger.log(
            LogRecord(
                operation: "repair", index: directory.lastPathComponent, itemCount: after.readableItems,
                duration: Date().timeIntervalSince(started), outcome: outcomeText))
        return report
    }

    /// The store part of ``repair(configuration:)``, under the exclusive lock.
    private static func repairStore(in directory: URL, configuration: Configuration) throws -> StoreRepairOutcome {
        let codec = configuration.codec
        let (opened, failure) = openStore(configuration, directory: directory)
        guard var store = opened else { throw failure! }
        try store.lockExclusively()
        Store.removeAbandonedRepairs(in: directory)
        let survey = store.survey(openFailure: failure)
        // Settings that did not verify are trusted no further than the records that read with
        // this key: none, and the store is left as it is.
        if let failure, !survey.readsAnything { throw failure }
        if failure == nil && survey.fileIsSound { return try store.dropInPlace(survey) }
        try? store.database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let temporary = Store.repairDirectory(in: directory)
        try? FileManager.default.removeItem(at: temporary)
        do {
            try Store.rebuild(survey, codec: codec, in: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        // The old connection closes (and lets go of its lock) before its file is replaced.
        store = try Store(directory: nil)
        try Store.replaceFile(in: directory, with: temporary)
        return StoreRepairOutcome(
            dropped: survey.unreadable, droppedDonationsOfDroppedItems: survey.donationsOfUnreadableItems, rebuiltFile: true)
    }

    // MARK: The report's parts

    /// The whole report on `store`; `live` is an open index's state and generation.
    static func inspect(
        _ store: Store, survey: StoreSurvey, live: (state: IndexState, generation: StoreGeneration?)?, configuration: Configuration,
        name: String,
        permissionNotes: [String]
    ) -> IndexCheckReport {
        var parts = survey.parts(scheme: configuration.codec.scheme)
        let storedFingerprint = survey.meta.first { $0.name == modelKey }?.text
        let rebuilt = IndexState.rebuilt(
            from: survey.items.map(\.stored), configuration: configuration, storedFingerprint: storedFingerprint)
        var identifiers = identifiersPart(rebuilt: rebuilt, live: live, storeGeneration: survey.generation)
        if configuration.vectorFingerprint != nil && rebuilt.vectors == nil {
            identifiers.details.append(
                "the stored vectors are from another model (or none): not checked; the next writable open embeds every item again")
        }
        parts.append(identifiers)
        if let directory = configuration.directory {
            parts.append(snapshotPart(directory, configuration: configuration, generation: survey.generation, rebuilt: rebuilt))
            parts.append(permissionsPart(directory, notes: permissionNotes))
        }
        return IndexCheckReport(
            index: name, storePath: configuration.directory.map { _ in store.path }, parts: parts, unreadable: survey.unreadable,
            readableItems: survey.items.count)
    }

    private static func identifiersPart(
        rebuilt: IndexState, live: (state: IndexState, generation: StoreGeneration?)?, storeGeneration: StoreGeneration?
    ) -> IndexCheckReport.Part {
        var problems: [String] = []
        var details: [String] = []
        do { try rebuilt.checkProjections() } catch { problems.append("the projections rebuilt from the store: \(error)") }
        if let live {
            do { try live.state.checkProjections() } catch { problems.append("the projections in memory: \(error)") }
            if live.generation != nil && live.generation == storeGeneration {
                problems += live.state.disagreements(with: rebuilt).map { "in memory: " + $0 }
            } else {
                details.append(
                    "the store was written by another connection since this index opened: memory not compared with it (reopen to see its changes)"
                )
            }
        }
        let n = rebuilt.table.count
        let summary =
            problems.isEmpty
            ? "\(n) id\(n == 1 ? "" : "s") ↔ \(n) row\(n == 1 ? "" : "s"); keyword index and vectors agree with the identifier table"
            : "\(problems.count) problem\(problems.count == 1 ? "" : "s") with the identifier table or the projections"
        return .init(name: "identifiers", isWhole: problems.isEmpty, summary: summary, details: problems + details)
    }

    private static func snapshotPart(_ directory: URL, configuration: Configuration, generation: StoreGeneration?, rebuilt: IndexState)
        -> IndexCheckReport.Part
    {
        if let why = IndexSnapshot.unavailability(configuration) { return .init(name: "snapshot", isWhole: true, summary: "none: \(why)") }
        let temporary = IndexSnapshot.temporaryFiles(in: directory)
        let tmpNote =
            temporary.isEmpty
            ? []
            : [
                "\(temporary.count) temporary file\(temporary.count == 1 ? "" : "s") of interrupted snapshot writes (the next writable open removes them)"
            ]
        let expected = generation.map { snapshotKey(configuration, $0) }
        switch IndexSnapshot.inspect(in: directory, expected: expected, coding: nil) {
        case .notApplicable(let why):
            return .init(name: "snapshot", isWhole: true, summary: "none: \(why)", details: tmpNote)
        case .missing:
            return .init(
                name: "snapshot", isWhole: true,
                summary: "none yet (the next open rebuilds from the store; releasing the index writes one)", details: tmpNote)
        case .damaged(let why), .malformed(let why):
            return .init(
                name: "snapshot", isWhole: false, summary: "\(why): the next open rebuilds from the store and a repair writes a new one",
                details: tmpNote)
        case .damagedRow(let why):
            return .init(
                name: "snapshot", isWhole: false,
                summary:
                    "\(why): the query that reads the row answers from its re-scoring copy and removes the snapshot (an open that reads every row rebuilds), and a repair writes a new one",
                details: tmpNote)
        case .stale(let why):
            return .init(
                name: "snapshot", isWhole: true, summary: "intact but not current: \(why) (the next open rebuilds from the store)",
                details: tmpNote)
        case .current(let state):
            let differences = state.disagreements(with: rebuilt)
            if differences.isEmpty {
                return .init(
                    name: "snapshot", isWhole: true,
                    summary: "current (generation \(generation?.counter ?? 0)), intact, and equal to the projections of the store",
                    details: tmpNote)
            }
            return .init(
                name: "snapshot", isWhole: false, summary: "current by its key but it disagrees with the store",
                details: differences + tmpNote)
        }
    }

    private static func permissionsPart(_ directory: URL, notes: [String]) -> IndexCheckReport.Part {
        let wider = StorePermissions.wider(in: directory)
        let tightened = notes.isEmpty || !wider.isEmpty ? [] : ["tightened on this open: " + notes.joined(separator: ", ")]
        if wider.isEmpty {
            return .init(name: "permissions", isWhole: true, summary: "owner-only (the directory and everything in it)", details: tightened)
        }
        return .init(name: "permissions", isWhole: false, summary: "others can reach: " + wider.joined(separator: ", "), details: tightened)
    }

    // MARK: Logging

    /// Logs what an open tightened (or, read-only, found too wide): the `--verbose` note.
    static func logPermissions(_ notes: [String], configuration: Configuration, name: String) {
        guard !notes.isEmpty else { return }
        let prefix = configuration.readOnly ? "wider than owner-only: " : "tightened to owner-only: "
        configuration.logger.log(
            LogRecord(operation: "permissions", index: name, itemCount: 0, duration: 0, outcome: prefix + notes.joined(separator: ", ")))
    }

    /// One record per check: counts and part names, never an id or any text.
    private static func log(_ report: IndexCheckReport, operation: String, configuration: Configuration, started: Date) {
        let broken = report.parts.filter { !$0.isWhole }.map(\.name)
        let outcome =
            report.isWhole ? "ok, whole" : "not whole: \(broken.joined(separator: ", ")); \(report.unreadable.count) unreadable records"
        configuration.logger.log(
            LogRecord(
                operation: operation, index: report.index, itemCount: report.readableItems, duration: Date().timeIntervalSince(started),
                outcome: outcome))
    }
}

extension IndexState {
    /// The projections of `items` as an open would build them, for comparison: with their
    /// stored vectors (an item stored without one embedded, as the open does) when the store's
    /// vectors are of the configured model (`storedFingerprint`), else with no vector index
    /// (the open would embed every item again: nothing stored to check).
    static func rebuilt(from items: [StoredItem], configuration: SearchIndex.Configuration, storedFingerprint: String?) -> IndexState {
        let current = configuration.vectorFingerprint != nil && storedFingerprint == configuration.vectorFingerprint
        var state = IndexState(
            keyword: KeywordIndex(parameters: configuration.bm25),
            vectors: current
                ? configuration.embedder.map {
                    VectorIndex(dimension: $0.dimension, coding: nil, precision: configuration.vectorPrecision)
                } : nil)
        let dimension = current ? configuration.embedder?.dimension : nil
        let needsVector: @Sendable (StoredItem) -> Bool = { stored in dimension != nil && stored.vector?.count != dimension }
        var start = 0
        while start < items.count {
            let chunk = Array(items[start..<min(items.count, start + SearchIndex.openChunk)])
            let embedder = current ? configuration.embedder : nil
            for p in state.prepare(chunk, embedder: embedder, titleWeight: configuration.titleEmbeddingWeight, needsVector: needsVector) {
                state.project(p)
            }
            start += chunk.count
        }
        state.keyword.prepareForQueries()
        return state
    }

    /// The identifier table's invariants and the projections' agreement with it: the table's
    /// two maps inverse, the item cache, row attributes, keyword postings and vector rows in
    /// exactly the table's live rows, donations only for live items.
    func checkProjections() throws(InvariantViolation) {
        try table.checkInvariants()
        var live = Set<Int32>()
        for id in table.ids { live.insert(table.row(of: id)!) }
        let all = items.all
        for (r, item) in all.enumerated() {
            if (item != nil) != live.contains(Int32(r)) || (item.map { table.row(of: $0.id) != Int32(r) } ?? false) {
                throw InvariantViolation("item cache disagrees with the identifier table at row \(r)")
            }
        }
        try attributes.checkInvariants(items: all)
        try keyword.checkInvariants(liveRows: live)
        try vectors?.checkInvariants(liveRows: live)
        for id in donationLog.keys where table.row(of: id) == nil {
            throw InvariantViolation("donations kept for an item that is not indexed")
        }
    }
}
