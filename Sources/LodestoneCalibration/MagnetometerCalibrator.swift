import LodestoneCore

/// Live magnetometer calibration: add samples one at a time while the user
/// turns the device, re-fit now and then, and show the progress.
///
/// Memory stays bounded: samples are kept in a `RegionSampleSet`, at most
/// `samplesPerRegion` in each of the 100 coverage regions (1,000 samples in
/// all by default), thinned by `minimumSeparation`. Regions are taken around
/// the latest fit's correction, or before the first fit around the middle of
/// the per-axis minimum and maximum seen (once that range is wide enough).
public struct MagnetometerCalibrator: Sendable {
    public struct Settings: Hashable, Sendable {
        public var samplesPerRegion: Int
        /// In the sensor's units (µT); about 3× typical noise (0.5–0.7 µT).
        public var minimumSeparation: Double
        public var fit: CalibrationFitSettings

        public init(samplesPerRegion: Int = 10, minimumSeparation: Double = 2.0, fit: CalibrationFitSettings = .magnetometer) {
            self.samplesPerRegion = max(samplesPerRegion, 1)
            self.minimumSeparation = minimumSeparation
            self.fit = fit
        }
    }

    public let settings: Settings
    /// Total intensity from the geomagnetic model, when known (µT).
    public var expectedMagnitude: Double?
    /// Samples offered to `add`, kept or not.
    public private(set) var offeredCount = 0
    /// The last successful fit.
    public private(set) var latestFit: CalibrationFit?
    /// Why the last `refit` failed, or nil after a success.
    public private(set) var latestRejection: CalibrationRejection?

    private var kept: RegionSampleSet
    private var low = Vector3(.infinity, .infinity, .infinity)
    private var high = Vector3(-.infinity, -.infinity, -.infinity)

    public init(settings: Settings = Settings(), expectedMagnitude: Double? = nil) {
        self.settings = settings
        self.expectedMagnitude = expectedMagnitude
        kept = RegionSampleSet(samplesPerRegion: settings.samplesPerRegion, minimumSeparation: settings.minimumSeparation)
    }

    /// Samples currently kept, oldest first.
    public var samples: [Vector3] { kept.samples.map(\.field) }

    public var keptCount: Int { kept.count }

    /// Per-axis span (µT) the readings must reach before the middle of their
    /// range is trusted as a rough centre: an Earth field turned by ~15°.
    public static let roughCentreSpan = 10.0

    /// Direction of `field` used for binning and coverage: corrected by the
    /// latest fit; else around the middle of the range seen once the device
    /// has turned; else the raw direction (a still device stays in one region).
    private func direction(_ field: Vector3) -> Vector3 {
        let d: Vector3
        if let fit = latestFit {
            d = fit.apply(field)
        } else {
            let span = high - low
            guard max(span.x, span.y, span.z) >= Self.roughCentreSpan else { return field }
            d = field - (low + high) * 0.5
        }
        return d.squaredLength > 0 ? d : field
    }

    /// Offers one raw field reading (µT). Returns true when it was kept.
    /// Non-finite readings are ignored.
    @discardableResult
    public mutating func add(_ field: Vector3) -> Bool {
        guard field.isFinite else { return false }
        offeredCount += 1
        low = Vector3(min(low.x, field.x), min(low.y, field.y), min(low.z, field.z))
        high = Vector3(max(high.x, field.x), max(high.y, field.y), max(high.z, field.z))
        return kept.add(field, direction: direction(field))
    }

    /// Coverage of the kept samples around the current centre.
    public var coverage: SphereCoverage { kept.coverage(direction) }

    /// Fits the kept samples, re-sorts them into regions around the new
    /// correction and reports. Costs about a quarter of a millisecond for
    /// 1,000 samples (release build).
    @discardableResult
    public mutating func refit() -> CalibrationProgress {
        do {
            let fit = try CalibrationFitter(settings: settings.fit).fit(samples, expectedMagnitude: expectedMagnitude)
            latestFit = fit
            latestRejection = nil
            kept.rebin(direction)
        } catch {
            latestRejection = error
        }
        return progress
    }

    /// The state now, without fitting again.
    public var progress: CalibrationProgress {
        let c = coverage
        return CalibrationProgress(
            offeredSamples: offeredCount, keptSamples: keptCount, coveragePercent: c.coveragePercent,
            fit: latestFit, rejection: latestRejection, expectedMagnitude: expectedMagnitude,
            suggestedDirection: c.largestGapDirection
        )
    }
}
