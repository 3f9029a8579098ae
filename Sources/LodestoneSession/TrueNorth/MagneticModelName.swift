import LodestoneGeomagnetism

/// The bundled geomagnetic model to use for declination (`--model`, `model`).
public enum MagneticModelName: String, Hashable, Sendable, CaseIterable {
    /// WMM2025: the standard for navigation.
    case wmm
    /// WMMHR2025: also part of the crustal field; ~100× the cost per evaluation.
    case wmmhr

    public var model: GeomagneticModel { self == .wmm ? .wmm2025 : .wmmhr2025 }

    /// `wmm`, `wmm2025`, `wmmhr` or `wmmhr2025`.
    public init?(argument: String) {
        switch argument {
        case "wmm", "wmm2025": self = .wmm
        case "wmmhr", "wmmhr2025": self = .wmmhr
        default: return nil
        }
    }
}
