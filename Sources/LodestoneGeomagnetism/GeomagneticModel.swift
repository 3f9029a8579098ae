/// A World Magnetic Model release: its coefficients and its validity.
///
/// The models are bundled (no file, no network) and built on first use of
/// `.wmm2025` or `.wmmhr2025`; a Swift `static let` makes that lazy and
/// thread-safe. A model is an immutable value: share it across tasks freely.
/// Evaluation allocates nothing and keeps no state, so one model serves any
/// number of concurrent callers.
///
/// Which to use: WMM2025 (degree 12, wavelengths ≥ ~3300 km) is the standard
/// for navigation; WMMHR2025 (degree 133, wavelengths ≥ ~300 km) also holds
/// part of the crustal field, so its declination is somewhat better locally,
/// at ~100× the cost per point.
public struct GeomagneticModel: Sendable, CustomStringConvertible {
    /// "WMM2025" or "WMMHR2025".
    public let name: String
    /// Reference epoch of the coefficients, decimal year.
    public let epoch: Double
    /// Release date as printed in the coefficient file, ISO 8601.
    public let releaseDate: String
    public let mainFieldDegree: Int
    public let secularVariationDegree: Int
    /// NOAA's error model for this release.
    public let errorModel: GeomagneticErrorModel
    let table: ColumnTable

    /// WMM2025: NOAA NCEI / BGS World Magnetic Model, degree 12, 2025.0–2030.0.
    public static let wmm2025 = GeomagneticModel(.wmm2025, errorModel: .wmm2025)
    /// WMMHR2025: NOAA NCEI high-resolution WMM, degree 133 (secular variation
    /// to degree 15), 2025.0–2030.0.
    public static let wmmhr2025 = GeomagneticModel(.wmmhr2025, errorModel: .wmmhr2025)

    /// The dates (decimal years) the model is valid for: its epoch to five years later, inclusive.
    public var validity: ClosedRange<Double> { epoch...(epoch + 5) }

    /// Heights above the WGS 84 ellipsoid (km) the WMM is specified for.
    public static let heightValidity: ClosedRange<Double> = -1...850

    public var description: String { name }

    init(_ payload: CoefficientPayload, errorModel: GeomagneticErrorModel) {
        name = payload.name
        epoch = payload.epoch
        releaseDate = payload.releaseDate
        mainFieldDegree = payload.mainFieldDegree
        secularVariationDegree = payload.secularVariationDegree
        self.errorModel = errorModel
        table = ColumnTable(payload)
    }

    /// The field at a place and time.
    ///
    /// - Parameters:
    ///   - latitude: geodetic latitude, degrees, −90…90 (the poles are exact).
    ///   - longitude: geodetic longitude, degrees east; any finite value (−180 and 180 are the same).
    ///   - height: height above the WGS 84 ellipsoid, km (not above sea level; the two differ by up to ~100 m).
    ///   - decimalYear: e.g. from `DecimalYear.from(year:month:day:)`.
    ///   - allowExtrapolation: outside the model's dates or heights, give a
    ///     result marked `isExtrapolated` instead of throwing.
    /// - Throws: `GeomagneticError` for bad input, or for a date/height outside
    ///   the model's validity unless `allowExtrapolation`.
    public func elements(latitude: Double, longitude: Double, height: Double, decimalYear: Double,
                         allowExtrapolation: Bool = false) throws(GeomagneticError) -> GeomagneticElements {
        guard latitude.isFinite else { throw .notFinite("latitude") }
        guard longitude.isFinite else { throw .notFinite("longitude") }
        guard height.isFinite else { throw .notFinite("height") }
        guard decimalYear.isFinite else { throw .notFinite("decimal year") }
        guard (-90...90).contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        var extrapolated = false
        if !validity.contains(decimalYear) {
            guard allowExtrapolation else {
                throw .dateOutsideValidity(decimalYear: decimalYear, model: name,
                                           validFrom: validity.lowerBound, validUntil: validity.upperBound)
            }
            extrapolated = true
        }
        if !Self.heightValidity.contains(height) {
            guard allowExtrapolation else {
                throw .heightOutsideValidity(heightKilometres: height, model: name,
                                             lowest: Self.heightValidity.lowerBound,
                                             highest: Self.heightValidity.upperBound)
            }
            extrapolated = true
        }
        let position = SphericalPosition(latitude: latitude, longitude: longitude, height: height)
        let field = table.synthesize(at: position, yearsSinceEpoch: decimalYear - epoch)
        return GeomagneticElements(model: name, latitude: latitude, longitude: longitude, height: height,
                                   decimalYear: decimalYear, field: field, isExtrapolated: extrapolated,
                                   errorModel: errorModel)
    }
}
