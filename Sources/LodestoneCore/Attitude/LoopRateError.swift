#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How large the gyro's rate error is, learned from closed loops.
///
/// When the board comes back to an attitude it held a little earlier, having
/// turned whole times about up on the way, the compass reads the same error at
/// both ends: whatever its calibration left, it depends on the attitude alone.
/// So the change of the compass-minus-gyro difference over the loop is the
/// gyro's own drift, with no compass error in it. A scale error drifts by the
/// same fraction of every turn the same way (3 % of a part's sensitivity is
/// 11° a revolution), which no noise figure per radian turned describes; a
/// loop shows it, and nothing else does as cleanly. Back-and-forth motion,
/// where a scale error cancels, makes no loop with a whole turn about up and
/// teaches nothing.
///
/// A drift beyond what the readings' noise, the tilt, the bias's uncertainty
/// and the two ends' small difference of attitude explain, by more than
/// ``significance`` times, is a sample of the rate error squared: the excess
/// over the net turn squared. A sample above the figure replaces it at once (a
/// heading that claims too much is the worse mistake); a smaller one, or a
/// loop that closes cleanly, brings it down over ``loopsToLearn`` loops, never
/// below the part's own figure (as the bias takes in what a steady turn's
/// scale error looks like, the loops close cleanly again).
public struct LoopRateError: Hashable, Sendable {
    /// The gyro's rate error the filter assumes, as ``AttitudeFusion/Settings/gyroRateError`` squared.
    public private(set) var variance: Double
    /// The part's own figure, below which ``variance`` never goes.
    public let smallestVariance: Double
    /// How close the ends of a loop must be, rad.
    public let closingAngle: Double
    /// The longest loop, s: the bias's uncertainty grows with it.
    public let longestLoopTime: Double
    /// Time between the attitudes kept as possible starts of a loop, s.
    public let anchorSpacing: Double
    /// How many loops a smaller figure takes to be learned.
    public let loopsToLearn: Double
    /// How many times its explained variance a loop's drift squared must exceed to count.
    public let significance: Double
    /// How far the board turns before the compass error no longer resembles the old one, rad.
    private let correlationAngle: Double
    private let cosHalfClosingAngle: Double
    private var anchors: [Anchor] = []
    private var lastAnchorTime = -Double.infinity
    /// The anchors' smallest and largest net turn: no loop can close before the
    /// board has turned half a revolution from one of them, and most of the time
    /// it has not, so the anchors are not even looked at.
    private var lowestNetTurn = Double.infinity, highestNetTurn = -Double.infinity
    private var oldestAnchorTime = Double.infinity

    /// A compass reading kept as a possible start, with the net turn about up
    /// (rad, the gyro's) at the time.
    private struct Anchor: Hashable, Sendable {
        var reading: CompassErrorSpread.Reading
        var netTurn: Double
    }

    public init(smallestVariance: Double, correlationAngle: Double, closingAngle: Double = 5 * .pi / 180,
                longestLoopTime: Double = 60, anchorSpacing: Double = 1, loopsToLearn: Double = 3,
                significance: Double = 4) {
        variance = smallestVariance
        self.smallestVariance = smallestVariance
        self.correlationAngle = correlationAngle
        self.closingAngle = closingAngle
        cosHalfClosingAngle = cos(closingAngle / 2)
        self.longestLoopTime = longestLoopTime
        self.anchorSpacing = anchorSpacing
        self.loopsToLearn = loopsToLearn
        self.significance = significance
    }

    /// A clean, smoothed compass reading (``CompassErrorSpread``'s) and the
    /// gyro's net turn about up so far, rad. `compassVariance` is the compass
    /// error's, rad²; `persistentVariance` what the tilt's uncertainty adds to
    /// each end's heading, rad²; `biasVariance` the gyro bias's about up, (rad/s)².
    public mutating func observe(_ reading: CompassErrorSpread.Reading, netTurn: Double, compassVariance: Double,
                                 persistentVariance: Double, biasVariance: Double) {
        if reading.time - oldestAnchorTime > longestLoopTime { forgetOldAnchors(at: reading.time) }
        if netTurn - lowestNetTurn >= .pi || highestNetTurn - netTurn >= .pi,
           let closed = anchors.firstIndex(where: { closes($0, reading, netTurn) }) {
            let start = anchors[closed]
            interrupted() // the next loop starts here: overlapping loops would count one drift many times
            learn(from: start, to: reading, netTurn: netTurn, compassVariance: compassVariance,
                  persistentVariance: persistentVariance, biasVariance: biasVariance)
        }
        if reading.time - lastAnchorTime >= anchorSpacing {
            lastAnchorTime = reading.time
            anchors.append(Anchor(reading: reading, netTurn: netTurn))
            oldestAnchorTime = min(oldestAnchorTime, reading.time)
            lowestNetTurn = min(lowestNetTurn, netTurn)
            highestNetTurn = max(highestNetTurn, netTurn)
        }
    }

    /// A reading was disturbed or rejected: no loop spans it.
    public mutating func interrupted() {
        anchors.removeAll(keepingCapacity: true)
        lastAnchorTime = -Double.infinity
        lowestNetTurn = .infinity
        highestNetTurn = -.infinity
        oldestAnchorTime = .infinity
    }

    /// Anchors are kept in time order, one a second: at most the first goes.
    private mutating func forgetOldAnchors(at time: Double) {
        while let first = anchors.first, time - first.reading.time > longestLoopTime { anchors.removeFirst() }
        oldestAnchorTime = anchors.first?.reading.time ?? .infinity
        lowestNetTurn = .infinity
        highestNetTurn = -.infinity
        for a in anchors {
            lowestNetTurn = min(lowestNetTurn, a.netTurn)
            highestNetTurn = max(highestNetTurn, a.netTurn)
        }
    }

    /// Back at the start's attitude, a whole turn or more about up later.
    private func closes(_ start: Anchor, _ end: CompassErrorSpread.Reading, _ netTurn: Double) -> Bool {
        abs(netTurn - start.netTurn) >= .pi && abs(start.reading.attitude.dot(end.attitude)) >= cosHalfClosingAngle
    }

    private mutating func learn(from start: Anchor, to end: CompassErrorSpread.Reading, netTurn: Double,
                                compassVariance: Double, persistentVariance: Double, biasVariance: Double) {
        let drift = Angle.wrapped(radians: end.difference - start.reading.difference)
        let apart = 2 * acos(min(1, abs(start.reading.attitude.dot(end.attitude))))
        let time = end.time - start.reading.time
        let explained = start.reading.whiteVariance + end.whiteVariance + 2 * persistentVariance
            + biasVariance * time * time + 2 * compassVariance * apart / correlationAngle
        let turn = netTurn - start.netTurn
        let excess = drift * drift > significance * explained ? (drift * drift - explained) / (turn * turn) : 0
        variance = max(smallestVariance, excess > variance ? excess : variance + (excess - variance) / loopsToLearn)
    }
}
