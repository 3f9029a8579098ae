#if canImport(Glibc)
import Glibc
#endif
import LodestoneCore

/// Errors of a run against the truth, BROAD's way (Laidig et al., Data 2021,
/// and its `broad_utils.py`), and how honest `headingAccuracy` was about them.
struct HeadingScore {
    var scored = 0
    var sumSquares = 0.0
    var inclinationSumSquares = 0.0
    /// Valid samples (accuracy ≥ 0) whose error was within ±accuracy, and beyond 3 × accuracy.
    var covered = 0
    var beyondThree = 0
    var invalid = 0

    var rmse: Double { scored > 0 ? (sumSquares / Double(scored)).squareRoot() : .nan }
    var inclinationRMSE: Double { scored > 0 ? (inclinationSumSquares / Double(scored)).squareRoot() : .nan }
    var valid: Int { scored - invalid }
    /// Within ±accuracy among all scored samples (invalid ones count as not covered).
    var coverage: Double { scored > 0 ? Double(covered) / Double(scored) : .nan }
    var validCoverage: Double { valid > 0 ? Double(covered) / Double(valid) : .nan }
    var beyondThreeShare: Double { valid > 0 ? Double(beyondThree) / Double(valid) : .nan }
    var invalidShare: Double { scored > 0 ? Double(invalid) / Double(scored) : .nan }

    mutating func add(headingError: Double, inclinationError: Double, accuracy: Double) {
        scored += 1
        sumSquares += headingError * headingError
        inclinationSumSquares += inclinationError * inclinationError
        if accuracy < 0 {
            invalid += 1
        } else if headingError <= accuracy {
            covered += 1
        } else if headingError > 3 * accuracy {
            beyondThree += 1
        }
    }

    /// The earth-frame error rotation q_err = q_est ⊗ q_ref⁻¹.
    static func earthError(estimate: Quaternion, truth: Quaternion) -> Quaternion {
        (estimate * truth.conjugate).normalized
    }

    /// BROAD's heading error in degrees: the rotation about up in q_err, 2·atan(|z / w|).
    static func headingError(_ e: Quaternion) -> Double {
        2 * atan(abs(e.z / e.w)) * Angle.degreesPerRadian
    }

    /// BROAD's inclination error in degrees: the rest of q_err, 2·acos(√(w² + z²)).
    static func inclinationError(_ e: Quaternion) -> Double {
        2 * acos(min(1, (e.w * e.w + e.z * e.z).squareRoot())) * Angle.degreesPerRadian
    }
}
