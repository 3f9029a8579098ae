/// Limits for fitting a sensor whose true readings all have one magnitude
/// (the Earth's field for a magnetometer, gravity for a still accelerometer).
///
/// A model is used only when (1) there are at least `minimumSamples` points,
/// (2) the direction spread gives it at least `minimumConditioning` (see
/// `FitConditioning`; a floor against model errors that noise statistics do
/// not see) and (3) its predicted worst parameter error, from the fit's own
/// residuals, is at most `maximumParameterError`. Otherwise the next simpler
/// model is tried.
public struct CalibrationFitSettings: Hashable, Sendable {
    /// Unit of the readings, for messages and profiles ("µT", "m/s²").
    public var unit: String
    public var minimumSamples: [CalibrationModel: Int]
    public var minimumConditioning: [CalibrationModel: Double]
    /// Largest predicted 1σ parameter error, relative to the radius
    /// (`FitConditioning.predictedParameterError`).
    public var maximumParameterError: Double
    /// Magnitudes (fitted or expected) outside this range are rejected.
    public var plausibleMagnitude: ClosedRange<Double>
    /// Largest allowed ratio of the correction matrix's singular values.
    public var maximumConditionNumber: Double
    /// Fits whose error exceeds this are rejected rather than graded poor.
    public var maximumFitErrorPercent: Double
    /// Fits with more outliers than this share of the samples are rejected.
    public var maximumOutlierPercent: Double
    public var gradeThresholds: CalibrationGrade.Thresholds

    public init(unit: String, minimumSamples: [CalibrationModel: Int], minimumConditioning: [CalibrationModel: Double],
                maximumParameterError: Double, plausibleMagnitude: ClosedRange<Double>, maximumConditionNumber: Double,
                maximumFitErrorPercent: Double, maximumOutlierPercent: Double, gradeThresholds: CalibrationGrade.Thresholds) {
        self.unit = unit
        self.minimumSamples = minimumSamples
        self.minimumConditioning = minimumConditioning
        self.maximumParameterError = maximumParameterError
        self.plausibleMagnitude = plausibleMagnitude
        self.maximumConditionNumber = maximumConditionNumber
        self.maximumFitErrorPercent = maximumFitErrorPercent
        self.maximumOutlierPercent = maximumOutlierPercent
        self.gradeThresholds = gradeThresholds
    }

    /// Magnetometer: field 10–100 µT (the Earth's field is 22–67 µT), a
    /// correction stretching no axis more than 3× another, fit error ≤ 15 %,
    /// at most 5 % outliers.
    /// Parameters to 0.5 % of the field (1σ), about 0.7° of heading at 65° dip.
    /// The floors put a hemisphere or a flat turn with tilts below ±60° on
    /// the sphere model.
    public static let magnetometer = CalibrationFitSettings(
        unit: "µT",
        minimumSamples: [.sphere: 12, .diagonal: 30, .full: 60],
        minimumConditioning: [.sphere: 0.002, .diagonal: 0.02, .full: 0.02],
        maximumParameterError: 0.005,
        plausibleMagnitude: 10...100,
        maximumConditionNumber: 3,
        maximumFitErrorPercent: 15,
        maximumOutlierPercent: 5,
        gradeThresholds: .standard
    )

    /// Accelerometer from still positions (one averaged vector each): gravity
    /// 7.8–11.8 m/s² raw (±20 %), six positions for per-axis scales, nine well
    /// spread ones for cross-axis terms; axis gains within 1.5× of each other.
    /// Good: per-axis scales, |a| within 0.5 % RMS of g, six distinct
    /// positions (each fills one of the 100 regions, hence "6 %").
    public static let accelerometer = CalibrationFitSettings(
        unit: "m/s²",
        minimumSamples: [.sphere: 4, .diagonal: 6, .full: 9],
        minimumConditioning: [.sphere: 0.05, .diagonal: 0.1, .full: 0.2],
        maximumParameterError: 0.005,
        plausibleMagnitude: 7.8...11.8,
        maximumConditionNumber: 1.5,
        maximumFitErrorPercent: 5,
        maximumOutlierPercent: 10,
        gradeThresholds: CalibrationGrade.Thresholds(goodModel: .diagonal, goodFitErrorPercent: 0.5, goodCoveragePercent: 6,
                                                     acceptableFitErrorPercent: 1, acceptableCoveragePercent: 4)
    )

    func minimumSamples(_ model: CalibrationModel) -> Int {
        minimumSamples[model] ?? model.parameterCount
    }

    func minimumConditioning(_ model: CalibrationModel) -> Double {
        minimumConditioning[model] ?? 0.1
    }
}
