import Foundation

/// ISO 8601 dates as Sift reads and writes them, always in UTC.
package enum ISODate {
    /// Parses `2026-11-30T08:00:00Z`, `2026-11-30T08:00:00.250+01:00`, `2026-11-30T08:00Z`
    /// or `2026-11-30` (midnight UTC).
    package static func parse(_ text: String) -> Date? {
        let s = text.trimmingCharacters(in: .whitespaces)
        guard s.utf8.count >= 10, s.utf8.count <= 40 else { return nil }
        let plain = ISO8601DateFormatter()
        if let d = plain.date(from: s) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = fractional.date(from: s) { return d }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        if s.utf8.count == 10, let d = dateOnly.date(from: s) { return d }
        // HH:MM without seconds: Foundation's formatter insists on seconds, so supply ":00".
        let utf8 = Array(s.utf8)
        if utf8.count >= 17, utf8[10] == UInt8(ascii: "T"), utf8[13] == UInt8(ascii: ":"),
            [UInt8(ascii: "Z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(utf8[16])
        {
            let withSeconds = String(decoding: utf8[..<16] + Array(":00".utf8) + utf8[16...], as: UTF8.self)
            if let d = plain.date(from: withSeconds) { return d }
        }
        return nil
    }

    /// `2026-11-30T08:00:00Z`.
    package static func string(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
