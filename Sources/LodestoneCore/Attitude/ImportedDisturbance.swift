#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How far the heading may have been bent by compass readings taken in a
/// field disturbed within the tolerances.
///
/// A reading whose strength or dip is off the reference by d µT beyond noise
/// may point up to about 2·d / h off (h the horizontal field), and the readings
/// around it share that bend: a field beside the board bends them all alike.
/// The filter counts it as white noise, which is right for how much one
/// reading may move the heading but not for many: averaged, white noise
/// vanishes and a shared bend does not. So the heading's share of it is
/// followed here, as a consider state of one (the bend itself never
/// estimated): each reading the filter takes moves the heading by its gain k,
/// and with it, k of that reading's possible bend; clean readings take it out
/// the same way, and turning away makes it another. Its square is added to the
/// heading's reported variance.
struct ImportedDisturbance: Sendable {
    /// The bend the heading may carry, rad (one standard deviation).
    private(set) var bend = 0.0
    /// Where the board was when the bend was last aged by turning.
    private var anchor: Quaternion?

    /// The variance it adds to the heading's, rad².
    var variance: Double { bend * bend }

    /// A reading moved the heading by `gain` (0–1) of its innovation; it may
    /// itself have been bent by `possibleBend` rad (0 for a clean one).
    mutating func corrected(gain: Double, possibleBend: Double) {
        let k = min(1, max(0, gain))
        bend += (possibleBend - bend) * k
    }

    /// The board is at `attitude`: a bend that comes with the attitude (a
    /// calibration's residual, a field near the board) is another one after
    /// `correlationAngle` (rad) of turning away from where it was taken. The
    /// turn counted is the net one, from an anchor moved on each quarter of
    /// that angle: a walker's or a boat's sway turns the board back and forth
    /// through tens of degrees a second and leaves it where it was.
    mutating func turned(to attitude: Quaternion, correlationAngle: Double) {
        guard bend != 0, let a = anchor else {
            anchor = attitude
            return
        }
        let angle = 2 * acos(min(1, abs(a.dot(attitude))))
        guard angle >= 0.25 * correlationAngle else { return }
        bend *= exp(-angle / correlationAngle)
        anchor = attitude
    }

    mutating func reset() {
        bend = 0
        anchor = nil
    }
}
