/// How the D-Bus compass is offered: which bus, who may claim it, how often it speaks.
public struct DBusCompassSettings: Hashable, Sendable {
    public enum Bus: Hashable, Sendable {
        /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`).
        case system
        /// A bus at a D-Bus address such as `unix:path=/tmp/bus` (tests, a private bus).
        case address(String)
    }

    public var bus: Bus = .system
    /// Users who may claim the compass and read its heading. The service's own user
    /// always may. `geoclue` is the user GeoClue runs as on Debian and Fedora.
    public var allowedUsers: [String] = ["root", "geoclue"]
    /// Members of these groups may too (the group `lodestone`'s members use the socket as well).
    public var allowedGroups: [String] = ["lodestone"]
    /// A new heading is announced when it moved at least this far (degrees) from the last
    /// one announced, or when it became known or unknown.
    public var headingFilter: Double = 1
    /// At most this many PropertiesChanged signals per second per client; a change that
    /// comes sooner is announced when the interval has passed.
    public var maximumRate: Double = 10

    public init() {}

    public static let busName = "net.hadess.SensorProxy"
    public static let compassPath = "/net/hadess/SensorProxy/Compass"
    public static let compassInterface = "net.hadess.SensorProxy.Compass"
    public static let proxyPath = "/net/hadess/SensorProxy"
    public static let proxyInterface = "net.hadess.SensorProxy"
}
