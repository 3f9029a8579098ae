#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// The small rotation that turns a calibrated magnetometer's axes onto the
/// accelerometer's.
///
/// An ellipsoid fit finds the field's centre and shape, never its orientation:
/// its matrix is symmetric, so a magnetometer mounted a few degrees askew of
/// the accelerometer (two chips, or two dies in one package) keeps that tilt.
/// The heading is then off by up to the tilt times (1 + tan dip), differently
/// at every attitude (docs/calibration.md).
///
/// What shows it is the dip. The field and gravity keep one angle between
/// them wherever the board points, so a board held in many attitudes sees one
/// dip through a well-aligned pair of sensors; a rotation `R` of the
/// magnetometer makes the dip vary with the attitude. The fit finds the `R`
/// under which the dip `asin(−ĝ · R·b̂)` is most nearly one constant over
/// still readings (least squares, linearised about the current `R` and
/// repeated; readings more than three robust deviations off are left out). This is the dip
/// constraint of Li and Li ("Calibration of a MEMS inertial measurement unit
/// with the dip angle constraint", 2012) and of Kok and Schön ("Magnetometer
/// calibration using inertial sensors", IEEE Sensors Journal, 2016).
///
/// Only still readings count: the two sensors sample at different instants,
/// so a turn between them looks like a misalignment, and a board that
/// accelerates tilts the accelerometer's "up". A rotation about an axis the
/// readings did not turn the board about is not determined (a level turn
/// leaves the one about up free): then the fit says so and changes nothing.
public struct MagnetometerAlignment: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Fastest turn of a reading that counts as still, rad/s.
        public var stillRate: Double
        /// How far |a| may be from its median, as a fraction, for a reading to count.
        public var gravityTolerance: Double
        /// Fewest still readings for a fit.
        public var minimumReadings: Int
        /// Largest 1σ uncertainty of the rotation (about its worst axis) that is applied, degrees.
        public var largestUncertainty: Double
        /// Largest rotation taken, degrees: more is a sensor's axes mapped wrongly
        /// (its mount matrix), not a chip mounted askew.
        public var largestAngle: Double
        /// The dip's spread after the rotation may be at most this fraction of
        /// the spread before: a rotation is taken when it explains a good part
        /// of the dip's variance (a third), not when it merely shifts it.
        public var largestSpreadRatio: Double
        /// Readings this many robust standard deviations off the constant dip are left out.
        public var outlierDeviations: Double
        public var iterations: Int

        public init(stillRate: Double = 20 * .pi / 180, gravityTolerance: Double = 0.03, minimumReadings: Int = 100,
                    largestUncertainty: Double = 0.25, largestAngle: Double = 10, largestSpreadRatio: Double = 0.8,
                    outlierDeviations: Double = 3, iterations: Int = 5) {
            self.stillRate = stillRate
            self.gravityTolerance = gravityTolerance
            self.minimumReadings = minimumReadings
            self.largestUncertainty = largestUncertainty
            self.largestAngle = largestAngle
            self.largestSpreadRatio = largestSpreadRatio
            self.outlierDeviations = outlierDeviations
            self.iterations = iterations
        }
    }

    /// One reading: the calibrated field, the specific force (up), and the
    /// turn rate when a gyroscope gave one.
    public struct Reading: Hashable, Sendable {
        public var field: Vector3
        public var acceleration: Vector3
        public var angularRate: Vector3?

        public init(field: Vector3, acceleration: Vector3, angularRate: Vector3? = nil) {
            self.field = field
            self.acceleration = acceleration
            self.angularRate = angularRate
        }
    }

    /// Why no rotation was fitted.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        case tooFewStillReadings(count: Int, needed: Int)
        /// The attitudes seen leave the rotation about some axis free.
        case undetermined(uncertainty: Double, limit: Double)
        /// The best rotation leaves most of the dip's spread: something else
        /// (the board's accelerations, a disturbed field, the fit) causes it.
        case unexplainedSpread(angle: Double, before: Double, after: Double)
        /// A rotation beyond ``Settings/largestAngle``.
        case implausible(angle: Double, limit: Double)

        public var description: String {
            switch self {
            case let .tooFewStillReadings(count, needed):
                return "\(count) still readings, \(needed) needed: pause in several attitudes while turning"
            case let .undetermined(uncertainty, limit):
                return "not pinned down (±\(formatNumber(uncertainty))° against ±\(formatNumber(limit))°): "
                    + "turn through more attitudes, every face up"
            case let .unexplainedSpread(angle, before, after):
                return "a \(formatNumber(angle))° turn would take the dip's spread only from \(formatNumber(before))° to "
                    + "\(formatNumber(after))°: hold still in more attitudes, away from iron"
            case let .implausible(angle, limit):
                return "a \(formatNumber(angle))° turn is more than a chip mounted askew (\(formatNumber(limit))°): "
                    + "check the magnetometer's axes against the accelerometer's (mount matrix)"
            }
        }
    }

    /// Turns a calibrated reading into the accelerometer's axes: apply after the calibration.
    public var rotation: Matrix3
    /// The rotation's angle, degrees.
    public var angle: Double
    /// 1σ uncertainty about the rotation's worst-determined axis, degrees.
    public var uncertainty: Double
    /// Robust standard deviation of the dip over the readings used, before and after, degrees.
    public var dipSpreadBefore: Double
    public var dipSpreadAfter: Double
    /// The still readings used (outliers left out) and those found still.
    public var readingsUsed: Int
    public var stillReadings: Int

    /// Fits the rotation to `readings`, or says why it cannot.
    public static func fit(_ readings: [Reading], settings: Settings = Settings()) -> Result<MagnetometerAlignment, Refusal> {
        let pairs = stillPairs(readings, settings: settings)
        guard pairs.count >= settings.minimumReadings else {
            return .failure(.tooFewStillReadings(count: pairs.count, needed: settings.minimumReadings))
        }
        var used = [Bool](repeating: true, count: pairs.count)
        var rotation = Matrix3.identity
        var step = LinearStep(pairs: pairs, used: used, rotation: rotation)
        for _ in 0..<settings.iterations {
            guard let s = step else { break }
            rotation = Quaternion(rotationVector: s.correction).rotationMatrix * rotation
            used = inliers(pairs, rotation: rotation, deviations: settings.outlierDeviations)
            step = LinearStep(pairs: pairs, used: used, rotation: rotation)
        }
        guard let final = step else { return .failure(.undetermined(uncertainty: 180, limit: settings.largestUncertainty)) }
        let uncertainty = final.uncertainty * Angle.degreesPerRadian
        guard uncertainty <= settings.largestUncertainty else {
            return .failure(.undetermined(uncertainty: uncertainty, limit: settings.largestUncertainty))
        }
        let kept = zip(pairs, used).filter(\.1).map(\.0)
        let angle = Quaternion(rotationMatrix: rotation).angle * Angle.degreesPerRadian
        let before = dipSpread(kept, rotation: .identity), after = dipSpread(kept, rotation: rotation)
        guard angle <= settings.largestAngle else { return .failure(.implausible(angle: angle, limit: settings.largestAngle)) }
        guard after <= settings.largestSpreadRatio * before else {
            return .failure(.unexplainedSpread(angle: angle, before: before, after: after))
        }
        return .success(MagnetometerAlignment(rotation: rotation, angle: angle, uncertainty: uncertainty,
                                              dipSpreadBefore: before, dipSpreadAfter: after,
                                              readingsUsed: kept.count, stillReadings: pairs.count))
    }

    /// Unit field and unit up of the still readings.
    static func stillPairs(_ readings: [Reading], settings: Settings) -> [(field: Vector3, up: Vector3)] {
        let lengths = readings.map(\.acceleration.length).filter { $0 > 0 && $0.isFinite }.sorted()
        guard !lengths.isEmpty else { return [] }
        let gravity = lengths[lengths.count / 2]
        return readings.compactMap { r in
            let a = r.acceleration.length, b = r.field.length
            guard a > 0, b > 0, a.isFinite, b.isFinite, abs(a - gravity) <= settings.gravityTolerance * gravity else { return nil }
            if let w = r.angularRate, !(w.length <= settings.stillRate) { return nil }
            return (r.field / b, r.acceleration / a)
        }
    }

    /// The readings within `deviations` robust standard deviations of the median dip.
    static func inliers(_ pairs: [(field: Vector3, up: Vector3)], rotation: Matrix3, deviations: Double) -> [Bool] {
        let dips = dips(pairs, rotation: rotation), (centre, spread) = robustSpread(dips)
        return dips.map { abs($0 - centre) <= deviations * max(spread, 1e-9) }
    }

    /// Robust standard deviation of the dip, degrees.
    static func dipSpread(_ pairs: [(field: Vector3, up: Vector3)], rotation: Matrix3) -> Double {
        robustSpread(dips(pairs, rotation: rotation)).spread * Angle.degreesPerRadian
    }

    /// Each reading's dip through `rotation`, rad.
    static func dips(_ pairs: [(field: Vector3, up: Vector3)], rotation: Matrix3) -> [Double] {
        pairs.map { asin(max(-1, min(1, -$0.up.dot(rotation * $0.field)))) }
    }

    /// The median, and 1.4826 × the median absolute deviation from it (a robust standard deviation).
    static func robustSpread(_ values: [Double]) -> (centre: Double, spread: Double) {
        var v = values
        let centre = EllipsoidFit.median(&v)
        var deviations = values.map { abs($0 - centre) }
        return (centre, 1.4826 * EllipsoidFit.median(&deviations))
    }

    /// One Gauss–Newton step on the dip itself, `δ = asin(−ĝ · u)` with
    /// `u = R·b̂`: a small rotation `d` changes it by `−d · (u × ĝ) / cos δ`;
    /// the unknowns are `d` and the constant dip. (The product `ĝ · u` would
    /// not do: its spread shrinks as the dip nears ±90° whatever the
    /// misalignment, so a fit of it turns the field toward gravity.)
    struct LinearStep {
        /// The rotation vector to apply before the current rotation, rad.
        var correction: Vector3
        /// 1σ about the worst-determined axis, rad, from the residuals' spread.
        var uncertainty: Double

        init?(pairs: [(field: Vector3, up: Vector3)], used: [Bool], rotation: Matrix3) {
            // The normal equations of the rows (jᵀ, −1) · (d, δ₀) = target, summed in place.
            var jj = Matrix3(rows: .zero, .zero, .zero), jSum = Vector3.zero, jTarget = Vector3.zero
            var count = 0.0, targetSum = 0.0
            for (p, keep) in zip(pairs, used) where keep {
                let (j, target) = Self.row(p, rotation: rotation)
                jj = jj + Matrix3.outer(j, j)
                jSum += j
                jTarget += j * target
                count += 1
                targetSum += target
            }
            guard count > 4 else { return nil }
            var normal = SquareMatrix(size: 4)
            for a in 0..<3 {
                for b in 0..<3 { normal.storage[a * 4 + b] = jj[a, b] }
                normal.storage[a * 4 + 3] = -jSum[a]
                normal.storage[3 * 4 + a] = -jSum[a]
            }
            normal.storage[15] = count
            guard let x = normal.choleskySolve([jTarget.x, jTarget.y, jTarget.z, -targetSum]) else { return nil }
            let d = Vector3(x[0], x[1], x[2])
            var squares = 0.0
            for (p, keep) in zip(pairs, used) where keep {
                let (j, target) = Self.row(p, rotation: rotation)
                let r = j.dot(d) - x[3] - target
                squares += r * r
            }
            let variance = squares / (count - 4)
            // The rotation's covariance: variance × the 3×3 block of the normal matrix's inverse.
            var block = Matrix3(rows: .zero, .zero, .zero)
            for c in 0..<3 {
                var e = [Double](repeating: 0, count: 4)
                e[c] = 1
                guard let column = normal.choleskySolve(e) else { return nil }
                block[0, c] = column[0]
                block[1, c] = column[1]
                block[2, c] = column[2]
            }
            let worst = (block * variance).symmetricEigen.values.z
            correction = d
            uncertainty = max(0, worst).squareRoot()
        }

        /// One reading's row: the dip's change per rotation, and the dip's negative.
        @inline(__always)
        static func row(_ p: (field: Vector3, up: Vector3), rotation: Matrix3) -> (Vector3, Double) {
            let u = rotation * p.field, sine = max(-1, min(1, -p.up.dot(u)))
            let slope = -1 / max(1e-3, (1 - sine * sine).squareRoot())
            return (u.cross(p.up) * slope, -asin(sine))
        }
    }
}

extension CalibrationFit {
    /// This fit with its correction turned by `alignment` onto the
    /// accelerometer's axes: the matrix becomes `R · matrix`, no longer
    /// symmetric. Magnitudes and residuals do not change.
    public func aligned(by alignment: MagnetometerAlignment) -> CalibrationFit {
        var fit = self
        fit.matrix = alignment.rotation * matrix
        return fit
    }
}
