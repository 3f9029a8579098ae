#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// A one-page SVG picture of a calibration, for people to check by eye.
///
/// Top row: raw samples in the XY, YZ and ZX planes with the outline of the
/// fitted ellipsoid (the ellipse bounding its projection) and its centre, the
/// offset. Middle row: corrected samples with the circle of the corrected
/// magnitude; a good calibration puts the points on or inside the circle,
/// centred, round. Bottom: the 100 equal-area coverage regions (Lambert
/// cylindrical equal-area map of the corrected directions, so every cell has
/// the same area) and a summary. Pure: returns the SVG text.
public enum CalibrationReportSVG {
    static let panel = 340.0
    static let gap = 30.0
    static let margin = 40.0

    /// - Parameters:
    ///   - raw: the raw samples (sensor units).
    ///   - fit: the fit, or nil when it was rejected (only raw data is drawn).
    ///   - title: first line of the page.
    ///   - notes: extra summary lines, e.g. the source file or a rejection reason.
    ///   - maximumPoints: samples drawn per panel at most (evenly thinned).
    public static func render(raw: [Vector3], fit: CalibrationFit?, title: String = "Magnetometer calibration",
                              unit: String = "µT", notes: [String] = [], maximumPoints: Int = 2500) -> String {
        let stride = max(1, (raw.count + maximumPoints - 1) / max(maximumPoints, 1))
        let shown = Swift.stride(from: 0, to: raw.count, by: stride).map { raw[$0] }
        let width = 2 * margin + 3 * panel + 2 * gap
        let mapWidth = 2 * panel + gap
        let mapHeight = (mapWidth / Double.pi).rounded()
        let rowY = [70.0, 70 + panel + gap + 10]
        let mapY = (fit == nil ? rowY[1] : rowY[1] + panel + gap + 10) + 10
        let height = mapY + max(mapHeight, 250) + 70
        var svg: [String] = []
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">")
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>")
        svg.append(text(margin, 32, title, size: 18, weight: "bold"))

        let planes = [(0, 1, "XY"), (1, 2, "YZ"), (2, 0, "ZX")]
        let axisNames = ["x", "y", "z"]
        // Raw row: a common scale for the three panels, around the origin so the offset shows.
        var outlines: [[[(Double, Double)]]] = []
        var rawExtent = shown.reduce(1e-9) { max($0, abs($1.x), abs($1.y), abs($1.z)) }
        for (a, b, _) in planes {
            let o = fit.map { [$0.ellipsoid.projectedOutline(first: a, second: b)] } ?? []
            outlines.append(o)
            for line in o { for p in line { rawExtent = max(rawExtent, abs(p.0), abs(p.1)) } }
        }
        rawExtent *= 1.08
        for (i, (a, b, name)) in planes.enumerated() {
            let x = margin + Double(i) * (panel + gap)
            let centre = fit.map { [($0.ellipsoid.centre[a], $0.ellipsoid.centre[b])] } ?? []
            svg.append(scatter(x: x, y: rowY[0], extent: rawExtent, points: shown.map { ($0[a], $0[b]) },
                               colour: "#3b6fb6", curves: outlines[i], markers: centre,
                               label: "raw \(name) (\(unit))", xName: axisNames[a], yName: axisNames[b]))
        }
        if let fit {
            let corrected = shown.map(fit.apply)
            let radius = fit.correctedMagnitude
            let extent = max(corrected.reduce(radius) { max($0, abs($1.x), abs($1.y), abs($1.z)) }, radius) * 1.08
            let circle = (0...96).map { k -> (Double, Double) in
                let t = 2 * Double.pi * Double(k) / 96
                return (radius * cos(t), radius * sin(t))
            }
            for (i, (a, b, name)) in planes.enumerated() {
                let x = margin + Double(i) * (panel + gap)
                svg.append(scatter(x: x, y: rowY[1], extent: extent, points: corrected.map { ($0[a], $0[b]) },
                                   colour: "#2e8b57", curves: [circle], markers: [(0, 0)],
                                   label: "corrected \(name) (\(unit))", xName: axisNames[a], yName: axisNames[b]))
            }
        }
        let coverage = fit?.coverage ?? roughCoverage(raw)
        svg.append(coverageMap(x: margin, y: mapY, width: mapWidth, height: mapHeight, coverage: coverage,
                               caption: fit == nil ? "coverage (directions from the raw data's centre)" : "coverage (corrected directions)"))
        svg.append(summary(x: margin + mapWidth + gap, y: mapY + 14, fit: fit, unit: unit, notes: notes,
                           sampleCount: raw.count))
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    // MARK: pieces

