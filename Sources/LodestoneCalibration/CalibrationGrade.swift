/// A verdict a user can act on: is this calibration good enough to keep?
///
/// Thresholds (`Thresholds.standard`), set from the real recordings in
/// `../shared/data` and MotionCal's limits (< 15 % gaps, < 5 % fit error);
/// the figures behind them are in docs/calibration.md:
/// - **good**: full model, coverage ≥ 75 % and fit error ≤ 2.5 %;
/// - **acceptable**: fit error ≤ 3 % and coverage ≥ 50 %, any model;
/// - **poor**: anything else that was not rejected outright.
///
/// A fallback (sphere or diagonal) model is never "good": with thin coverage
/// a strong soft-iron distortion cannot be seen in the fit error, yet it
/// biases the offset of a simpler model.
public enum CalibrationGrade: String, Sendable, Codable, CaseIterable, Comparable {
    case poor
    case acceptable
    case good

    public struct Thresholds: Hashable, Sendable {
        /// The simplest model that can be "good".
        public var goodModel: CalibrationModel
        public var goodFitErrorPercent: Double
        public var goodCoveragePercent: Double
        public var acceptableFitErrorPercent: Double
        public var acceptableCoveragePercent: Double

        public init(goodModel: CalibrationModel, goodFitErrorPercent: Double, goodCoveragePercent: Double,
                    acceptableFitErrorPercent: Double, acceptableCoveragePercent: Double) {
            self.goodModel = goodModel
            self.goodFitErrorPercent = goodFitErrorPercent
            self.goodCoveragePercent = goodCoveragePercent
            self.acceptableFitErrorPercent = acceptableFitErrorPercent
            self.acceptableCoveragePercent = acceptableCoveragePercent
        }

        public static let standard = Thresholds(goodModel: .full, goodFitErrorPercent: 2.5, goodCoveragePercent: 75,
                                                acceptableFitErrorPercent: 3, acceptableCoveragePercent: 50)
    }

    public init(model: CalibrationModel, fitErrorPercent: Double, coveragePercent: Double,
                thresholds: Thresholds = .standard) {
        if model >= thresholds.goodModel, fitErrorPercent <= thresholds.goodFitErrorPercent,
           coveragePercent >= thresholds.goodCoveragePercent {
            self = .good
        } else if fitErrorPercent <= thresholds.acceptableFitErrorPercent,
                  coveragePercent >= thresholds.acceptableCoveragePercent {
            self = .acceptable
        } else {
            self = .poor
        }
    }

    private var rank: Int {
        switch self {
        case .poor: return 0
        case .acceptable: return 1
        case .good: return 2
        }
    }

    public static func < (a: CalibrationGrade, b: CalibrationGrade) -> Bool { a.rank < b.rank }
}
