import LodestoneCore

/// Online hard-iron tracking beside a heading pipeline (`--auto-calibrate`):
/// a `HardIronTracker` started from the magnetometer profile in use (or from
/// none), and that profile as it is updated.
///
/// Feed it the raw field of every sample; when the tracker adopts a new
/// offset it returns an ``Adoption``: the correction and status to give the
/// pipeline (`HeadingPipeline.replaceCalibration`), the updated profile to
/// save when there is one, and the sentence for the `calibrationUpdated`
/// event. Saving is the caller's (an edge: `CalibrationProfileStore.saveUpdate`).
public struct AutoCalibration: Sendable {
    public struct Adoption: Sendable {
        public var update: HardIronUpdate
        /// The profile with the new offset, or nil when no profile is in use.
        public var profile: CalibrationProfile?
        /// The profile before this update, for the check that its file is unchanged.
        public var previousProfile: CalibrationProfile?

        public var calibration: MagneticCalibration { update.calibration }

        /// What the pipeline should know: the updated profile's status, or
        /// the update's own figures when no profile is in use.
        public var status: CalibrationStatus { profile?.calibrationStatus ?? update.status }
    }

    public private(set) var tracker: HardIronTracker
    /// The magnetometer profile in use, with every update so far; nil when none is.
    public private(set) var profile: CalibrationProfile?

    /// Starts from `profile` (nil: raw readings, or whatever `calibration` says).
    public init(profile: CalibrationProfile?, calibration: MagneticCalibration,
                settings: HardIronTracker.Settings = HardIronTracker.Settings()) {
        self.profile = profile
        tracker = HardIronTracker(settings: settings, calibration: profile?.magneticCalibration ?? calibration)
    }

    /// Offers one raw body-frame reading taken at sample time `time`;
    /// `unixTime` is the wall clock of that sample, for the note in the profile.
    public mutating func add(_ field: Vector3, time: Double, unixTime: Double) -> Adoption? {
        guard let update = tracker.add(field, time: time) else { return nil }
        let previous = profile
        profile = profile.map { $0.applying(update, time: WallClockTime.iso8601(unixSeconds: unixTime, fractionDigits: 0)) }
        return Adoption(update: update, profile: profile, previousProfile: previous)
    }
}