    private static func scatter(x: Double, y: Double, extent: Double, points: [(Double, Double)], colour: String,
                                curves: [[(Double, Double)]], markers: [(Double, Double)], label: String,
                                xName: String, yName: String) -> String {
        let s = panel / (2 * extent)
        func px(_ u: Double) -> Double { x + panel / 2 + u * s }
        func py(_ v: Double) -> Double { y + panel / 2 - v * s }
        var out: [String] = []
        out.append("<g>")
        out.append("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(panel))\" height=\"\(n(panel))\" fill=\"#fbfbfb\" stroke=\"#888\"/>")
        // Grid at a round step, axes through the origin.
        let step = niceStep(extent / 2.5)
        let lines = min(Int(saturating: (extent / step).rounded(.down)), 10)
        for k in -lines...lines {
            let g = Double(k) * step
            let dash = k == 0 ? "" : " stroke-dasharray=\"2,3\""
            let colour = k == 0 ? "#999" : "#ddd"
            out.append("<line x1=\"\(n(px(g)))\" y1=\"\(n(y))\" x2=\"\(n(px(g)))\" y2=\"\(n(y + panel))\" stroke=\"\(colour)\"\(dash)/>")
            out.append("<line x1=\"\(n(x))\" y1=\"\(n(py(g)))\" x2=\"\(n(x + panel))\" y2=\"\(n(py(g)))\" stroke=\"\(colour)\"\(dash)/>")
            out.append(text(px(g), y + panel + 13, n(g, 0), size: 10, anchor: "middle", colour: "#666"))
            out.append(text(x - 4, py(g) + 3, n(g, 0), size: 10, anchor: "end", colour: "#666"))
        }
        out.append("<g fill=\"\(colour)\" fill-opacity=\"0.35\">")
        for (u, v) in points where abs(u) <= extent && abs(v) <= extent {
            out.append("<circle cx=\"\(n(px(u)))\" cy=\"\(n(py(v)))\" r=\"1.3\"/>")
        }
        out.append("</g>")
        for curve in curves where !curve.isEmpty {
            let d = curve.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(n(px($0.element.0))),\(n(py($0.element.1)))" }.joined()
            out.append("<path d=\"\(d)Z\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.6\"/>")
        }
        for (u, v) in markers {
            out.append("<path d=\"M\(n(px(u) - 6)),\(n(py(v)))h12M\(n(px(u))),\(n(py(v) - 6))v12\" stroke=\"#d62728\" stroke-width=\"2\"/>")
        }
        out.append(text(x + 4, y - 6, label, size: 12, weight: "bold"))
        out.append(text(x + panel - 4, y + panel - 6, "→ \(xName)", size: 11, anchor: "end", colour: "#444"))
        out.append(text(x + 6, y + 14, "↑ \(yName)", size: 11, colour: "#444"))
        out.append("</g>")
        return out.joined(separator: "\n")
    }

