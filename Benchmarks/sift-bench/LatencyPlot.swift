import Foundation

/// A log-log plot of p50 query latency against N, as plain SVG text: one line per mode, FTS5,
/// and the memory-bandwidth bound of the vector scan.
enum LatencyPlot {
    struct Series {
        var name: String
        var color: String
        var dashed: Bool
        var points: [(n: Double, ms: Double)]
    }

    static func series(from rows: [ResultRow]) -> [Series] {
        func points(_ measure: String, _ key: String) -> [(n: Double, ms: Double)] {
            rows.filter { $0.measure == measure }.compactMap { r in
                r.number(key).flatMap { $0 > 0 ? (Double(r.n), $0) : nil }
            }.sorted { $0.n < $1.n }
        }
        var bound = points("query.hybrid", "bound_ms")
        if bound.isEmpty { bound = points("query.semantic", "bound_ms") }
        return [
            Series(name: "Sift keyword p50", color: "#1f77b4", dashed: false, points: points("query.keyword", "p50_ms")),
            Series(name: "Sift semantic p50", color: "#2ca02c", dashed: false, points: points("query.semantic", "p50_ms")),
            Series(name: "Sift hybrid p50", color: "#d62728", dashed: false, points: points("query.hybrid", "p50_ms")),
            Series(name: "Sift hybrid p50, exact path", color: "#9467bd", dashed: false, points: points("query.hybrid", "exact_p50_ms")),
            Series(name: "SQLite FTS5 p50", color: "#ff7f0e", dashed: true, points: points("query.keyword", "peer_p50_ms")),
            Series(name: "fp32 bandwidth bound (one read of the matrix)", color: "#7f7f7f", dashed: true, points: bound),
        ].filter { !$0.points.isEmpty }
    }

    static func svg(rows: [ResultRow], title: String) -> String {
        let all = series(from: rows)
        let width = 760.0
        let height = 500.0
        let left = 70.0
        let right = 20.0
        let top = 40.0
        let bottom = 60.0
        let plotW = width - left - right
        let plotH = height - top - bottom
        let ns = all.flatMap { $0.points.map(\.n) }
        let ms = all.flatMap { $0.points.map(\.ms) }
        let xLo = floor(log10(ns.min() ?? 1_000))
        let xHi = max(ceil(log10(ns.max() ?? 100_000)), xLo + 1)
        let yLo = floor(log10(ms.min() ?? 0.01))
        let yHi = max(ceil(log10(ms.max() ?? 10)), yLo + 1)
        func x(_ n: Double) -> Double { left + (log10(n) - xLo) / (xHi - xLo) * plotW }
        func y(_ v: Double) -> Double { top + plotH - (log10(v) - yLo) / (yHi - yLo) * plotH }
        func f(_ v: Double) -> String { String(format: "%.1f", v) }
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
                of: ">", with: "&gt;")
        }
        func decadeLabel(_ e: Double, unit: String) -> String {
            let v = pow(10, e)
            if unit == "N" {
                return v >= 1_000_000 ? "\(Int(v / 1_000_000))M" : v >= 1_000 ? "\(Int(v / 1_000))k" : "\(Int(v))"
            }
            return v >= 1 ? "\(Int(v))" : String(format: "%g", v)
        }

        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(f(width / 2))" y="22" text-anchor="middle" font-size="15">\(escape(title))</text>

            """
        // Grid, ticks and labels.
        var e = xLo
        while e <= xHi {
            let px = x(pow(10, e))
            svg += "<line x1=\"\(f(px))\" y1=\"\(f(top))\" x2=\"\(f(px))\" y2=\"\(f(top + plotH))\" stroke=\"#e0e0e0\"/>\n"
            svg += "<text x=\"\(f(px))\" y=\"\(f(top + plotH + 18))\" text-anchor=\"middle\">\(decadeLabel(e, unit: "N"))</text>\n"
            e += 1
        }
        e = yLo
        while e <= yHi {
            let py = y(pow(10, e))
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(py))\" x2=\"\(f(left + plotW))\" y2=\"\(f(py))\" stroke=\"#e0e0e0\"/>\n"
            svg += "<text x=\"\(f(left - 8))\" y=\"\(f(py + 4))\" text-anchor=\"end\">\(decadeLabel(e, unit: "ms"))</text>\n"
            e += 1
        }
        svg += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" fill=\"none\" stroke=\"black\"/>\n"
        svg += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 18))\" text-anchor=\"middle\">items N (log scale)</text>\n"
        svg +=
            "<text transform=\"translate(18 \(f(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\">query latency p50, ms (log scale)</text>\n"

        // Series.
        for s in all {
            let path = s.points.map { "\(f(x($0.n))),\(f(y($0.ms)))" }.joined(separator: " ")
            let dash = s.dashed ? " stroke-dasharray=\"6 4\"" : ""
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash)/>\n"
            for p in s.points {
                svg +=
                    "<circle cx=\"\(f(x(p.n)))\" cy=\"\(f(y(p.ms)))\" r=\"3.5\" fill=\"\(s.color)\"><title>\(escape(s.name)) N=\(Int(p.n)): \(TableFormat.milliseconds(p.ms)) ms</title></circle>\n"
            }
        }

        // Legend (top left, inside the plot).
        var ly = top + 16
        let legendH = Double(all.count) * 18 + 8
        svg +=
            "<rect x=\"\(f(left + 10))\" y=\"\(f(top + 4))\" width=\"330\" height=\"\(f(legendH))\" fill=\"white\" fill-opacity=\"0.85\" stroke=\"#bbbbbb\"/>\n"
        for s in all {
            let dash = s.dashed ? " stroke-dasharray=\"6 4\"" : ""
            svg +=
                "<line x1=\"\(f(left + 18))\" y1=\"\(f(ly))\" x2=\"\(f(left + 48))\" y2=\"\(f(ly))\" stroke=\"\(s.color)\" stroke-width=\"2\"\(dash)/>\n"
            svg += "<text x=\"\(f(left + 56))\" y=\"\(f(ly + 4))\">\(escape(s.name))</text>\n"
            ly += 18
        }
        svg += "</svg>\n"
        return svg
    }
}
