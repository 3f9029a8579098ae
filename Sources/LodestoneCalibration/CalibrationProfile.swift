import LodestoneCore

/// A saved calibration: what was fitted, for which device, when, and how well.
///
/// The JSON form is documented in `calibration/README.md`. Every profile is
/// validated when decoded and before it is encoded (`validate()`), so a
/// profile that exists in memory as a value read from disk is usable.
/// Writing files is not done here (atomic writes live in an edge module).
public struct CalibrationProfile: Hashable, Sendable {
    /// The version this code writes.
    public static let currentFormatVersion = 1
    /// The versions this code reads.
    public static let supportedFormatVersions: ClosedRange<Int> = 1...1

    public enum SensorKind: String, Hashable, Sendable, Codable, CaseIterable {
        case magnetometer
        case accelerometer

        /// Unit of offsets, residuals and magnitudes in the profile.
        public var unit: String { self == .magnetometer ? "uT" : "m/s^2" }

        /// Plausible fitted and expected magnitudes (the fitters' limits).
        public var plausibleMagnitude: ClosedRange<Double> {
            self == .magnetometer ? CalibrationFitSettings.magnetometer.plausibleMagnitude
                : CalibrationFitSettings.accelerometer.plausibleMagnitude
        }

        /// Largest plausible offset: beyond the range of common
        /// magnetometers (±16 G = 1600 µT) and half a g of accelerometer bias.
        public var maximumOffset: Double { self == .magnetometer ? 1600 : 5 }
    }

    /// Free-form identification of the device the profile belongs to.
    public struct DeviceIdentity: Hashable, Sendable {
        /// Kernel driver, e.g. `hmc5843`.
        public var driver: String?
        /// IIO device name, e.g. `hmc5883l`.
        public var name: String?
        /// libiio context URI, e.g. `local:` or `ip:192.168.1.20`.
        public var uri: String?
        /// Serial number or label, when the device has one.
        public var serial: String?

        public init(driver: String? = nil, name: String? = nil, uri: String? = nil, serial: String? = nil) {
            self.driver = driver
            self.name = name
            self.uri = uri
            self.serial = serial
        }
    }

    /// The correction `corrected = matrix · (raw − offset)`.
    public struct Parameters: Hashable, Sendable {
        /// Unit of `offset` (and of raw and corrected readings): `uT` or `m/s^2`.
        public var unit: String
        public var offset: Vector3
        public var matrix: Matrix3

        public init(unit: String, offset: Vector3, matrix: Matrix3) {
            self.unit = unit
            self.offset = offset
            self.matrix = matrix
        }
    }

    /// How good the fit was when it was made.
    public struct Quality: Hashable, Sendable {
        public var model: CalibrationModel
        public var grade: CalibrationGrade
        /// `100 · RMS((|corrected| − target) / target)`.
        public var fitErrorPercent: Double
        /// `RMS(|corrected| − target)` in the profile's unit.
        public var residualRMS: Double
        /// Mean radius of the raw samples' ellipsoid, in the profile's unit.
        public var fittedMagnitude: Double
        /// The magnitude the correction is scaled to (model F, or g), or nil
        /// when corrected readings keep the fitted magnitude.
        public var expectedMagnitude: Double?
        /// Share of the 100 equal-area direction regions holding samples.
        public var coveragePercent: Double
        /// Samples fitted (still positions, for an accelerometer).
        public var sampleCount: Int
        /// Samples left out of the fit error as outliers.
        public var outlierCount: Int
        /// Magnetic dip seen through the correction, degrees, positive down:
        /// the median angle of the corrected field below the horizontal, with
        /// the accelerometer's reading as up. Nil when it was not measured
        /// (no accelerometer, or an accelerometer profile).
        public var dip: Double?
        /// How the offset was last changed after the profile was made (online
        /// hard-iron tracking), if it was. The figures above then describe that
        /// change's fit; `model`, `expectedMagnitude`, `dip`, the matrix and
        /// `created` are the original calibration's. Nil for a profile as
        /// `lodestone calibrate` made it. Older readers ignore the key.
        public var update: Update?

