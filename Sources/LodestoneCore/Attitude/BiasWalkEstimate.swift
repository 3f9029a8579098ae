/// How much faster the gyro's bias wanders than `gyroBiasRandomWalk` says,
/// learned from how far the filter's own bias estimate moves.
///
/// Over a window of T seconds a bias that walks with intensity q moves by
/// 3·q·T (squared, summed over the axes), and a consistent filter's estimate
/// follows it, plus what it learns meanwhile: the fall of its bias variance's
/// trace over the window. The estimate's squared move over that expectation is
/// one sample of the walk's ratio to q, a χ² of three degrees of freedom over
/// three. The ratio is the running mean of the samples (the last
/// ``windowsToLearn`` count); once it stands beyond what the windows seen
/// would show by chance (``significance(windows:)``) it scales the walk, then
/// follows the mean, never below 1: a part whose bias wanders less than its
/// setting says is left with the setting, since a smaller walk lets a
/// vehicle's or a hand's accelerations teach the bias for longer. A filter
/// whose walk is too small follows its estimate too stiffly, so the move
/// measured falls short of the true one; each raise lets the estimate follow
/// further and the next windows show more, so the ratio climbs toward the true
/// one over a few windows.
public struct BiasWalkEstimate: Hashable, Sendable {
    /// The length of one window, s: long against the bias's learning after a
    /// correction, short against a run.
    public static let window = 60.0
    /// How many windows the mean spans.
    public static let windowsToLearn = 10.0
    /// The chance that the walk is raised when it is the setting's, at each
    /// count of windows: one in 80, as a standard normal quantile.
    static let falseRaiseQuantile = 2.24

    /// The mean ratio beyond which the walk is raised, after `windows` windows:
    /// the mean of χ² with 3·n degrees of freedom exceeds it by chance one time
    /// in 80 (Wilson and Hilferty's cube-root approximation). 3.6 after one
    /// window, 2.0 after five, 1.7 after ten: a walk far beyond the setting is
    /// taken from its first clear minute, a slight one only once many agree.
    static func significance(windows: Double) -> Double {
        let k = 3 * min(windows, windowsToLearn), spread = 2 / (9 * k)
        let root = 1 - spread + falseRaiseQuantile * spread.squareRoot()
        return root * root * root
    }

    /// What the walk's variance is multiplied by, at least 1.
    public private(set) var factor = 1.0
    private var meanRatio = 0.0
    private var windows = 0.0
    private var anchor: Anchor?

    /// The start of the current window.
    private struct Anchor: Hashable, Sendable {
        var bias: Vector3
        var trace: Double
        var time: Double
    }

    public init() {}

    /// One correction: the bias estimate (rad/s), its variance's trace
    /// ((rad/s)²), the time (s), and the walk's intensity the settings give ((rad/s)²/s).
    public mutating func observe(bias: Vector3, trace: Double, time: Double, walkIntensity: Double) {
        guard let a = anchor else {
            anchor = Anchor(bias: bias, trace: trace, time: time)
            return
        }
        let span = time - a.time
        guard span >= Self.window else { return }
        anchor = Anchor(bias: bias, trace: trace, time: time)
        let expected = 3 * walkIntensity * span + max(0, a.trace - trace)
        guard expected > 0 else { return }
        windows += 1
        meanRatio += ((bias - a.bias).squaredLength / expected - meanRatio) / min(windows, Self.windowsToLearn)
        // Once raised, the factor follows the mean back down to 1; before, only a significant mean raises it.
        if factor > 1 || meanRatio > Self.significance(windows: windows) { factor = max(1, meanRatio) }
    }

    /// A gap or a restart: the next window starts afresh; what was learned stays.
    public mutating func interrupted() {
        anchor = nil
    }
}
