import LodestoneCore

/// Something a heading client should know besides the headings: the one set
/// of event names and reasons of the session, printed by `replay`, `watch`
/// and `record`, sent by `serve` as `EVENT` objects and delivered by
/// `HeadingManager` (PROTOCOL.md lists them).
///
/// `reason` is a short code a program can test, `detail` a sentence for
/// people, `state` says whether an event that lasts (a disturbance, a forward
/// axis near vertical) starts or ends.
public struct HeadingEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Name: String, Hashable, Sendable, CaseIterable {
        case trueHeadingAvailable, trueHeadingUnavailable, trueHeadingDegraded, modelExtrapolated
        case calibrationNeeded, calibrationUpdated, magneticDisturbance, headingUnavailable
        case sourceFault, sourceResumed, sourceEnded, sourceFailed, sensorHealth
    }

    public enum Reason: String, Hashable, Sendable, CaseIterable {
        // True north.
        case positionKnown, noPosition, noFix, gpsdUnreachable, fixTooOld, blackoutZone, cautionZone, modelUnusable
        case outsideValidity
        // The magnetic environment and the calibration.
        case neverCalibrated, fitStale, fieldMagnitudeOff, dipOff, fieldNormal, hardIronTracking, hardIronSwing
        // The forward axis.
        case forwardAxisVertical, forwardAxisUsable
        // The source.
        case contextUnavailable, sensorNotFound, permissionDenied, ioError, noData, unsupported, recovered
        case endOfLog, fatal
        case sensorStuck, sensorSaturated, thermometerFailed, sensorsHealthy
    }

    public enum State: String, Hashable, Sendable {
        case start, end
    }

    public var name: Name
    public var reason: Reason
    public var detail: String
    public var state: State?
    /// Sample time (the source's clock) of the sample that raised it; nil when no sample did.
    public var timestamp: Double?
    /// `sensorHealth`: what is wrong with which sensor, empty when all is well again.
    public var flags: [String]

    public init(_ name: Name, _ reason: Reason, _ detail: String, state: State? = nil, timestamp: Double? = nil,
                flags: [String] = []) {
        self.name = name
        self.reason = reason
        self.detail = detail
        self.state = state
        self.timestamp = timestamp
        self.flags = flags
    }

    public var description: String { "\(name.rawValue) (\(reason.rawValue)): \(detail)" }

    /// The session's form of a pipeline event.
    public init(_ event: MagneticEvent, timestamp: Double?) {
        switch event {
        case .calibrationNeeded(let reason, let detail):
            self.init(.calibrationNeeded, Reason(reason), detail, timestamp: timestamp)
        case .disturbanceStarted(let reason, let detail):
            self.init(.magneticDisturbance, reason == .dipOff ? .dipOff : .fieldMagnitudeOff, detail, state: .start,
                      timestamp: timestamp)
        case .disturbanceEnded(let detail):
            self.init(.magneticDisturbance, .fieldNormal, detail, state: .end, timestamp: timestamp)
        case .hardIronSwung(let detail):
            self.init(.calibrationUpdated, .hardIronSwing, detail, timestamp: timestamp)
        }
    }
}

extension HeadingEvent.Reason {
    init(_ reason: CalibrationReason) {
        switch reason {
        case .neverCalibrated: self = .neverCalibrated
        case .fitStale: self = .fitStale
        case .fieldMagnitudeOff: self = .fieldMagnitudeOff
        case .dipOff: self = .dipOff
        }
    }
}
