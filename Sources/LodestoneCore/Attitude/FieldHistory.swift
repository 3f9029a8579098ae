#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The earth field as the compass read it, from seconds to twenty minutes
/// ago, carried into the filter's present frame by what the filter turned
/// beyond the gyro since: what the compass would read now had its field not moved.
///
/// A disturbance that grows slowly (a board carried towards a motor, a
/// current ramping up) passes every test of a single reading, and the
/// heading follows it. When it ends at once, the compass jumps back to what
/// it read before the disturbance began, and the jump, the gyro having turned
/// less, looks like a field that came in a step (``CompassShift``,
/// ``FieldStep``). A step matches no earlier field; a return matches one.
///
/// Fields are kept at ages spread by octaves, so that whatever a disturbance
/// lasted, one is from before it and at most about twice as old: level `i`
/// takes the mean of the last block every `block · 2^i` s and keeps the one
/// it replaces.
struct FieldHistory: Sendable {
    static let block = 5.0
    static let levels = 8

    /// How the filter's heading moved apart from the gyro's own turn, all
    /// about the earth's up: the corrections (rad); the turn the bias taken
    /// out made (rad) and the body's up integrated over time (s), which makes
    /// any other bias a turn; the turn the scale correction added (rad) and
    /// the whole turn (rad), which makes any other scale one. And the angle
    /// the board turned through about any axis (rad), over which the
    /// compass's error at one attitude becomes another's.
    struct Frame: Sendable {
        var corrections = 0.0
        var biasTurn = 0.0
        var upTime = Vector3.zero
        var scaledTurn = 0.0
        var turn = 0.0
        var path = 0.0

        static func + (a: Frame, b: Frame) -> Frame {
            Frame(corrections: a.corrections + b.corrections, biasTurn: a.biasTurn + b.biasTurn,
                  upTime: a.upTime + b.upTime, scaledTurn: a.scaledTurn + b.scaledTurn, turn: a.turn + b.turn,
                  path: a.path + b.path)
        }

        static func * (a: Frame, k: Double) -> Frame {
            Frame(corrections: a.corrections * k, biasTurn: a.biasTurn * k, upTime: a.upTime * k,
                  scaledTurn: a.scaledTurn * k, turn: a.turn * k, path: a.path * k)
        }

        static func - (a: Frame, b: Frame) -> Frame { a + b * -1 }
    }

    /// A block's mean field, earth frame, µT, the frame it was read in, the
    /// gyro's bias (rad/s, body frame), its variance about up ((rad/s)²) and
    /// scale error about up then, its time, s, and its readings' number.
    struct Entry: Sendable {
        var field = Vector3.zero
        var frame = Frame()
        var bias = Vector3.zero
        var biasVariance = 0.0
        var scale = 0.0
        var time = 0.0
        var count = 0.0

        /// A block's sums as their mean.
        var mean: Entry {
            let k = 1 / count
            return Entry(field: field * k, frame: frame * k, bias: bias, biasVariance: biasVariance, scale: scale,
                         time: time, count: count)
        }
    }

    private var recent = [Entry?](repeating: nil, count: levels)
    private var older = [Entry?](repeating: nil, count: levels)
    private var blocks = 0
    private var current = Entry()
    private var blockStart: Double?
    private var frame = Frame()
    /// The last reading of the block just closed: what the compass read
    /// before a jump that comes before the next block has a reading.
    private var lastOfClosedBlock: Entry?

    /// A reading of the plain earth field that the heading accepted, earth
    /// frame, µT, at `time`, s, with the gyro's `bias`, its variance about
    /// up, and its `scale` error about up then.
    mutating func record(field e: Vector3, bias: Vector3, biasVariance: Double, scale: Double, time: Double) {
        current.field += e
        current.frame = current.frame + frame
        current.count += 1
        (current.bias, current.biasVariance, current.scale, current.time) = (bias, biasVariance, scale, time)
        guard let start = blockStart else {
            blockStart = time
            return
        }
        guard time - start >= Self.block else { return }
        var mean = current.mean
        mean.time = 0.5 * (start + time)
        for level in 0..<Self.levels where blocks % (1 << level) == 0 {
            older[level] = recent[level]
            recent[level] = mean
        }
        blocks += 1
        lastOfClosedBlock = Entry(field: e, frame: frame, bias: bias, biasVariance: biasVariance, scale: scale,
                                  time: time, count: 1)
        current = Entry()
        blockStart = time
    }

    /// The filter turned its heading by `angle`, rad.
    mutating func corrected(by angle: Double) {
        frame.corrections += angle
    }

