import Foundation
import Sift
import SiftCommandLine

/// `sift check [--repair]`: says whether the index is whole (exit 0) or not (exit 1, with a
/// report of what is damaged); `--repair` drops the records that cannot be read, rebuilds the
/// projections and the snapshot, and lists the items to index again.
enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        summary:
            "Check that the index is whole: SQLite's integrity check, every record read and verified, the identifier table, the snapshot, owner-only permissions. Exit 0 when whole, 1 with a report otherwise. With --repair, drop the records that cannot be read (listing them), rebuild the rest, and exit 0 when the index is whole afterwards.",
        arguments: "",
        options: [
            OptionSpec(
                names: ["--repair"], value: nil,
                help: "drop unreadable records, rebuild the projections and the snapshot; index the listed ids again afterwards")
        ],
        positionals: 0...0)

    static func run(_ context: CommandContext) async throws -> ExitStatus {
        let logger: any SiftLogger = context.arguments.flag("--verbose") ? StandardErrorLogger() : NullLogger()
        let configuration = SearchIndex.Configuration(
            directory: try context.indexDirectory(), embedder: try context.embedder(required: false), logger: logger,
            codec: try context.codec())
        if context.arguments.flag("--repair") {
            let report: IndexRepairReport
            do {
                report = try await SearchIndex.repair(configuration: configuration)
            } catch {
                throw CommandFailure("cannot repair the index: \(error)")
            }
            if context.json { context.printJSON(json(report)) } else { printRepair(report, name: context.indexName) }
            return report.after.isWhole ? .success : .failure
        }
        let report = SearchIndex.check(configuration: configuration)
        if context.json {
            context.printJSON(json(report))
        } else {
            printReport(report, name: context.indexName)
            if !report.isWhole {
                let n = report.unreadable.count
                print(
                    n > 0
                        ? "run `sift check --repair` to drop the \(n) unreadable record\(n == 1 ? "" : "s") and rebuild the rest; then index the listed items again"
                        : "run `sift check --repair` to rebuild what is not whole")
            }
        }
        return report.isWhole ? .success : .failure
    }

    /// At most this many detail lines a part in the text output (all of them in JSON).
    static let detailLimit = 20

    static func printReport(_ report: IndexCheckReport, name: String) {
        print("index '\(name)' at \(report.storePath ?? ":memory:"): \(report.isWhole ? "whole" : "NOT WHOLE")")
        for part in report.parts {
            let name = part.name.padding(toLength: 12, withPad: " ", startingAt: 0)
            let state = (part.isWhole ? "ok" : "damaged").padding(toLength: 8, withPad: " ", startingAt: 0)
            print("  \(name) \(state) \(part.summary)")
            for line in part.details.prefix(detailLimit) { print("      \(line)") }
            if part.details.count > detailLimit { print("      … and \(part.details.count - detailLimit) more (--json lists them all)") }
        }
    }

    static func printRepair(_ report: IndexRepairReport, name: String) {
        let n = report.dropped.count
        var line = "repaired index '\(name)': dropped \(n) unreadable record\(n == 1 ? "" : "s")"
        if report.droppedDonationsOfDroppedItems > 0 {
            line +=
                " and \(report.droppedDonationsOfDroppedItems) donation\(report.droppedDonationsOfDroppedItems == 1 ? "" : "s") of dropped items"
        }
        if report.rebuiltDatabase { line += "; rebuilt the database file from \(report.after.readableItems) readable items" }
        line += report.snapshotWritten ? "; wrote a new snapshot" : ""
        print(line)
        if !report.idsToReindex.isEmpty { print("index these items again: " + report.idsToReindex.map(\.rawValue).joined(separator: ", ")) }
        if !report.unidentifiedRowKeys.isEmpty {
            print(
                "\(report.unidentifiedRowKeys.count) dropped item\(report.unidentifiedRowKeys.count == 1 ? "'s id" : "s' ids") could not be read (row keys in --json)"
            )
        }
        printReport(report.after, name: name)
    }

    static func json(_ record: UnreadableRecord) -> [String: Any] {
        [
            "kind": record.kind.rawValue, "id": record.id.map { $0.rawValue as Any } ?? NSNull(), "row_key": record.rowKey,
            "row": record.row, "reason": record.reason,
        ]
    }

    static func json(_ report: IndexCheckReport) -> [String: Any] {
        [
            "index": report.index, "store": report.storePath ?? NSNull(), "whole": report.isWhole, "readable_items": report.readableItems,
            "parts": report.parts.map {
                ["name": $0.name, "whole": $0.isWhole, "summary": $0.summary, "details": $0.details] as [String: Any]
            },
            "unreadable": report.unreadable.map(json),
            "unreadable_item_ids": report.unreadableItemIDs.map(\.rawValue),
        ]
    }

    static func json(_ report: IndexRepairReport) -> [String: Any] {
        [
            "repaired": true, "whole": report.after.isWhole, "dropped": report.dropped.map(json),
            "reindex_ids": report.idsToReindex.map(\.rawValue), "unidentified_row_keys": report.unidentifiedRowKeys,
            "dropped_donations_of_dropped_items": report.droppedDonationsOfDroppedItems,
            "rebuilt_database": report.rebuiltDatabase, "snapshot_written": report.snapshotWritten,
            "before": json(report.before), "after": json(report.after),
        ]
    }
}
