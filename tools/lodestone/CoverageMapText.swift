import LodestoneCalibration
import LodestoneCore

/// The coverage of the 100 equal-area regions as text, and sensor
/// directions in words, for the terminal.
enum CoverageMapText {
    /// One row per band (north cap first), `width` characters each; a region
    /// takes a share of its row in proportion to its longitude span, so the
    /// picture is area-true like the SVG map. `#` = samples, `.` = none; the
    /// ``legend(width:)`` lines go under it.
    static func rows(_ coverage: SphereCoverage, width: Int = 36) -> [String] {
        var rows: [String] = []
        var start = 0
        for (band, count) in EqualAreaSphere.bandCounts.enumerated() {
            var row = ""
            for column in 0..<width {
                let region = start + min(count - 1, column * count / width)
                row.append(coverage.counts[region] > 0 ? "#" : ".")
            }
            let label = band == 0 ? "+z " : (band == EqualAreaSphere.bandCounts.count - 1 ? "−z " : "   ")
            rows.append(label + row)
            start += count
        }
        return rows
    }

    /// The two lines under the map: where the columns point (longitude about z, from +x
    /// through +y; sector 0 of every band starts at +x), and what the marks mean.
    static func legend(width: Int = 36) -> [String] {
        var axes = Array(repeating: Character(" "), count: width)
        for (i, name) in ["+x", "+y", "−x", "−y"].enumerated() {
            for (j, c) in name.enumerated() where i * width / 4 + j < width { axes[i * width / 4 + j] = c }
        }
        return ["   " + String(axes).trimmingSpaces,
                "   # field seen there  . not yet (directions in the board's axes)"]
    }

    /// The part of the board a body-frame direction points out of, e.g.
    /// `the board's top face (+z)`, or for a direction between two axes
    /// `the board's bottom face/front edge (−z +y)`.
    static func boardPart(_ v: Vector3) -> String {
        let u = v.normalized
        let parts: [(Double, String, String)] = [
            (u.x, "right edge", "+x"), (-u.x, "left edge", "−x"),
            (u.y, "front edge", "+y"), (-u.y, "back edge", "−y"),
            (u.z, "top face", "+z"), (-u.z, "bottom face", "−z"),
        ].sorted { $0.0 > $1.0 }
        let a = parts[0], b = parts[1]
        if a.0 >= 0.85 || b.0 < 0.35 { return "the board's \(a.1) (\(a.2))" }
        return "the board's \(a.1)/\(b.1) (\(a.2) \(b.2))"
    }

    /// Where to aim a board part so that the field lies along it.
    static func fieldDirection(dip: Double?) -> String {
        guard let dip else { return "at magnetic north and down (up south of the magnetic equator)" }
        let rounded = Int(abs(dip).rounded())
        return "at magnetic north, \(rounded)° \(dip >= 0 ? "down" : "up")"
    }
}
