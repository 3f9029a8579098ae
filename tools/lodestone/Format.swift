import LodestoneCore
import LodestoneLogs

/// Numbers as text for people: fixed decimals, no exponent, no locale.
enum Format {
    static func fixed(_ v: Double, _ decimals: Int) -> String {
        let j = JSONLineBuilder(capacity: 64)
        j.appendNumber(v, decimals: decimals)
        return v.isFinite ? j.text : "–"
    }

    /// `(x, y, z)` with fixed decimals.
    static func vector(_ v: Vector3, _ decimals: Int) -> String {
        "(\(fixed(v.x, decimals)), \(fixed(v.y, decimals)), \(fixed(v.z, decimals)))"
    }
}
