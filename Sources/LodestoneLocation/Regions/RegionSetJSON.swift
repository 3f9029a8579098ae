import LodestoneJSON
import LodestoneSteering

/// The JSON form of a region set, read with the package's own strict parser and
/// written with its writer (no Foundation, for the daemon):
///
/// ```json
/// {
///   "formatVersion" : 1,
///   "regions" : [
///     { "identifier" : "home", "latitude" : 52.5163, "longitude" : 13.3777, "radius" : 100,
///       "notifyOnEntry" : true, "notifyOnExit" : true, "dwellTime" : 60,
///       "state" : "inside", "insideSince" : 1780000000.5, "dwellReported" : false }
///   ]
/// }
/// ```
/// `notifyOnEntry`/`notifyOnExit` default to true, `dwellTime` to none, `state` to
/// unknown. Numbers are written in shortest round-trip form, so a file reads back
/// bit-exact. Writing the file atomically is the caller's part.
extension RegionSet {
    /// Decodes and validates a region set from the bytes of a file.
    public init(json bytes: some Collection<UInt8>, maximumRegions: Int = RegionMonitor.Settings().maximumRegions,
                maximumRadius: Double = RegionMonitor.Settings().maximumRadius) throws(RegionSetError) {
        let text = Array(bytes)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes: text)
        } catch {
            throw .malformedJSON(text.isEmpty ? "the file is empty" : "\(error)")
        }
        do {
            self = try Self(document: JSONField(document))
        } catch let error as RegionSetError {
            throw error
        } catch let error as JSONFieldError {
            throw .field(error)
        } catch {
            throw .malformedJSON("\(error)")
        }
        try validate(maximumRegions: maximumRegions, maximumRadius: maximumRadius)
    }

    /// Validates, then encodes as pretty-printed JSON with sorted keys, ending in a newline.
    public func jsonBytes(maximumRegions: Int = RegionMonitor.Settings().maximumRegions,
                          maximumRadius: Double = RegionMonitor.Settings().maximumRadius) throws(RegionSetError) -> [UInt8] {
        try validate(maximumRegions: maximumRegions, maximumRadius: maximumRadius)
        let writer = JSONLineBuilder(capacity: 1024)
        writer.append(jsonValue, pretty: true)
        return Array(writer.bytes) + [0x0A]
    }

    /// The set as a JSON document.
    public var jsonValue: JSONValue {
        .object([
            "formatVersion": .number(Double(Self.formatVersion)),
            "regions": .array(entries.map(\.jsonValue)),
        ])
    }

    /// Refuses duplicates, too many regions and radii beyond `maximumRadius`.
    public func validate(maximumRegions: Int, maximumRadius: Double) throws(RegionSetError) {
        guard entries.count <= maximumRegions else { throw .tooManyRegions(count: entries.count, limit: maximumRegions) }
        var seen: [String: Int] = [:]
        for (i, entry) in entries.enumerated() {
            if let first = seen[entry.region.identifier] {
                throw .duplicateIdentifier(entry.region.identifier, indices: [first, i])
            }
            seen[entry.region.identifier] = i
            if entry.region.radius > maximumRadius {
                throw .invalidRegion(index: i, path: "regions[\(i)].radius",
                                     .valueOutOfRange(name: "radius", value: entry.region.radius, allowed: "metres ≤ \(maximumRadius)"))
            }
        }
    }

    private init(document root: JSONField) throws {
        let version = try root.member("formatVersion").integer()
        guard version == Self.formatVersion else { throw RegionSetError.unsupportedVersion(found: version, supported: Self.formatVersion) }
        entries = try root.member("regions").array().enumerated().map { try Entry(field: $0.element, index: $0.offset) }
    }
}

extension RegionSet.Entry {
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "identifier": .string(region.identifier),
            "latitude": .number(region.center.latitude),
            "longitude": .number(region.center.longitude),
            "radius": .number(region.radius),
            "notifyOnEntry": .bool(region.notifyOnEntry),
            "notifyOnExit": .bool(region.notifyOnExit),
            "state": .string(state.rawValue),
        ]
        if let dwell = region.dwellTime { members["dwellTime"] = .number(dwell) }
        if let since = insideSince { members["insideSince"] = .number(since) }
        if state == .inside { members["dwellReported"] = .bool(dwellReported) }
        return .object(members)
    }

    /// Reads one region; a value out of range throws naming `regions[i].field`.
    init(field: JSONField, index: Int) throws {
        let path = field.path
        func number(_ key: String) throws -> Double { try field.member(key).number(nonFiniteStrings: true) }
        func fail(_ key: String, _ error: RegionError) -> RegionSetError {
            .invalidRegion(index: index, path: "\(path).\(key)", error)
        }
        let latitude = try number("latitude"), longitude = try number("longitude")
        let center: GeoCoordinate
        do {
            guard abs(longitude) <= 180 else { throw SteeringInputError.longitudeNotFinite(longitude) }
            center = try GeoCoordinate(latitude: latitude, longitude: longitude)
        } catch {
            let key = latitude.isFinite && abs(latitude) <= 90 ? "longitude" : "latitude"
            let value = key == "latitude" ? latitude : longitude
            throw fail(key, .valueOutOfRange(name: key, value: value, allowed: key == "latitude" ? "degrees in [-90, 90]" : "degrees in [-180, 180]"))
        }
        let identifierField = try field.member("identifier")
        let region: CircularRegion
        do {
            region = try CircularRegion(identifier: try identifierField.string(), center: center, radius: try number("radius"),
                                        notifyOnEntry: try field.member("notifyOnEntry").isAbsent ? true : try field.member("notifyOnEntry").bool(),
                                        notifyOnExit: try field.member("notifyOnExit").isAbsent ? true : try field.member("notifyOnExit").bool(),
                                        dwellTime: try field.member("dwellTime").optionalNumber(nonFiniteStrings: true))
        } catch let error as RegionError {
            switch error {
            case .valueOutOfRange(let name, _, _): throw fail(name, error)
            default: throw fail("identifier", error)
            }
        }
        let state = try field.member("state").isAbsent ? RegionState.unknown : try field.member("state").oneOf(RegionState.self)
        let since = try field.member("insideSince").optionalNumber(nonFiniteStrings: true)
        if let since, !since.isFinite {
            throw fail("insideSince", .valueOutOfRange(name: "insideSince", value: since, allowed: "finite Unix seconds"))
        }
        let dwellReported = try field.member("dwellReported").isAbsent ? false : try field.member("dwellReported").bool()
        self.init(region: region, state: state, insideSince: since, dwellReported: dwellReported)
    }
}
