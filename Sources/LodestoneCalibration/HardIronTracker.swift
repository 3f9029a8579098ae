#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LodestoneCore

/// Online hard-iron tracking: follows a slow change of the board's own hard
/// iron (a part magnetised, a battery swapped) from the readings of normal use,
/// and proposes a new offset only when recent data clearly support it.
///
/// Fed the raw (uncalibrated, body-frame) field, it keeps recent readings
/// spread over the sphere of directions (`RegionSampleSet`: at most 10 per
/// coverage region, 2 µT apart, none older than ``Settings/window``). Every
/// ``Settings/refitInterval`` it fits a sphere to them in the space corrected
/// by the soft-iron matrix in use, `y = matrix · raw`: the centre `p` and
/// radius of that sphere give the offset `matrix⁻¹ · p`; the matrix is kept.
/// That fit is a **proposal** only when all of these hold (checked in order):
///
/// 1. at least 60 readings, covering ≥ ``Settings/minimumCoveragePercent`` of
///    the regions (around the new centre);
/// 2. the sphere fit succeeds with a plausible radius (10–100 µT);
/// 3. its offset is pinned down: the predicted 1σ error (`FitConditioning`,
///    from the spread of directions and the fit's own residuals) is at most
///    0.5 % of the field. A board turned flat gives a ring, which leaves the
///    offset along the turn axis free: refused here even if the ring's
///    coverage were large;
/// 4. at most 5 % outliers and a fit error ≤ 3 % (the `acceptable` grade):
///    the readings do lie on one sphere;
/// 5. on the **same readings**, its fit error is at most
///    ``Settings/maximumErrorRatio`` (0.7, i.e. ≥ 30 % lower) of the error of
///    the offset in use (each with its best radius), and the offset moved by
///    more than ``Settings/significance`` (3) standard deviations of the
///    fit's own uncertainty. With the right profile neither holds, so clean
///    data never cause an update.
///
/// The offset is **adopted** after ``Settings/confirmations`` (3) proposals in
/// a row that agree with each other (within 3σ, or 2 % of the field). A
/// refit that is not a proposal starts the count again.
///
/// **Disturbances.** The magnetic environment monitor's disturbance flag is
/// *not* used to drop readings: a changed hard iron is exactly what the
/// monitor reports as a disturbance (the strength departs in some
/// orientations and not in others), and keeping only undisturbed readings
/// would keep the orientations where the old and the new sphere cross, a ring
/// that cannot locate the new centre. Instead:
/// - a field fixed in the room (steel, a magnet on the desk) that is uniform
///   adds to the earth field: the readings keep their centre and only the
///   radius changes, so the offset does not move. One that is not uniform, or
///   a magnet passing by, does not fit one sphere (rule 4) or makes outliers
///   that the robust fit leaves out;
/// - a field carried with the board (a magnet attached to it) cannot be told
///   from a hard-iron change at any instant: only its duration differs. A
///   window that holds readings from before and after a change fits neither
///   sphere (rule 4), so a proposal needs a window of readings taken after the
///   change, and adoption three proposals 30 s apart: the change must last
///   about `window + 2 × refitInterval` (2 minutes) of varied motion. A magnet
///   attached for a minute is not learned; gyro fusion removes such a carried
///   field while it is there (`BodyFixedDisturbance`). One that stays for
///   minutes *is* the board's hard iron from then on, and is learned.
///
/// Pure: no clock but the samples' own time, no I/O. A sample time that goes
/// backwards starts the tracker afresh.
public struct HardIronTracker: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Seconds of sample time between two refits.
        public var refitInterval: Double
        /// Readings older than this, seconds, are forgotten before each refit.
        public var window: Double
        /// Proposals in a row needed to adopt an offset.
        public var confirmations: Int
        /// Least share of the 100 regions the window's readings must cover, percent.
        public var minimumCoveragePercent: Double
        /// Least number of readings for a refit.
        public var minimumSamples: Int
        /// The new offset's fit error may be at most this fraction of the one in use.
        public var maximumErrorRatio: Double
        /// The offset must move by more than this many standard deviations.
        public var significance: Double
        /// Proposals in a row agree within this fraction of the field (or `significance` σ).
        public var agreementFraction: Double
        /// At most one reading per this many seconds is offered to the sample set.
        public var offerInterval: Double
        public var samplesPerRegion: Int
        /// µT: readings closer than this in one region add nothing.
        public var minimumSeparation: Double
        /// Plausible field, largest parameter error, outliers and the acceptable fit error.
        public var fit: CalibrationFitSettings

        public init(refitInterval: Double = 30, window: Double = 60, confirmations: Int = 3,
                    minimumCoveragePercent: Double = 40, minimumSamples: Int = 60, maximumErrorRatio: Double = 0.7,
                    significance: Double = 3, agreementFraction: Double = 0.02, offerInterval: Double = 0.02,
                    samplesPerRegion: Int = 10, minimumSeparation: Double = 2, fit: CalibrationFitSettings = .magnetometer) {
            self.refitInterval = refitInterval
            self.window = window
            self.confirmations = max(1, confirmations)
            self.minimumCoveragePercent = minimumCoveragePercent
            self.minimumSamples = minimumSamples
            self.maximumErrorRatio = maximumErrorRatio
            self.significance = significance
            self.agreementFraction = agreementFraction
            self.offerInterval = offerInterval
            self.samplesPerRegion = samplesPerRegion
            self.minimumSeparation = minimumSeparation
            self.fit = fit
        }
    }

    /// One refit's fit of the window, in the soft-iron-corrected space.
    public struct Proposal: Hashable, Sendable {
        /// The offset in the raw frame, µT.
        public var offset: Vector3
        /// Sphere centre and radius in the corrected space, µT.
        public var centre: Vector3
        public var radius: Double
        /// Fit error of this offset and of the one in use, on the same readings, percent.
        public var fitErrorPercent: Double
        public var previousFitErrorPercent: Double
        public var residualRMS: Double
        public var outlierCount: Int
        public var sampleCount: Int
        public var coveragePercent: Double
        /// Predicted 1σ error of the centre, µT (corrected space).
        public var uncertainty: Double
        /// How far the centre moved from the one in use, µT (corrected space).
        public var change: Double
    }

    /// What the last refit concluded.
    public enum Assessment: Hashable, Sendable {
        case tooFewSamples(count: Int, needed: Int)
        case insufficientCoverage(percent: Double, needed: Double)
        case noFit
        /// The spread of directions does not pin the offset down (a ring, a small cap).
        case offsetUndetermined(uncertaintyPercent: Double, limitPercent: Double)
        case tooManyOutliers(count: Int, of: Int)
        case poorFit(fitErrorPercent: Double, limit: Double)
        /// The offset in use fits the readings as well, or the move is within the fit's uncertainty.
        case noImprovement(fitErrorPercent: Double, previousFitErrorPercent: Double, change: Double, uncertainty: Double)
        /// A proposal; `count` in a row so far.
        case proposal(Proposal, count: Int)
        /// The proposal was adopted.
        case adopted(Proposal)
    }

    public let settings: Settings
    /// The correction in use, and the offset the tracker compares against.
    public private(set) var calibration: MagneticCalibration
    /// The last refit's conclusion; nil before the first refit.
    public private(set) var latestAssessment: Assessment?
    /// Readings kept now.
    public var keptCount: Int { kept.count }

    private var kept: RegionSampleSet
    private var candidates: [Proposal] = []
    private var lastOffered = -Double.infinity
    private var lastTime = -Double.infinity
    private var nextRefit: Double?

    public init(settings: Settings = Settings(), calibration: MagneticCalibration) {
        self.settings = settings
        self.calibration = calibration
        kept = RegionSampleSet(samplesPerRegion: settings.samplesPerRegion, minimumSeparation: settings.minimumSeparation)
    }

    /// Offers one raw body-frame reading (µT) taken at `time` (seconds). Returns
    /// the update when this reading's refit adopted a new offset; the tracker
    /// then uses it as the one in use. Non-finite readings are ignored.
    public mutating func add(_ field: Vector3, time: Double) -> HardIronUpdate? {
        guard field.isFinite, time.isFinite else { return nil }
        if time < lastTime { restart() }
        lastTime = time
        guard let due = nextRefit else {
            nextRefit = time + settings.refitInterval
            offer(field, time: time)
            return nil
        }
        offer(field, time: time)
        guard time >= due else { return nil }
        nextRefit = time + settings.refitInterval
        return refit(time: time)
    }

    private mutating func restart() {
        kept.removeAll()
        candidates = []
        lastOffered = -Double.infinity
        nextRefit = nil
    }

    private mutating func offer(_ field: Vector3, time: Double) {
        // A small tolerance: 100 Hz sample times sum to 0.019999… for two steps.
        guard time - lastOffered >= settings.offerInterval - 1e-6 else { return }
        lastOffered = time
        kept.add(field, direction: calibration.apply(field), time: time)
    }

    /// Fits the window now and decides; returns the update when one is adopted.
    public mutating func refit(time: Double) -> HardIronUpdate? {
        kept.removeSamples(before: time - settings.window)
        let assessment = assess(kept.samples.map(\.field))
        guard case .proposal(let p, _) = assessment else {
            latestAssessment = assessment
            candidates = []
            return nil
        }
        if let last = candidates.last, !agree(last, p) { candidates = [] }
        candidates.append(p)
        guard candidates.count >= settings.confirmations else {
            latestAssessment = .proposal(p, count: candidates.count)
            return nil
        }
        latestAssessment = .adopted(p)
        candidates = []
        let previous = calibration
        calibration = MagneticCalibration(hardIron: p.offset, softIron: previous.softIron)
        let adopted = calibration
        kept.rebin { adopted.apply($0) }
        return HardIronUpdate(time: time, previous: previous, calibration: adopted, proposal: p)
    }

    private func agree(_ a: Proposal, _ b: Proposal) -> Bool {
        let limit = max(settings.significance * (a.uncertainty * a.uncertainty + b.uncertainty * b.uncertainty).squareRoot(),
                        settings.agreementFraction * b.radius)
        return (a.centre - b.centre).length <= limit
    }

    /// Applies rules 1–5 (see the type's documentation) to `samples` (raw readings).
    public func assess(_ samples: [Vector3]) -> Assessment {
        let needed = max(settings.minimumSamples, 4)
        guard samples.count >= needed else { return .tooFewSamples(count: samples.count, needed: needed) }
        let s = calibration.softIron
        let y = samples.map { s * $0 }
        let inUse = s * calibration.hardIron
        let oldCorrected = y.map { $0 - inUse }
        let oldRadius = oldCorrected.reduce(0) { $0 + $1.length } / Double(y.count)
        guard let fitter = EllipsoidFit(points: y),
              let solution = fitter.fit(.sphere, start: Ellipsoid(centre: inUse, radius: max(oldRadius, 1))) else {
            return .noFit
        }
        let centre = solution.ellipsoid.centre, radius = solution.ellipsoid.meanRadius
        guard radius.isFinite, settings.fit.plausibleMagnitude.contains(radius) else { return .noFit }
        let corrected = y.map { $0 - centre }
        let coverage = SphereCoverage(directions: corrected).coveragePercent
        guard coverage >= settings.minimumCoveragePercent else {
            return .insufficientCoverage(percent: coverage, needed: settings.minimumCoveragePercent)
        }
        let residuals = FitResiduals(corrected: corrected, target: radius)
        let relative = FitConditioning(directions: corrected)
            .predictedParameterError(.sphere, relativeResidual: residuals.fitErrorPercent / 100, sampleCount: y.count)
        guard relative <= settings.fit.maximumParameterError else {
            return .offsetUndetermined(uncertaintyPercent: relative * 100, limitPercent: settings.fit.maximumParameterError * 100)
        }
        guard Double(residuals.outlierCount) <= Double(y.count) * settings.fit.maximumOutlierPercent / 100 else {
            return .tooManyOutliers(count: residuals.outlierCount, of: y.count)
        }
        let acceptable = settings.fit.gradeThresholds.acceptableFitErrorPercent
        guard residuals.fitErrorPercent <= acceptable else {
            return .poorFit(fitErrorPercent: residuals.fitErrorPercent, limit: acceptable)
        }
        let previous = FitResiduals(corrected: oldCorrected, target: oldRadius).fitErrorPercent
        let uncertainty = relative * radius
        let change = (centre - inUse).length
        guard residuals.fitErrorPercent <= settings.maximumErrorRatio * previous,
              change > settings.significance * uncertainty,
              let inverse = s.inverse else {
            return .noImprovement(fitErrorPercent: residuals.fitErrorPercent, previousFitErrorPercent: previous,
                                  change: change, uncertainty: uncertainty)
        }
        let proposal = Proposal(offset: inverse * centre, centre: centre, radius: radius,
                                fitErrorPercent: residuals.fitErrorPercent, previousFitErrorPercent: previous,
                                residualRMS: residuals.residualRMS, outlierCount: residuals.outlierCount,
                                sampleCount: y.count, coveragePercent: coverage, uncertainty: uncertainty, change: change)
        return .proposal(proposal, count: candidates.count + 1)
    }
}