    private static func coverageMap(x: Double, y: Double, width: Double, height: Double, coverage: SphereCoverage,
                                    caption: String) -> String {
        var out: [String] = ["<g>"]
        out.append(text(x, y - 6, "\(caption): \(n(coverage.coveragePercent, 0)) % of 100 equal-area regions", size: 12, weight: "bold"))
        let top = coverage.counts.max() ?? 1
        for region in 0..<EqualAreaSphere.regionCount {
            let b = EqualAreaSphere.bounds(of: region)
            let x0 = x + b.longitudeRange.lowerBound / (2 * Double.pi) * width
            let x1 = x + b.longitudeRange.upperBound / (2 * Double.pi) * width
            let y0 = y + (1 - b.zRange.upperBound) / 2 * height
            let y1 = y + (1 - b.zRange.lowerBound) / 2 * height
            let count = coverage.counts[region]
            let fill = cellFill(count: count, top: top)
            out.append("<rect x=\"\(n(x0))\" y=\"\(n(y0))\" width=\"\(n(x1 - x0))\" height=\"\(n(y1 - y0))\" fill=\"\(fill)\" stroke=\"#777\" stroke-width=\"0.6\"><title>region \(region): \(count) samples</title></rect>")
        }
        out.append("<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"\(n(width))\" height=\"\(n(height))\" fill=\"none\" stroke=\"#333\"/>")
        for (k, name) in ["+x", "+y", "−x", "−y", "+x"].enumerated() {
            out.append(text(x + Double(k) / 4 * width, y + height + 14, name, size: 11, anchor: "middle", colour: "#444"))
        }
        out.append(text(x - 4, y + 10, "+z", size: 11, anchor: "end", colour: "#444"))
        out.append(text(x - 4, y + height / 2 + 4, "0", size: 11, anchor: "end", colour: "#444"))
        out.append(text(x - 4, y + height, "−z", size: 11, anchor: "end", colour: "#444"))
        out.append(text(x, y + height + 30, "white = no samples; x: direction's longitude about z, y: its z component (area-true)", size: 10, colour: "#666"))
        // The polar caps are strips too thin to see on the map: repeat them as discs.
        let capsY = y + height + 50
        out.append(text(x, capsY + 4, "polar caps (the thin top and bottom strips):", size: 11, colour: "#444"))
        for (k, (region, name)) in [(0, "+z cap"), (EqualAreaSphere.regionCount - 1, "−z cap")].enumerated() {
            let cx = x + 262 + Double(k) * 150
            let count = coverage.counts[region]
            out.append("<ellipse cx=\"\(n(cx))\" cy=\"\(n(capsY))\" rx=\"9\" ry=\"9\" fill=\"\(cellFill(count: count, top: top))\" stroke=\"#777\"><title>region \(region): \(count) samples</title></ellipse>")
            out.append(text(cx + 14, capsY + 4, "\(name): \(count == 0 ? "empty" : "\(count) samples")", size: 11, colour: "#444"))
        }
        out.append("</g>")
        return out.joined(separator: "\n")
    }

    /// White for an empty region, darker green for more samples (log scale).
    private static func cellFill(count: Int, top: Int) -> String {
        guard count > 0 else { return "#ffffff" }
        let t = log(Double(count) + 1) / log(Double(max(top, 1)) + 1)
        let g = Int(200 - 90 * t), r = Int(170 - 140 * t)
        return "rgb(\(r),\(g),\(Int(120 - 60 * t)))"
    }

