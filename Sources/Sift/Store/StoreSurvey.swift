import Foundation

/// A record of the store that cannot be read: damaged, tampered with, or not belonging to its
/// row. It carries the item's id where anything trustworthy gives it (the record itself when
/// it verifies, or the row's key in a plain store), else only the row's key and number.
package struct UnreadableRecord: Sendable, Equatable, Hashable {
    package enum Kind: String, Sendable {
        case item, donation, meta, setting
    }

    package var kind: Kind
    /// The item the record is (or, for a donation, belongs to), when known.
    package var id: ItemID?
    /// The row's lookup key in hexadecimal (for a protected store, an HMAC of the id).
    package var rowKey: String
    /// SQLite's rowid of the row.
    package var row: Int64
    /// Why it cannot be read.
    package var reason: String
}

/// Everything the store holds, read as far as it can be, and every record verified: what
/// ``SearchIndex/check(configuration:)`` reports and ``SearchIndex/repair(configuration:)``
/// keeps.
struct StoreSurvey {
    struct Item {
        var rowid: Int64
        var key: [UInt8]
        var domainKey: [UInt8]
        var payload: [UInt8]
        var stored: StoredItem
    }

    struct DonationRow {
        var rowid: Int64
        var key: [UInt8]
        var payload: [UInt8]
        var donation: Donation
    }

    struct MetaRow {
        var key: [UInt8]
        var value: [UInt8]
        var name: String
        /// The entry's text, verified.
        var text: String
    }

    /// `PRAGMA integrity_check`'s lines (["ok"] when the file is sound), or why it failed.
    var integrity: [String] = []
    var settings: [String: String] = [:]
    var settingProblems: [String] = []
    var generation: StoreGeneration?
    var items: [Item] = []
    var donations: [DonationRow] = []
    var meta: [MetaRow] = []
    var unreadable: [UnreadableRecord] = []
    /// Readable donations whose item cannot be read: they go with it on repair.
    var donationsOfUnreadableItems = 0
    /// Records written before schema 3, read as they are (no checksum to verify).
    var unverifiedRecords = 0
    /// What stopped a table's reading, in words.
    var scanFailures: [String] = []

    /// Some item or meta record read and verified with the codec (after an open that could not
    /// verify the settings, the sign that the key is right).
    var readsAnything: Bool { !items.isEmpty || !meta.isEmpty }

    /// SQLite's own check passed and every table was read in one pass.
    var fileIsSound: Bool { integrity == ["ok"] && scanFailures.isEmpty }
    var isWhole: Bool { fileIsSound && settingProblems.isEmpty && unreadable.isEmpty }
}

extension Store {
    /// For a salvaging open: refuses a store whose schema version is not one whose tables this
    /// Sift reads as they are (2 or 3), so that a newer store is never rewritten by an older Sift.
    func checkSalvageable() throws {
        var version: Int64 = 0
        try database.query("PRAGMA user_version") { version = $0.int(0) }
        guard version == 2 || version == Self.schemaVersion else {
            throw StoreError(code: -1, message: "the store has schema version \(version), which a repair does not read", path: path)
        }
    }

    /// Meta entries this Sift writes, by name.
    static let metaNames = [SearchIndex.clientStateKey, SearchIndex.modelKey]

    /// Reads and verifies everything in the store (one read transaction when the file allows
    /// it): SQLite's integrity check, the settings, every item, donation and meta record.
    /// `openFailure`: why the open that verifies the settings failed, for a store opened
    /// `salvaging`; it is a settings problem.
    func survey(openFailure: (any Error)? = nil) -> StoreSurvey {
        var survey = StoreSurvey()
        if let openFailure { survey.settingProblems.append("the store does not open: \(openFailure)") }
        try? database.execute("PRAGMA cell_size_check = ON")
        do {
            survey.integrity = try integrityCheck().split(separator: "\n").map(String.init)
        } catch {
            survey.integrity = ["integrity_check failed: \(Self.reason(error))"]
        }
        var surveyed = false
        do {
            try reading {
                surveyed = true
                surveyRecords(into: &survey)
            }
        } catch {
            // A read transaction that could not even begin: read without one. (One that SQLite
            // ended on an error, so that its COMMIT fails, has read everything it could.)
            if !surveyed { surveyRecords(into: &survey) }
        }
        return survey
    }

    private func surveyRecords(into survey: inout StoreSurvey) {
        surveySettings(into: &survey)
        surveyItems(into: &survey)
        surveyDonations(into: &survey)
        surveyMeta(into: &survey)
    }

    private func surveySettings(into survey: inout StoreSurvey) {
        let scan = salvage(table: "settings", columns: ["name", "value"], keyColumn: nil)
        survey.scanFailures += scan.failures
        for row in scan.rows {
            let name = String(decoding: row.columns[0], as: UTF8.self)
            let value = String(decoding: row.columns[1], as: UTF8.self)
            guard ["codec", "key_check", Self.generationSetting].contains(name), survey.settings[name] == nil else {
                survey.settingProblems.append("an unknown or repeated setting (row \(row.rowid))")
                survey.unreadable.append(
                    UnreadableRecord(
                        kind: .setting, id: nil, rowKey: Self.hex(row.columns[0]), row: row.rowid, reason: "unknown or repeated setting"))
                continue
            }
            survey.settings[name] = value
        }
        if let text = survey.settings[Self.generationSetting] {
            survey.generation = StoreGeneration(text)
            if survey.generation == nil { survey.settingProblems.append("the generation setting is malformed") }
        } else {
            survey.settingProblems.append("the generation setting is missing")
        }
        // The codec and key check were verified by the open; a second copy would have been
        // caught above.
        if survey.settings["codec"] == nil || survey.settings["key_check"] == nil {
            survey.settingProblems.append("the codec or key check setting is missing")
        }
    }