        public init(model: CalibrationModel, grade: CalibrationGrade, fitErrorPercent: Double, residualRMS: Double,
                    fittedMagnitude: Double, expectedMagnitude: Double?, coveragePercent: Double, sampleCount: Int,
                    outlierCount: Int, dip: Double? = nil, update: Update? = nil) {
            self.model = model
            self.grade = grade
            self.fitErrorPercent = fitErrorPercent
            self.residualRMS = residualRMS
            self.fittedMagnitude = fittedMagnitude
            self.expectedMagnitude = expectedMagnitude
            self.coveragePercent = coveragePercent
            self.sampleCount = sampleCount
            self.outlierCount = outlierCount
            self.dip = dip
            self.update = update
        }
    }

    /// A note of how a profile's parameters were changed after it was made.
    public struct Update: Hashable, Sendable {
        /// What changed them: `hardIronTracking` (`HardIronTracker`).
        public var method: String
        /// When, ISO 8601 date-time in UTC.
        public var time: String
        /// The offset before the change, in the profile's unit.
        public var previousOffset: [Double]
        /// Fit error of that offset on the same readings as `fitErrorPercent`, percent.
        public var previousFitErrorPercent: Double

        public static let hardIronTracking = "hardIronTracking"

        public init(method: String, time: String, previousOffset: [Double], previousFitErrorPercent: Double) {
            self.method = method
            self.time = time
            self.previousOffset = previousOffset
            self.previousFitErrorPercent = previousFitErrorPercent
        }
    }

    public var formatVersion: Int
    public var sensor: SensorKind
    public var device: DeviceIdentity
    /// ISO 8601 date-time (`WallClockTime`), e.g. `2026-11-30T04:00:00Z`.
    public var created: String
    public var parameters: Parameters
    public var quality: Quality

    public init(formatVersion: Int = CalibrationProfile.currentFormatVersion, sensor: SensorKind,
                device: DeviceIdentity, created: String, parameters: Parameters, quality: Quality) {
        self.formatVersion = formatVersion
        self.sensor = sensor
        self.device = device
        self.created = created
        self.parameters = parameters
        self.quality = quality
    }

    /// A profile for a fit. `created` is an ISO 8601 date-time, e.g.
    /// `WallClockTime.iso8601(unixSeconds:fractionDigits: 0)` of the current time; `dip` is the
    /// dip measured with the fit (`MeasuredDip`), if any.
    public init(sensor: SensorKind, device: DeviceIdentity, created: String, fit: CalibrationFit, dip: Double? = nil) {
        self.init(
            sensor: sensor, device: device, created: created,
            parameters: Parameters(unit: sensor.unit, offset: fit.offset, matrix: fit.matrix),
            quality: Quality(model: fit.model, grade: fit.grade, fitErrorPercent: fit.fitErrorPercent,
                             residualRMS: fit.residualRMS, fittedMagnitude: fit.fittedMagnitude,
                             expectedMagnitude: fit.expectedMagnitude, coveragePercent: fit.coveragePercent,
                             sampleCount: fit.sampleCount, outlierCount: fit.residuals.outlierCount, dip: dip)
        )
    }

    /// The magnetometer correction, or nil for an accelerometer profile.
    public var magneticCalibration: MagneticCalibration? {
        sensor == .magnetometer ? MagneticCalibration(hardIron: parameters.offset, softIron: parameters.matrix) : nil
    }

    /// The accelerometer correction, or nil for a magnetometer profile.
    public var accelerometerCalibration: AccelerometerCalibration? {
        sensor == .accelerometer ? AccelerometerCalibration(offset: parameters.offset, matrix: parameters.matrix) : nil
    }

    /// Largest condition number accepted for `parameters.matrix`. Looser than
    /// the fitters' own limits, to read profiles made by other tools.
    public static let maximumConditionNumber = 10.0