    private static func summary(x: Double, y: Double, fit: CalibrationFit?, unit: String, notes: [String],
                                sampleCount: Int) -> String {
        var lines: [String] = []
        if let fit {
            let modelText: String
            switch fit.model {
            case .full: modelText = "full (offset + symmetric 3×3)"
            case .diagonal: modelText = "diagonal (offset + axis scales)"
            case .sphere: modelText = "sphere (offset + one scale)"
            }
            lines.append("Model: \(modelText)")
            lines.append("Grade: \(fit.grade.rawValue)")
            lines.append("Fit error: \(n(fit.fitErrorPercent, 2)) %  (RMS of (|B|−R)/R)")
            lines.append("Residual RMS: \(n(fit.residualRMS, 2)) \(unit)  (max \(n(fit.residuals.maximumResidual, 2)))")
            var magnitude = "Fitted magnitude: \(n(fit.fittedMagnitude, 2)) \(unit)"
            if let e = fit.expectedMagnitude, let r = fit.magnitudeRatio {
                magnitude += "; expected \(n(e, 2)) (ratio \(n(r, 3)))"
            } else {
                magnitude += "; expected: not given"
            }
            lines.append(magnitude)
            lines.append("Coverage: \(n(fit.coveragePercent, 0)) %  (\(fit.coverage.gaps.count) empty regions)")
            lines.append("Samples: \(fit.sampleCount) (\(fit.residuals.outlierCount) outliers left out)")
            let o = fit.offset
            lines.append("Offset: (\(n(o.x, 2)), \(n(o.y, 2)), \(n(o.z, 2))) \(unit)")
            let m = fit.matrix
            lines.append("Matrix: [\(n(m[0, 0], 4)) \(n(m[0, 1], 4)) \(n(m[0, 2], 4))]")
            lines.append("        [\(n(m[1, 0], 4)) \(n(m[1, 1], 4)) \(n(m[1, 2], 4))]")
            lines.append("        [\(n(m[2, 0], 4)) \(n(m[2, 1], 4)) \(n(m[2, 2], 4))]")
            let c = fit.conditioning
            lines.append("Direction spread: sphere \(n(c.sphere, 2)), diagonal \(n(c.diagonal, 2)), full \(n(c.full, 2))")
        } else {
            lines.append("No calibration (fit rejected)")
            lines.append("Samples: \(sampleCount)")
        }
        lines += notes.flatMap { wrap($0, width: 58) }
        var out: [String] = ["<g>"]
        out.append(text(x, y, "Summary", size: 13, weight: "bold"))
        for (i, line) in lines.enumerated() {
            out.append(text(x, y + 20 + Double(i) * 17, line, size: 12, family: line.hasPrefix("Matrix") || line.hasPrefix("      ") ? "DejaVu Sans Mono, monospace" : nil))
        }
        out.append("</g>")
        return out.joined(separator: "\n")
    }

    /// Coverage around the algebraic sphere centre, for a rejected fit.
    private static func roughCoverage(_ raw: [Vector3]) -> SphereCoverage {
        guard let fit = EllipsoidFit(points: raw), let sphere = fit.algebraicEstimate(.sphere) else { return SphereCoverage() }
        return SphereCoverage(directions: raw.map { $0 - sphere.centre })
    }

    // MARK: text helpers

    /// Splits `s` at spaces into lines of at most `width` characters (longer words stay whole).
    static func wrap(_ s: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in s.split(separator: " ", omittingEmptySubsequences: true) {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = "  " + word
            } else {
                current += current.isEmpty ? String(word) : " " + word
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    private static func text(_ x: Double, _ y: Double, _ s: String, size: Double, weight: String? = nil,
                             anchor: String? = nil, colour: String? = nil, family: String? = nil) -> String {
        var attrs = "x=\"\(n(x))\" y=\"\(n(y))\" font-size=\"\(n(size))\""
        if let weight { attrs += " font-weight=\"\(weight)\"" }
        if let anchor { attrs += " text-anchor=\"\(anchor)\"" }
        if let colour { attrs += " fill=\"\(colour)\"" }
        if let family { attrs += " font-family=\"\(family)\" xml:space=\"preserve\"" }
        return "<text \(attrs)>\(escape(s))</text>"
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Fixed-point text with `decimals` places (1 by default), "-0" avoided.
    static func n(_ v: Double, _ decimals: Int = 1) -> String {
        guard v.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let r = (v * scale).rounded()
        guard abs(r) < 9e15 else { return String(v) }
        if r == 0 { return decimals == 0 ? "0" : "0." + String(repeating: "0", count: decimals) }
        let negative = r < 0
        let digits = String(Int(abs(r)))
        guard decimals > 0 else { return (negative ? "-" : "") + digits }
        let padded = String(repeating: "0", count: max(decimals + 1 - digits.count, 0)) + digits
        let cut = padded.index(padded.endIndex, offsetBy: -decimals)
        return (negative ? "-" : "") + padded[..<cut] + "." + padded[cut...]
    }

    /// 1, 2 or 5 × a power of ten, near `x`.
    static func niceStep(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        let p = pow(10, (log10(x)).rounded(.down))
        let f = x / p
        return (f < 1.5 ? 1 : (f < 3.5 ? 2 : (f < 7.5 ? 5 : 10))) * p
    }
}