    private func surveyItems(into survey: inout StoreSurvey) {
        let scan = salvage(table: "items", columns: ["key", "domain_key", "payload"], keyColumn: "key")
        survey.scanFailures += scan.failures
        var ids = Set<ItemID>()
        for row in scan.rows {
            let key = row.columns[0]
            let domainKey = row.columns[1]
            let payload = row.columns[2]
            var opened: [UInt8]?
            var decoded: StoredItem?
            do {
                opened = try codec.open(payload, context: key)
                let stored = try StoredItem(decoding: opened!)
                decoded = stored
                guard codec.lookupKey(stored.item.id.rawValue) == key else {
                    throw RecordReader.Malformed(description: "the record does not belong to its row")
                }
                guard codec.lookupKey("domain:" + stored.item.domain) == domainKey else {
                    throw RecordReader.Malformed(description: "the row's domain key does not match its record")
                }
                guard ids.insert(stored.item.id).inserted else {
                    throw RecordReader.Malformed(description: "a second row for the same item")
                }
                if !RecordChecksum.isChecksummed(opened!) { survey.unverifiedRecords += 1 }
                survey.items.append(.init(rowid: row.rowid, key: key, domainKey: domainKey, payload: payload, stored: stored))
            } catch {
                let verified = decoded != nil && RecordChecksum.isChecksummed(opened ?? [])
                survey.unreadable.append(
                    UnreadableRecord(
                        kind: .item, id: verified ? decoded!.item.id : plainID(key), rowKey: Self.hex(key), row: row.rowid,
                        reason: "\(error)"))
            }
        }
        for lost in scan.lost {
            survey.unreadable.append(
                UnreadableRecord(
                    kind: .item, id: lost.key.flatMap(plainID), rowKey: lost.key.map(Self.hex) ?? "", row: lost.rowid, reason: lost.reason))
        }
    }

    /// The id a plain store's row key spells (the key is the id's UTF-8), nil for a protected one.
    func plainID(_ key: [UInt8]) -> ItemID? {
        guard codec.scheme == PlainCodec().scheme, let text = String(validating: key, as: UTF8.self) else { return nil }
        return ItemID(text)
    }

    private func surveyDonations(into survey: inout StoreSurvey) {
        let scan = salvage(table: "donations", columns: ["item_key", "payload"], keyColumn: "item_key")
        survey.scanFailures += scan.failures
        let readable = Set(survey.items.map(\.key))
        let unreadableKeys = Set(survey.unreadable.filter { $0.kind == .item }.map(\.rowKey))
        for row in scan.rows {
            let key = row.columns[0]
            let payload = row.columns[1]
            do {
                let donation = try Donation(decoding: try codec.open(payload, context: key))
                guard codec.lookupKey(donation.itemID.rawValue) == key else {
                    throw RecordReader.Malformed(description: "the record does not belong to its row")
                }
                if readable.contains(key) {
                    survey.donations.append(.init(rowid: row.rowid, key: key, payload: payload, donation: donation))
                } else if unreadableKeys.contains(Self.hex(key)) {
                    survey.donationsOfUnreadableItems += 1
                } else {
                    throw RecordReader.Malformed(description: "a donation for an item the store does not hold")
                }
            } catch {
                survey.unreadable.append(
                    UnreadableRecord(kind: .donation, id: plainID(key), rowKey: Self.hex(key), row: row.rowid, reason: "\(error)"))
            }
        }
        for lost in scan.lost {
            survey.unreadable.append(
                UnreadableRecord(
                    kind: .donation, id: lost.key.flatMap(plainID), rowKey: lost.key.map(Self.hex) ?? "", row: lost.rowid,
                    reason: lost.reason))
        }
    }

    private func surveyMeta(into survey: inout StoreSurvey) {
        let scan = salvage(table: "meta", columns: ["key", "value"], keyColumn: "key")
        survey.scanFailures += scan.failures
        let names = Dictionary(uniqueKeysWithValues: Self.metaNames.map { (codec.lookupKey("meta:" + $0), $0) })
        for row in scan.rows {
            let key = row.columns[0]
            let value = row.columns[1]
            do {
                guard let name = names[key] else { throw RecordReader.Malformed(description: "an unknown meta entry") }
                let opened = try codec.open(value, context: key)
                let text = try RecordChecksum.metaText(opened)
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw RecordReader.Malformed(description: "invalid UTF-8")
                }
                if opened.first != RecordChecksum.metaMarker { survey.unverifiedRecords += 1 }
                survey.meta.append(.init(key: key, value: value, name: name, text: string))
            } catch {
                survey.unreadable.append(UnreadableRecord(kind: .meta, id: nil, rowKey: Self.hex(key), row: row.rowid, reason: "\(error)"))
            }
        }
        for lost in scan.lost {
            survey.unreadable.append(
                UnreadableRecord(kind: .meta, id: nil, rowKey: lost.key.map(Self.hex) ?? "", row: lost.rowid, reason: lost.reason))
        }
    }
}
