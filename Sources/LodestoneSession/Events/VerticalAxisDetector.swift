/// Decides when a forward axis near vertical has lasted long enough to tell the
/// user, and when it has ended.
///
/// A board mounted upright with the default forward axis (its top edge) gives
/// only invalid headings; a hand-held board swung through vertical gives a few.
/// Only the first is worth an event. The detector weighs sample time: time near
/// vertical counts towards ``Settings/startAfter``, time away from it counts
/// back down (never below zero). A board that lingers near vertical most of the
/// time is reported even if it flickers across the limit; brief passes are not.
/// Once in force, time away from vertical counts towards ``Settings/endAfter``
/// the same way. Each change starts the count afresh.
public struct VerticalAxisDetector: Hashable, Sendable {
    public struct Settings: Hashable, Sendable {
        /// Net time near vertical before the event starts, s: longer than a hand-held
        /// board spends there when it is swung or tilted past vertical.
        public var startAfter: Double
        /// Net time away from vertical before it ends, s: valid headings are back
        /// for good, not for one sample of noise at the limit.
        public var endAfter: Double
        /// The most one step between samples counts, s: a gap in the samples (a
        /// paused source, a restarted log) says nothing about where the axis pointed.
        public var longestStep: Double

        public init(startAfter: Double = 2, endAfter: Double = 1, longestStep: Double = 1) {
            self.startAfter = startAfter
            self.endAfter = endAfter
            self.longestStep = longestStep
        }
    }

    public enum Change: Hashable, Sendable {
        case started, ended
    }

    public let settings: Settings
    /// Whether the axis has been near vertical long enough, and not yet away long enough.
    public private(set) var isInForce = false
    /// Net time, s, towards the next change.
    private var evidence = 0.0
    private var lastTime: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Feeds one sample: whether the axis is near vertical, and its time. Returns the
    /// change this sample makes, if any.
    @inline(__always) // once per sample, and nearly always the first branch
    public mutating func update(isVertical: Bool, time: Double) -> Change? {
        if isVertical == isInForce, evidence == 0 { // nearly every sample: nothing counts
            lastTime = time
            return nil
        }
        let step = self.step(to: time)
        evidence = max(0, evidence + (isVertical != isInForce ? step : -step))
        guard evidence >= (isInForce ? settings.endAfter : settings.startAfter) else { return nil }
        isInForce.toggle()
        evidence = 0
        return isInForce ? .started : .ended
    }

    /// Forgets the count and the state, for an axis other than the one watched so far.
    public mutating func reset() {
        self = VerticalAxisDetector(settings: settings)
    }

    /// The sample time since the last sample: 0 for the first sample or a step back in
    /// time, at most ``Settings/longestStep``.
    private mutating func step(to time: Double) -> Double {
        defer { lastTime = time }
        guard let lastTime, time > lastTime else { return 0 }
        return min(time - lastTime, settings.longestStep)
    }
}
