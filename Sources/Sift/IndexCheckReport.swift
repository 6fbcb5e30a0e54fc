import Foundation

/// What ``SearchIndex/check()`` and ``SearchIndex/check(configuration:)`` found: each part of the
/// index, whole or not, and every record that cannot be read.
///
/// "Whole" is a promise about what a reader can observe: every part passed every check, so
/// every record reads back, verified, as it was written, and the snapshot (when current)
/// equals what the store would rebuild. Damage that changed nothing observable — a byte in a
/// free page or in a page's unused space — may leave an index whole; damage to anything a
/// reader sees never does (``Sift`` README, Guarantees).
package struct IndexCheckReport: Sendable, Equatable {
    /// One part of the index: the database file, the settings, the items, the donations, the
    /// meta entries, the identifiers (the in-memory projections' invariants), the snapshot,
    /// the permissions.
    package struct Part: Sendable, Equatable {
        package var name: String
        package var isWhole: Bool
        /// One line: what was checked and found.
        package var summary: String
        /// Further lines: each problem, each unreadable record, notes.
        package var details: [String]

        package init(name: String, isWhole: Bool, summary: String, details: [String] = []) {
            self.name = name
            self.isWhole = isWhole
            self.summary = summary
            self.details = details
        }
    }

    /// The index's name (its directory's last component, ":memory:" in memory).
    package var index: String
    /// The database file, or nil when the index is in memory.
    package var storePath: String?
    package var parts: [Part]
    /// Every record that cannot be read; ``SearchIndex/repair(configuration:)`` drops exactly
    /// these (and the donations of the items among them).
    package var unreadable: [UnreadableRecord]
    /// Items read and verified.
    package var readableItems: Int

    /// Every part is whole.
    package var isWhole: Bool { !parts.isEmpty && parts.allSatisfy(\.isWhole) }

    /// The part called `name`, if checked.
    package func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The ids of the unreadable items that are known by id (in a plain store, all of them);
    /// the host app indexes these again after a repair.
    package var unreadableItemIDs: [ItemID] { unreadable.itemIDs }
}

extension StoreSurvey {
    /// The report's parts for the store: database, settings, items, donations, meta.
    func parts(scheme: String) -> [IndexCheckReport.Part] {
        var parts: [IndexCheckReport.Part] = []
        let integrityOK = integrity == ["ok"]
        parts.append(
            .init(
                name: "database", isWhole: fileIsSound,
                summary: integrityOK
                    ? "SQLite integrity_check: ok"
                    : "SQLite integrity_check found \(integrity.count) problem\(integrity.count == 1 ? "" : "s")",
                details: (integrityOK ? [] : integrity) + scanFailures))
        parts.append(
            .init(
                name: "settings", isWhole: settingProblems.isEmpty,
                summary: settingProblems.isEmpty
                    ? "protection \(scheme), key check verified, generation \(generation?.counter ?? 0)"
                    : settingProblems.joined(separator: "; ")))
        var itemPart = records(.item, name: "items", readable: items.count, noun: "item")
        if unverifiedRecords > 0 {
            itemPart.details.append(
                "\(unverifiedRecords) record\(unverifiedRecords == 1 ? " was" : "s were") written before schema 3 and carr\(unverifiedRecords == 1 ? "ies" : "y") no checksum: read, not verified"
            )
        }
        parts.append(itemPart)
        var donationPart = records(.donation, name: "donations", readable: donations.count, noun: "donation")
        if donationsOfUnreadableItems > 0 {
            donationPart.details.append(
                "\(donationsOfUnreadableItems) readable donation\(donationsOfUnreadableItems == 1 ? "" : "s") of unreadable items (a repair drops them with their item)"
            )
        }
        parts.append(donationPart)
        var metaPart = records(.meta, name: "meta", readable: meta.count, noun: "entry", plural: "entries")
        metaPart.summary += meta.isEmpty ? "" : " (\(meta.map(\.name).sorted().joined(separator: ", ")))"
        parts.append(metaPart)
        return parts
    }

    private func records(_ kind: UnreadableRecord.Kind, name: String, readable: Int, noun: String, plural: String? = nil)
        -> IndexCheckReport.Part
    {
        let bad = unreadable.filter { $0.kind == kind }
        let nouns = { (n: Int) in n == 1 ? noun : (plural ?? noun + "s") }
        var summary = "\(readable) \(nouns(readable)) read and verified"
        if !bad.isEmpty { summary += "; \(bad.count) cannot be read" }
        return .init(name: name, isWhole: bad.isEmpty, summary: summary, details: bad.map(\.line))
    }
}

extension UnreadableRecord {
    /// `note-17 (row 18): item record checksum mismatch`, or the row key when the id is unknown.
    package var line: String {
        let who = id.map { "\($0.rawValue)" } ?? (rowKey.isEmpty ? "a row" : "row key \(rowKey.prefix(16))…")
        return "\(who) (row \(row)): \(reason)"
    }
}

extension [UnreadableRecord] {
    /// The distinct ids of the item records among these that are known by id, sorted.
    var itemIDs: [ItemID] {
        Set(filter { $0.kind == .item }.compactMap(\.id)).sorted()
    }
}
