import CSystemd

/// `org.freedesktop.DBus.Properties.PropertiesChanged` for one double property, sent to
/// one client only.
///
/// iio-sensor-proxy broadcasts its compass signals, so any local user who adds a match
/// rule sees the heading of whoever claimed it. Here the signal goes to each claimant by
/// name: GDBus and Qt proxies accept a signal addressed to them like a broadcast one.
enum PropertiesChanged {
    /// Returns a negative errno when the message could not be built or queued.
    @discardableResult
    static func send(on bus: OpaquePointer, path: String, interface: String, property: String, value: Double,
                     to destination: String) -> Int32 {
        var message: OpaquePointer?
        var rc = sd_bus_message_new_signal(bus, &message, path, "org.freedesktop.DBus.Properties", "PropertiesChanged")
        guard rc >= 0, let message else { return rc }
        defer { sd_bus_message_unref(message) }
        var number = value
        rc = appendString(message, interface)
        if rc >= 0 { rc = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "{sv}") }
        if rc >= 0 { rc = sd_bus_message_open_container(message, CChar(UInt8(ascii: "e")), "sv") }
        if rc >= 0 { rc = appendString(message, property) }
        if rc >= 0 { rc = sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), "d") }
        if rc >= 0 { rc = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &number) }
        for _ in 0..<3 where rc >= 0 { rc = sd_bus_message_close_container(message) }
        if rc >= 0 { rc = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s") }
        if rc >= 0 { rc = sd_bus_message_close_container(message) }
        if rc >= 0 { rc = sd_bus_message_set_destination(message, destination) }
        if rc >= 0 { rc = sd_bus_send(bus, message, nil) }
        return rc
    }

    static func appendString(_ message: OpaquePointer, _ s: String) -> Int32 {
        s.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
    }
}
