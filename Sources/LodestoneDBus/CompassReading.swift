import LodestoneCore

/// The value `CompassHeading` carries: degrees clockwise from north, or unknown.
///
/// iio-sensor-proxy documents the property as degrees from magnetic north and −1
/// when unknown; GeoClue passes it on as the device's heading without correcting
/// it (true north is a FIXME there). So the reading is true north whenever the
/// provider knows the position (``isTrueNorth``), else magnetic north, and
/// unknown (−1) while the heading is invalid.
public struct CompassReading: Hashable, Sendable {
    /// Degrees in [0, 360), or nil when no valid heading is known.
    public var degrees: Double?
    /// Whether ``degrees`` is measured from true north.
    public var isTrueNorth: Bool

    public init(degrees: Double?, isTrueNorth: Bool) {
        self.degrees = degrees.flatMap { $0.isFinite ? Angle.normalized360($0) : nil }
        self.isTrueNorth = isTrueNorth && self.degrees != nil
    }

    public static let unknown = CompassReading(degrees: nil, isTrueNorth: false)

    /// True heading when known, else magnetic; unknown while the heading is invalid.
    public init(_ heading: Heading) {
        guard heading.isValid else {
            self = .unknown
            return
        }
        if let t = heading.trueHeading {
            self.init(degrees: t, isTrueNorth: true)
        } else {
            self.init(degrees: heading.magneticHeading, isTrueNorth: false)
        }
    }

    /// The property's value: the degrees, or −1 when unknown.
    public var propertyValue: Double { degrees ?? -1 }
}
