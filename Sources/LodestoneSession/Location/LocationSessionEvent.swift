import LodestoneCore
import LodestoneLocation

/// Something a location client should know besides the fixes and region
/// crossings: a refused fix, a dropped value, the source's state, a route that
/// stopped itself. The same names and reasons in `lodestone locate`'s NDJSON,
/// the `EVENT` objects of `serve` and ``LocationManager``'s events (PROTOCOL.md
/// lists them).
public struct LocationSessionEvent: Hashable, Sendable, CustomStringConvertible {
    public enum Name: String, Hashable, Sendable, CaseIterable {
        /// A fix was refused (``LocationRejection``); nothing else changed.
        case locationRejected
        /// An optional value of a fix (speed, an accuracy…) was invalid and dropped.
        case locationValueDiscarded
        /// Several fixes agreed with each other but not with the last accepted one: the source follows them.
        case locationRelocated
        /// The source has no fix, or cannot be reached.
        case locationUnavailable
        /// Fixes arrive (again).
        case locationAvailable
        /// The route recorder stopped by itself.
        case trackStopped
        /// A replayed position log reached its end.
        case sourceEnded
    }

    public enum Reason: String, Hashable, Sendable, CaseIterable {
        // locationRejected: the rejection's kind.
        case latitudeOutOfRange, longitudeOutOfRange, timestampNotFinite, fromTheFuture, stale, outOfOrder
        case insufficientAccuracy, implausibleJump
        // locationValueDiscarded: the field.
        case altitude, ellipsoidalAltitude, horizontalAccuracy, verticalAccuracy, speed, speedAccuracy, course, courseAccuracy
        // The rest.
        case consistentFixes, noFix, sourceUnreachable, fixReceived, full, endOfLog
    }

    public var name: Name
    public var reason: Reason
    public var detail: String
    /// The fix time (Unix seconds) of the fix it concerns; nil when none does.
    public var fixTime: Double?

    public init(_ name: Name, _ reason: Reason, _ detail: String, fixTime: Double? = nil) {
        self.name = name
        self.reason = reason
        self.detail = detail
        self.fixTime = fixTime
    }

    public var description: String { "\(name.rawValue) (\(reason.rawValue)): \(detail)" }

    /// The event for what the location filter did with a fix; nil for delivered and withheld fixes.
    init?(_ event: LocationEvent, fix: Location) {
        switch event {
        case .delivered, .withheldByDistanceFilter:
            return nil
        case .rejected(let rejection):
            self.init(.locationRejected, Reason(rejection), "fix refused: \(rejection)", fixTime: fix.timestamp)
        case let .discardedValue(field, value):
            self.init(.locationValueDiscarded, Reason(rawValue: field.rawValue) ?? .speed,
                      "\(field.rawValue) \(value) is not valid and was dropped; the rest of the fix is used", fixTime: fix.timestamp)
        case let .relocated(previous, distance):
            self.init(.locationRelocated, .consistentFixes,
                      "fixes agree on a place \(Int(saturating: distance.rounded())) m from the last accepted one (\(previous.latitude), \(previous.longitude)), which was the outlier: following them",
                      fixTime: fix.timestamp)
        }
    }
}

extension LocationSessionEvent.Reason {
    init(_ rejection: LocationRejection) {
        switch rejection {
        case .latitudeOutOfRange: self = .latitudeOutOfRange
        case .longitudeOutOfRange: self = .longitudeOutOfRange
        case .timestampNotFinite: self = .timestampNotFinite
        case .fromTheFuture: self = .fromTheFuture
        case .stale: self = .stale
        case .outOfOrder: self = .outOfOrder
        case .insufficientAccuracy: self = .insufficientAccuracy
        case .implausibleJump: self = .implausibleJump
        }
    }
}
