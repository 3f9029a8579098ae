import CSystemd
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One sd-bus connection: opened, named, driven by `process` and closed, on one thread.
///
/// sd-bus is not thread-safe: everything but `open` runs on the D-Bus thread.
final class BusConnection {
    let bus: OpaquePointer

    private init(_ bus: OpaquePointer) {
        self.bus = bus
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    static func open(_ target: DBusCompassSettings.Bus) throws(DBusCompassError) -> BusConnection {
        var bus: OpaquePointer?
        switch target {
        case .system:
            let rc = sd_bus_open_system(&bus)
            guard rc >= 0, let bus else {
                throw DBusCompassError("cannot connect to the D-Bus system bus", code: rc,
                                       advice: "is dbus running (systemctl status dbus)? The unit needs AF_UNIX")
            }
            return BusConnection(bus)
        case .address(let address):
            var rc = sd_bus_new(&bus)
            guard rc >= 0, let bus else { throw DBusCompassError("cannot create a D-Bus connection", code: rc) }
            let connection = BusConnection(bus)
            rc = sd_bus_set_address(bus, address)
            if rc >= 0 { rc = sd_bus_set_bus_client(bus, 1) }
            if rc >= 0 { rc = sd_bus_start(bus) }
            guard rc >= 0 else { throw DBusCompassError("cannot connect to the D-Bus bus at \(address)", code: rc) }
            return connection
        }
    }

    /// Takes `name` without queueing behind another owner.
    func requestName(_ name: String) throws(DBusCompassError) {
        let rc = sd_bus_request_name(bus, name, 0)
        switch rc {
        case 0...: return
        case -EEXIST:
            throw DBusCompassError("another service owns \(name) (iio-sensor-proxy?); stop it (systemctl stop iio-sensor-proxy) or do not enable Lodestone's D-Bus compass: only one of them can be the desktop's compass")
        case -EACCES, -EPERM:
            throw DBusCompassError("the D-Bus policy does not let \(ClaimPolicy.userName(getuid())) own \(name); install tools/dbus/net.hadess.SensorProxy.conf into /etc/dbus-1/system.d/ (and run the service as the user it names)")
        default:
            throw DBusCompassError("cannot own the D-Bus name \(name)", code: rc)
        }
    }

    var uniqueName: String {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return "?" }
        return String(cString: name)
    }

    /// Handles every message waiting; throws when the connection is gone.
    func processAll() throws(DBusCompassError) {
        while true {
            let rc = sd_bus_process(bus, nil)
            if rc == 0 { return }
            if rc < 0 { throw DBusCompassError("lost the D-Bus connection", code: rc) }
        }
    }

    /// The descriptor, its poll events and the monotonic time (s) by which `process` must run again.
    func waitParameters() -> (fd: Int32, events: Int16, deadline: Double?) {
        let fd = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        var usec: UInt64 = 0
        var deadline: Double?
        if sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max { deadline = Double(usec) / 1e6 }
        return (fd, Int16(truncatingIfNeeded: max(events, 0)), deadline)
    }
}
