/// The whole per-sample path: estimate, filter, and complete delivered headings.
///
/// ```
/// sample → calibration → smoothing → heading → headingFilter → Heading
/// ```
/// Attitude, accuracy and true heading are computed only for the headings
/// that pass the filter.
public struct HeadingPipeline: Sendable {
    public var estimator: HeadingEstimator
    public var filter: HeadingFilter
    /// Set when the position is known; nil keeps `trueHeading` nil.
    public var declination: Declination? {
        didSet { estimator.declination = declination.map { $0.degrees } }
    }

    public init(settings: HeadingEstimator.Settings = .init(), headingFilter: Double = 1,
                declination: Declination? = nil) {
        estimator = HeadingEstimator(settings: settings)
        filter = HeadingFilter(threshold: headingFilter)
        self.declination = declination
        estimator.declination = declination.map { $0.degrees }
    }

    /// The heading to deliver for this sample, or nil when the filter holds it back.
    public mutating func process(_ sample: SensorSample) -> Heading? {
        guard let estimate = estimator.update(sample), filter.shouldDeliver(estimate.direction) else {
            return nil
        }
        return complete(estimate)
    }

    /// The heading for an estimate when the filter lets it through (the second half of
    /// ``process(_:)``, for a caller that made the estimate itself). Mutating, so that it
    /// runs in place: a non-mutating call on a pipeline stored in another struct or a
    /// class copies the whole pipeline first.
    public mutating func deliver(_ estimate: HeadingEstimate) -> Heading? {
        guard filter.shouldDeliver(estimate.direction) else { return nil }
        return complete(estimate)
    }

    /// Whether magnetic events wait to be taken: one branch per sample for a runner.
    @inlinable public var hasEvents: Bool { estimator.hasEvents }

    /// Calibration prompts and disturbance changes since the last call.
    public mutating func takeEvents() -> [MagneticEvent] {
        estimator.takeEvents()
    }

    /// The field the model expects here changed (new position or date).
    public mutating func setExpectedField(_ field: ExpectedField?) {
        estimator.setExpectedField(field)
    }

    /// Replaces the magnetometer calibration in use without losing the
    /// estimator's state (see ``HeadingEstimator/replaceCalibration(_:status:)``).
    public mutating func replaceCalibration(_ calibration: MagneticCalibration, status: CalibrationStatus?) {
        estimator.replaceCalibration(calibration, status: status)
    }

    /// A full ``Heading`` for an estimate of the current state, for a caller with filters
    /// of its own (see ``deliver(_:)``). Mutating although it changes nothing: a
    /// non-mutating call passes the pipeline (kilobytes of filter state) by value, and
    /// the compiler copied it for every delivered heading.
    @inline(__always)
    public mutating func complete(_ estimate: HeadingEstimate) -> Heading {
        let magnetic = estimate.magneticHeading
        return Heading(timestamp: estimate.time,
                magneticHeading: magnetic,
                trueHeading: declination?.trueHeading(fromMagnetic: magnetic),
                headingAccuracy: estimator.accuracy(for: estimate),
                declination: declination,
                x: estimate.field.x, y: estimate.field.y, z: estimate.field.z,
                attitude: estimator.attitude)
    }
}
