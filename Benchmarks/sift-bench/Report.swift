import Foundation

/// A JSON value with ordered object keys, so the output reads in a fixed, sensible order.
indirect enum JSONValue {
    case number(Double)
    case integer(Int)
    case string(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    func serialized(indent: Int = 0, pretty: Bool = true) -> String {
        switch self {
        case .number(let x):
            guard x.isFinite else { return "null" }
            if x == x.rounded() && abs(x) < 1e15 { return String(Int(x)) }
            let magnitude = abs(x)
            let digits = magnitude >= 100 ? 1 : magnitude >= 1 ? 3 : magnitude >= 0.01 ? 4 : 6
            var text = String(format: "%.\(digits)f", x)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return text
        case .integer(let n): return String(n)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .string(let s):
            var out = "\""
            for u in s.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                case "\r": out += "\\r"
                default:
                    if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
                }
            }
            return out + "\""
        case .array(let values):
            if values.isEmpty { return "[]" }
            if !pretty { return "[" + values.map { $0.serialized(pretty: false) }.joined(separator: ", ") + "]" }
            let pad = String(repeating: " ", count: indent + 2)
            let inner = values.map { pad + $0.serialized(indent: indent + 2, pretty: false) }
            return "[\n" + inner.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "]"
        case .object(let pairs):
            // A pretty object lists its keys one a line and its arrays one element a line; the
            // elements themselves (result rows) stay on one line each.
            let body = pairs.map { key, value in
                var childPretty = false
                if pretty, case .array = value { childPretty = true }
                return "\(JSONValue.string(key).serialized()): \(value.serialized(indent: indent + 2, pretty: childPretty))"
            }
            if !pretty { return "{" + body.joined(separator: ", ") + "}" }
            let pad = String(repeating: " ", count: indent + 2)
            return "{\n" + body.map { pad + $0 }.joined(separator: ",\n") + "\n" + String(repeating: " ", count: indent) + "}"
        }
    }
}

/// One result: a (N, measure) pair and its figures, in output order.
struct ResultRow {
    var n: Int
    var measure: String
    var fields: [(String, JSONValue)] = []

    init(n: Int, measure: String) {
        self.n = n
        self.measure = measure
    }

    mutating func set(_ key: String, _ value: Double?) {
        set(key, value.map { JSONValue.number($0) } ?? .null)
    }

    mutating func set(_ key: String, _ value: Int) { set(key, JSONValue.integer(value)) }
    mutating func set(_ key: String, _ value: String) { set(key, JSONValue.string(value)) }

    mutating func set(_ key: String, _ value: JSONValue) {
        if let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = value } else { fields.append((key, value)) }
    }

    func number(_ key: String) -> Double? {
        switch fields.first(where: { $0.0 == key })?.1 {
        case .number(let x)?: x.isFinite ? x : nil
        case .integer(let n)?: Double(n)
        default: nil
        }
    }

    func string(_ key: String) -> String? {
        if case .string(let s)? = fields.first(where: { $0.0 == key })?.1 { return s }
        return nil
    }

    var json: JSONValue { .object([("n", .integer(n)), ("measure", .string(measure))] + fields) }
}

/// One target of the issue and whether this run met it.
struct TargetCheck {
    var name: String
    var target: String
    var measured: String
    /// nil: could not be judged (not measured in this run).
    var met: Bool?

    var json: JSONValue {
        .object([("target", .string(name + ": " + target)), ("measured", .string(measured)), ("met", met.map { .bool($0) } ?? .null)])
    }

    var line: String {
        let verdict = met.map { $0 ? "met" : "NOT MET" } ?? "not judged"
        return "  [\(verdict)] \(name): \(target) — \(measured)"
    }
}

enum TableFormat {
    static func milliseconds(_ x: Double?) -> String {
        guard let x else { return "–" }
        if x >= 100 { return String(format: "%.0f", x) }
        if x >= 10 { return String(format: "%.1f", x) }
        if x >= 1 { return String(format: "%.2f", x) }
        return String(format: "%.3f", x)
    }

    static func rate(_ x: Double?) -> String {
        guard let x else { return "–" }
        let n = Int(x.rounded())
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return String(digits)
    }

    static func ratio(_ x: Double?) -> String {
        guard let x else { return "" }
        return x >= 100 ? String(format: "%.0f×", x) : x >= 10 ? String(format: "%.1f×", x) : String(format: "%.2f×", x)
    }

