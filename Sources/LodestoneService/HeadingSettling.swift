import LodestoneCore

/// Whether a heading is settled enough to answer `?POLL`: the estimator's start-up
/// transient is over.
///
/// When the sensors are claimed again, the smoothing and the fusion start afresh
/// and the first headings carry a larger `headingAccuracy` that falls over a
/// fraction of a second (measured on the simulated board: 7.3° at the first
/// sample, 5.1° after 0.4 s, then flat). A heading is settled when, after at
/// least ``Settings/minimumRun`` of running:
/// - its accuracy is at or below the steady level learned for this source (the
///   slow average of the accuracy once the estimator has run ``Settings/learnAfter``,
///   times 1 + ``Settings/tolerance``), or
/// - its accuracy has stopped falling: it fell by less than ``Settings/flatFraction``
///   over the last ``Settings/flatWindow`` (the level may not be known yet, or the
///   conditions may have changed since it was learned).
struct HeadingSettling {
    struct Settings {
        var minimumRun = 0.1
        var learnAfter = 5.0
        /// Seconds over which the steady level follows the accuracy.
        var learningTimeConstant = 30.0
        var tolerance = 0.1
        var flatWindow = 0.25
        var flatFraction = 0.02
    }

    let settings = Settings()
    /// The accuracy this source settles to, degrees; nil until learned.
    private(set) var steadyLevel: Double?
    private var runStart: Double?
    private var lastTime: Double?
    /// Accuracy at the start of the current flatness window, and when.
    private var windowStart: (time: Double, accuracy: Double)?
    /// Whether the latest heading was settled.
    private(set) var isSettled = false

    /// The estimator starts afresh (the sensors were claimed again).
    mutating func restart() {
        runStart = nil
        lastTime = nil
        windowStart = nil
        isSettled = false
    }

    /// Takes the heading of a sample (sample time `h.timestamp`); returns whether it is settled.
    @discardableResult
    mutating func observe(_ h: Heading) -> Bool {
        let t = h.timestamp, a = h.headingAccuracy
        guard a >= 0, a.isFinite else {
            isSettled = false
            return false
        }
        let start = runStart ?? t
        runStart = start
        let run = t - start
        if run >= settings.learnAfter {
            let step = min(1, max(0, t - (lastTime ?? t)) / settings.learningTimeConstant)
            steadyLevel = steadyLevel.map { $0 + (a - $0) * step } ?? a
        }
        lastTime = t
        var flat = false
        if let w = windowStart, t - w.time >= settings.flatWindow {
            flat = w.accuracy - a < settings.flatFraction * w.accuracy
            windowStart = (t, a)
        } else if windowStart == nil {
            windowStart = (t, a)
        }
        let belowLevel = steadyLevel.map { a <= $0 * (1 + settings.tolerance) } ?? false
        isSettled = isSettled || (run >= settings.minimumRun && (belowLevel || flat))
        return isSettled
    }
}