/// A new hard-iron offset adopted by `HardIronTracker`: what changed and on what evidence.
public struct HardIronUpdate: Hashable, Sendable {
    /// Sample time of the refit that adopted it, seconds.
    public var time: Double
    public var previous: MagneticCalibration
    /// The new correction: the new offset with the same matrix.
    public var calibration: MagneticCalibration
    /// The fit behind it (the last of the proposals in a row).
    public var proposal: HardIronTracker.Proposal

    /// Mean radius of the raw readings' ellipsoid, µT: the radius in the corrected
    /// space divided by the matrix's mean scale (the profile's `fittedMagnitude`).
    public var fittedMagnitude: Double {
        proposal.radius / cbrt(calibration.softIron.determinant)
    }

    /// `offset (…) → (…) µT; fit error a % → b % on N recent samples`.
    public var detail: String {
        "offset \(DecimalText.vector(previous.hardIron)) → \(DecimalText.vector(calibration.hardIron)) µT; fit error "
            + "\(DecimalText.fixed(proposal.previousFitErrorPercent, 2)) % → \(DecimalText.fixed(proposal.fitErrorPercent, 2)) % "
            + "on \(proposal.sampleCount) recent samples (coverage \(DecimalText.fixed(proposal.coveragePercent, 0)) %)"
    }

    /// The pipeline's view of the update when no profile is in use (a profile's
    /// own `calibrationStatus` serves otherwise, after `CalibrationProfile.applying(_:time:)`):
    /// the fit error and coverage of the update, the fitted field strength.
    public var status: CalibrationStatus {
        CalibrationStatus(fitErrorPercent: proposal.fitErrorPercent, fieldStrength: proposal.radius,
                          coveragePercent: proposal.coveragePercent)
    }
}