    /// Checks every field; the error names the first bad one.
    public func validate() throws(CalibrationProfileError) {
        guard Self.supportedFormatVersions.contains(formatVersion) else {
            throw .unsupportedVersion(found: formatVersion, supported: Self.supportedFormatVersions)
        }
        guard WallClockTime.isDateTimeWithZone(created) else {
            throw .invalidValue(field: "created", reason: "\"\(created)\" is not an ISO 8601 date-time such as 2026-11-30T04:00:00Z")
        }
        guard parameters.unit == sensor.unit else {
            throw .invalidValue(field: "parameters.unit", reason: "is \"\(parameters.unit)\", a \(sensor.rawValue) profile uses \"\(sensor.unit)\"")
        }
        let o = parameters.offset
        for (i, v) in [o.x, o.y, o.z].enumerated() where !v.isFinite {
            throw .nonFinite(field: "parameters.offset[\(i)]")
        }
        guard o.length <= sensor.maximumOffset else {
            throw .invalidValue(field: "parameters.offset", reason: "length \(formatNumber(o.length)) \(sensor.unit) exceeds \(formatNumber(sensor.maximumOffset)) \(sensor.unit)")
        }
        let m = parameters.matrix
        for r in 0..<3 { for c in 0..<3 where !m[r, c].isFinite { throw .nonFinite(field: "parameters.matrix[\(r)][\(c)]") } }
        guard m.symmetricPart.symmetricEigen.values.x > 0, m.determinant > 0 else {
            throw .notPositiveDefinite(field: "parameters.matrix")
        }
        let condition = m.conditionNumber
        guard condition <= Self.maximumConditionNumber else {
            throw .illConditioned(field: "parameters.matrix", conditionNumber: condition, limit: Self.maximumConditionNumber)
        }
        let q = quality
        try Self.check("quality.fitErrorPercent", q.fitErrorPercent, 0...100)
        try Self.check("quality.residualRMS", q.residualRMS, 0...Double.greatestFiniteMagnitude)
        try Self.check("quality.coveragePercent", q.coveragePercent, 0...100)
        guard q.sampleCount >= 1 else {
            throw .invalidValue(field: "quality.sampleCount", reason: "must be at least 1, is \(q.sampleCount)")
        }
        guard (0...q.sampleCount).contains(q.outlierCount) else {
            throw .invalidValue(field: "quality.outlierCount", reason: "must be 0–\(q.sampleCount) (the sample count), is \(q.outlierCount)")
        }
        if let dip = q.dip {
            try Self.check("quality.dip", dip, -90...90)
            guard sensor == .magnetometer else {
                throw .invalidValue(field: "quality.dip", reason: "only a magnetometer profile has a dip")
            }
        }
        if let u = q.update {
            guard !u.method.isEmpty else { throw .invalidValue(field: "quality.update.method", reason: "must not be empty") }
            guard WallClockTime.isDateTimeWithZone(u.time) else {
                throw .invalidValue(field: "quality.update.time", reason: "\"\(u.time)\" is not an ISO 8601 date-time such as 2026-11-30T04:00:00Z")
            }
            guard u.previousOffset.count == 3 else {
                throw .invalidValue(field: "quality.update.previousOffset", reason: "needs 3 numbers [x, y, z], has \(u.previousOffset.count)")
            }
            for (i, v) in u.previousOffset.enumerated() where !v.isFinite {
                throw .nonFinite(field: "quality.update.previousOffset[\(i)]")
            }
            try Self.check("quality.update.previousFitErrorPercent", u.previousFitErrorPercent, 0...Double.greatestFiniteMagnitude)
        }
        let plausible = sensor.plausibleMagnitude
        for (field, value) in [("quality.fittedMagnitude", q.fittedMagnitude), ("quality.expectedMagnitude", q.expectedMagnitude)] {
            guard let value else { continue }
            guard value.isFinite else { throw .nonFinite(field: field) }
            guard plausible.contains(value) else {
                throw .implausibleMagnitude(field: field, value: value, range: plausible, unit: sensor.unit)
            }
        }
    }

    private static func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws(CalibrationProfileError) {
        guard value.isFinite else { throw .nonFinite(field: field) }
        guard range.contains(value) else {
            let reason = range.upperBound == .greatestFiniteMagnitude
                ? "must not be negative, is \(formatNumber(value))"
                : "\(formatNumber(value)) is outside \(formatNumber(range.lowerBound))–\(formatNumber(range.upperBound))"
            throw .invalidValue(field: field, reason: reason)
        }
    }
}
