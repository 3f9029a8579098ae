/// The events whose condition still holds: a magnetic disturbance that has not ended,
/// a calibration that is needed, a source fault not yet resumed, whether true heading
/// is available. A new live view gets them first; gpsd's `mag_st` is made from them.
///
/// The latest event of each name is kept until an event ends it: its own `end` state,
/// `sourceResumed` (ends `sourceFault`), `calibrationUpdated` by hard-iron tracking (ends
/// `calibrationNeeded`: the profile was put right; the pipeline's in-memory `hardIronSwing` does not),
/// `sensorHealth` without flags, or another of the true-heading states. Events that
/// say something once (`linesDropped`, `steerStopped` …) are not kept.
struct EventsInForce {
    private(set) var events: [(event: ServiceEvent, time: Double)] = []

    private static let once: Set<String> = ["linesDropped", "steerStopped", "steerUnavailable", "sourceResumed",
                                            "calibrationUpdated", "serviceStopping"]
    private static let trueHeadingStates: Set<String> = ["trueHeadingAvailable", "trueHeadingUnavailable", "trueHeadingDegraded"]

    mutating func record(_ e: ServiceEvent, time: Double) {
        var ended: Set<String> = [e.name]
        switch e.name {
        case "sourceResumed": ended.insert("sourceFault")
        case "calibrationUpdated" where e.reason == "hardIronTracking": ended.insert("calibrationNeeded")
        case _ where Self.trueHeadingStates.contains(e.name): ended.formUnion(Self.trueHeadingStates)
        default: break
        }
        events.removeAll { ended.contains($0.event.name) }
        let ends = e.state == "end" || (e.name == "sensorHealth" && e.flags?.isEmpty == true)
        if !ends, !Self.once.contains(e.name) { events.append((e, time)) }
    }

    func contains(_ name: String) -> Bool {
        events.contains { $0.event.name == name }
    }
}
