import LodestoneCore

/// Bearings as a display shows them: rounded, then wrapped into [0, 360).
///
/// A bearing of 359.9996° is in [0, 360), but printed with three decimals it
/// reads "360.000". Rounding must come before the wrap, so every interface
/// that prints a bearing to a fixed number of decimals goes through here.
public enum BearingRounding {
    /// Below this distance from 360°, a computed bearing is reported as 0: it would
    /// print as 360 at the nine decimals the JSON writer allows at most. Geodesic
    /// azimuths are good to about 1e-12°, so the snap changes nothing real.
    static let snapToNorth = 5e-10

    /// `degrees` wrapped into [0, 360), with values that differ from 360 by less than
    /// ``snapToNorth`` reported as 0 (and −0 as 0).
    public static func normalized(_ degrees: Double) -> Double {
        let wrapped = Angle.normalized360(degrees)
        return 360 - wrapped < snapToNorth ? 0 : wrapped + 0
    }

    /// `degrees` rounded half away from zero to `decimals` (0…9) places, then wrapped
    /// into [0, 360): the number to print, which never reads 360 (``Angle/rounded360(_:decimals:)``).
    public static func rounded(_ degrees: Double, decimals: Int) -> Double {
        Angle.rounded360(degrees, decimals: decimals)
    }

    /// A signed difference of directions (a turn) rounded to `decimals` places, then wrapped
    /// into [−180, 180): the number to print, which never reads +180.
    public static func roundedSigned(_ degrees: Double, decimals: Int) -> Double {
        let r = rounded(degrees, decimals: decimals)
        return r >= 180 ? r - 360 : r
    }
}