    /// The gyro carried the attitude less `bias` (rad/s, body frame), and
    /// turned it by `turn` about up, `scaledTurn` of it added for its scale
    /// error, through `path` in all, for a while over which the body's up
    /// (its earth z row) integrates to `upTime`, s.
    mutating func carried(upTime: Vector3, bias: Vector3, turn: Double, scaledTurn: Double, path: Double) {
        frame.path += path
        frame.biasTurn += upTime.dot(bias)
        frame.upTime += upTime
        frame.turn += turn
        frame.scaledTurn += scaledTurn
    }

    /// An entry's field as the compass would read it now, earth frame, µT:
    /// turned by what the filter turned beyond what the gyro, less the bias
    /// known then, measured.
    func carried(_ entry: Entry) -> Vector3 {
        let since = frame - entry.frame
        let a = since.corrections - since.biasTurn + entry.bias.dot(since.upTime) + since.scaledTurn
            - entry.scale * since.turn
        let c = cos(a), s = sin(a), e = entry.field
        return Vector3(e.x * c - e.y * s, e.x * s + e.y * c, e.z)
    }

    /// What two readings of one field may differ by: each reading's `noise`
    /// (µT² an axis), the `tilt`'s uncertainty and the compass's error
    /// (`compass`), rad², at attitudes `correlationAngle` (rad) or more apart;
    /// and the bias's random walk (`walk`, (rad/s)²/s), which turns the field
    /// about up as the gyro carries it.
    struct Tolerance: Sendable {
        var gateSquared: Double
        var noise: Double
        var tilt: Double
        var compass: Double
        var correlationAngle: Double
        var walk: Double
    }

    /// A field read before, that the compass came back to: how long ago, s,
    /// and the field as it would read now, earth frame, µT.
    struct Return: Sendable {
        var age: Double
        var field: Vector3
    }

    /// The field that `field` (a reading at `time`, earth frame) matches best,
    /// of those it matches far better than the last field recorded before it
    /// does: the compass came back to where it read then. nil when there is none.
    ///
    /// Either reading may be the one that is disturbed: a field that came in a
    /// step leaves the last reading with the earlier ones, a disturbance that
    /// ended takes the new one back to them. Their squared distances, in
    /// standard deviations, weigh the two.
    func `return`(of field: Vector3, time: Double, tolerance t: Tolerance) -> Return? {
        // The readings of the block under way, averaged: one reading far out
        // by noise, then one back, is no return.
        guard let before = current.count > 0 ? current.mean : lastOfClosedBlock else { return nil }
        let beforeNow = carried(before)
        var best: (found: Return, distance: Double)?
        for entry in recent + older {
            guard let entry else { continue }
            let age = time - entry.time, then = carried(entry)
            let spread = spread(of: entry, age: age, then: then, tolerance: t)
            let returned = spread.distanceSquared(field, then), stayed = spread.distanceSquared(beforeNow, then)
            if returned <= 2 * t.gateSquared, stayed - returned >= t.gateSquared, returned < best?.distance ?? .infinity {
                best = (Return(age: age, field: then), returned)
            }
        }
        return best?.found
    }

    /// What two readings of one field may differ by, µT²: `noise` an axis,
    /// and `turn` along the horizontal, where the gyro's drift turns it.
    struct Spread {
        var noise: Double
        var turn: Double

        /// How far `a` is from `b` in standard deviations, squared: the
        /// horizontal strength and the vertical by the noise; the heading by
        /// the noise and the turn, as an arc (the turn may be any angle).
        func distanceSquared(_ a: Vector3, _ b: Vector3) -> Double {
            let ha = (a.x * a.x + a.y * a.y).squareRoot(), hb = (b.x * b.x + b.y * b.y).squareRoot()
            let strength = ha - hb, vertical = a.z - b.z
            let angle = Angle.wrapped(radians: atan2(a.x, a.y) - atan2(b.x, b.y))
            return (strength * strength + vertical * vertical) / noise + angle * angle * ha * hb / (noise + turn)
        }
    }

    /// What a reading now may differ from `entry`'s mean, carried to `then`,
    /// `age` s later: both readings' noise, the tilt's at each, the compass's
    /// error as far as the board turned since; and how far the gyro, less the
    /// bias known then, may have turned since: that bias's uncertainty and its walk.
    func spread(of entry: Entry, age: Double, then: Vector3, tolerance t: Tolerance) -> Spread {
        let horizontalSquared = then.x * then.x + then.y * then.y
        let compassChange = 1 - exp(-(frame.path - entry.frame.path) / t.correlationAngle)
        let noise = t.noise * (1 + 1 / entry.count) + 2 * t.tilt * then.squaredLength
            + 2 * compassChange * t.compass * horizontalSquared
        let turnVariance = entry.biasVariance * age * age + t.walk * age * age * age / 3
        return Spread(noise: noise, turn: turnVariance * horizontalSquared)
    }
}