    /// The readable table of all rows.
    static func table(_ rows: [ResultRow]) -> String {
        var lines: [[String]] = [["N", "measure", "Sift", "peer", "peer figure", "Sift vs peer", "bound / note"]]
        for r in rows {
            var sift = ""
            var peerFigure = ""
            var extra = ""
            switch r.measure {
            case "embed", "index":
                sift = r.number("per_s").map { rate($0) + (r.measure == "embed" ? " texts/s" : " items/s") } ?? (r.string("note") ?? "–")
                if let cpu = r.number("cpu_per_s") { sift += " (\(rate(cpu))/CPU-s)" }
                peerFigure = r.number("peer_per_s").map { rate($0) + "/s" } ?? (r.string("peer_note") ?? "")
                if r.measure == "embed", let t = r.number("texts") { extra = "\(Int(t)) texts of 30 words, 1 thread" }
                if r.measure == "index", let b = r.number("batch") { extra = "batches of \(Int(b)), committed" }
            case "open":
                sift = "p50 \(milliseconds(r.number("p50_ms"))) ms"
                if let runs = r.number("runs") { extra = "\(Int(runs)) fresh process\(runs == 1 ? "" : "es")" }
                if let loaded = r.number("from_snapshot"), let runs = r.number("runs") {
                    extra +=
                        loaded == runs
                        ? ", all from the snapshot" : ", \(Int(loaded)) of \(Int(runs)) from the snapshot (\(r.string("outcomes") ?? ""))"
                }
                if let w = r.number("snapshot_write_ms") { extra += "; snapshot written in \(milliseconds(w)) ms" }
            case "memory":
                sift = r.number("bytes_per_item").map { "\(rate($0)) B/item RSS" } ?? "–"
                if let anonymous = r.number("anonymous_bytes_per_item"), let file = r.number("mapped_file_bytes_per_item") {
                    sift += " (anonymous \(rate(anonymous)), mapped file \(rate(file)))"
                }
                peerFigure = r.number("peer_disk_bytes_per_item").map { "disk \(rate($0)) B/item" } ?? ""
                extra = r.number("disk_bytes_per_item").map { "Sift disk \(rate($0)) B/item" } ?? ""
            default:
                if let p50 = r.number("p50_ms") {
                    sift = "p50 \(milliseconds(p50)) p95 \(milliseconds(r.number("p95_ms"))) p99 \(milliseconds(r.number("p99_ms"))) ms"
                } else {
                    sift = r.string("note") ?? "–"
                }
                if let peer = r.number("peer_p50_ms") {
                    peerFigure = "p50 \(milliseconds(peer)) p95 \(milliseconds(r.number("peer_p95_ms"))) ms"
                } else if let note = r.string("peer_note"), !note.hasPrefix("stopped") {
                    peerFigure = note
                }
                if let exact = r.number("exact_p50_ms") {
                    sift += "; exact path p50 \(milliseconds(exact)) p95 \(milliseconds(r.number("exact_p95_ms")))"
                    if let agreement = r.number("agreement_at_10") { sift += String(format: ", top-10 agreement %.3f", agreement) }
                }
                var budgetNotes: [String] = []
                if r.string("note")?.hasPrefix("stopped") == true, let q = r.number("queries") {
                    budgetNotes.append("\(Int(q)) queries (budget)")
                }
                if r.string("exact_note") != nil, let q = r.number("exact_queries") {
                    budgetNotes.append("exact: \(Int(q)) queries (budget)")
                }
                if r.string("peer_note")?.hasPrefix("stopped") == true, let q = r.number("peer_queries") {
                    budgetNotes.append("FTS5: \(Int(q)) queries (budget)")
                }
                extra = budgetNotes.joined(separator: ", ")
                if let bound = r.number("bound_ms") {
                    if !extra.isEmpty { extra += "; " }
                    extra += "bound \(milliseconds(bound)) ms"
                    if let b = r.number("bound_ratio") { extra += ", p50 = \(ratio(b)) bound" }
                    if let s = r.number("scan_ms") { extra += ", scan fp32 \(milliseconds(s))" }
                    if let s = r.number("scan_fp16_ms") { extra += " fp16 \(milliseconds(s))" }
                    if let s = r.number("scan_int8_ms") {
                        let share =
                            r.number("scan_int8_bandwidth_share").map { String(format: " (%.0f%% of the bound's GB/s)", $0 * 100) } ?? ""
                        extra += " int8 \(milliseconds(s))\(share)"
                    }
                    if r.number("scan_quantized_bits") == 4, let s = r.number("scan_quantized_ms") {
                        let share =
                            r.number("scan_quantized_bandwidth_share").map { String(format: " (%.0f%% of the bound's GB/s)", $0 * 100) }
                            ?? ""
                        extra += " 4-bit \(milliseconds(s))\(share)"
                    }
                    extra += " ms"
                }
            }
            lines.append([String(r.n), r.measure, sift, r.string("peer").map(shortPeer) ?? "", peerFigure, ratio(r.number("ratio")), extra])
        }
        let widths = (0..<lines[0].count).map { c in lines.map { $0[c].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { c, cell in
                c == 0
                    ? String(repeating: " ", count: widths[c] - cell.count) + cell
                    : cell + String(repeating: " ", count: widths[c] - cell.count)
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }.joined(separator: "\n")
    }

    static func shortPeer(_ peer: String) -> String {
        if peer.hasPrefix("SQLite FTS5") { return "FTS5" }
        if peer.hasPrefix("teacher") { return "teacher" }
        return peer
    }
}
