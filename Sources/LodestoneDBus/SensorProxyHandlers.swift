import CSystemd
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The members of the two objects and what each call does.
extension DBusCompassService {
    static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"

    static let compassMembers: [ObjectTable.Member] = [
        .property("HasCompass", signature: "b", { _, _, _, property, reply, userdata, error in
            from(userdata).compassProperty(property, reply: reply, error: error)
        }),
        .property("CompassHeading", signature: "d", { _, _, _, property, reply, userdata, error in
            from(userdata).compassProperty(property, reply: reply, error: error)
        }),
        .method("ClaimCompass", { message, userdata, error in from(userdata).claim(message, error: error) }),
        .method("ReleaseCompass", { message, userdata, error in from(userdata).release(message, error: error) }),
    ]

    /// iio-sensor-proxy's main interface with nothing behind it: Lodestone offers a compass only.
    static let proxyMembers: [ObjectTable.Member] = [
        .property("HasAccelerometer", signature: "b", constant), .property("AccelerometerOrientation", signature: "s", constant),
        .property("AccelerometerTilt", signature: "s", constant), .property("HasAmbientLight", signature: "b", constant),
        .property("LightLevelUnit", signature: "s", constant), .property("LightLevel", signature: "d", constant),
        .property("HasProximity", signature: "b", constant), .property("ProximityNear", signature: "b", constant),
    ] + ["Accelerometer", "Light", "Proximity"].flatMap { sensor in
        [ObjectTable.Member.method("Claim" + sensor, acknowledge), .method("Release" + sensor, acknowledge)]
    }

    // MARK: Compass

    func claim(_ message: OpaquePointer?, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        guard let identity = authorize(message, to: "claim the compass", error: error) else { return -EACCES }
        guard let track else { return -ENOTCONN }
        let sender = SenderIdentity.sender(of: message)
        if sd_bus_track_contains(track, sender) == nil {
            let rc = sd_bus_track_add_sender(track, message)
            guard rc >= 0 else { return rc }
            log("D-Bus compass: claimed by \(sender) (\(ClaimPolicy.userName(identity.uid)))")
            let wasRunning = providerRunning
            reconcile()
            // A new claimant of a running compass gets the current heading at once.
            if wasRunning, let connection, let current = throttle.announced { send(current, to: sender, on: connection) }
        }
        return Self.reply(to: message)
    }

    func release(_ message: OpaquePointer?, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let sender = SenderIdentity.sender(of: message)
        if let track, sd_bus_track_contains(track, sender) != nil {
            _ = sd_bus_track_remove_sender(track, message)
            log("D-Bus compass: released by \(sender)")
            reconcile()
        }
        return Self.reply(to: message)
    }

    func compassProperty(_ property: UnsafePointer<CChar>?, reply: OpaquePointer?,
                         error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let name = property.map { String(cString: $0) } ?? ""
        let (hasCompass, latest) = shared.withLock { ($0.hasCompass, $0.latest) }
        if name == "HasCompass" {
            var value: Int32 = hasCompass ? 1 : 0
            return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "b")), &value)
        }
        // A property read carries no message of its own: the call being served is Get or GetAll.
        let call = connection.map { sd_bus_get_current_message($0.bus) } ?? nil
        guard authorize(call, to: "read the compass heading", error: error) != nil else { return -EACCES }
        var value = providerRunning ? latest.propertyValue : -1
        return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "d")), &value)
    }

    /// Starts the provider when the first claim arrives, stops it when the last one is gone.
    func reconcile() {
        let count = track.map { Int(sd_bus_track_count($0)) } ?? 0
        shared.withLock { $0.claimants = count }
        if count > 0, !providerRunning {
            shared.withLock { $0.latest = .unknown }
            throttle.reset()
            providerRunning = true
            provider.startCompass()
            log("D-Bus compass: reading the sensors (\(count) claim\(count == 1 ? "" : "s"))")
        } else if count == 0, providerRunning {
            providerRunning = false
            provider.stopCompass()
            shared.withLock { $0.latest = .unknown }
            log("D-Bus compass: no claims left; sensors released")
        }
    }

    /// The caller's identity when it may do `what`; otherwise sets an AccessDenied error naming it.
    private func authorize(_ message: OpaquePointer?, to what: String,
                           error: UnsafeMutablePointer<sd_bus_error>?) -> SenderIdentity? {
        let sender = SenderIdentity.sender(of: message)
        guard let identity = SenderIdentity.of(message) else {
            sd_bus_error_set(error, Self.accessDenied, "Lodestone cannot tell who \(sender) is, so it may not \(what)")
            return nil
        }
        guard policy.allows(uid: identity.uid, groups: identity.groups) else {
            log("D-Bus compass: refused \(sender) (\(ClaimPolicy.userName(identity.uid))) to \(what)")
            sd_bus_error_set(error, Self.accessDenied,
                             "\(ClaimPolicy.userName(identity.uid)) may not \(what): allowed are the users and groups in the dbus.allowedUsers and dbus.allowedGroups settings")
            return nil
        }
        return identity
    }

    /// An empty method return; 1 tells sd-bus the call was answered.
    static func reply(to message: OpaquePointer?) -> Int32 {
        var reply: OpaquePointer?
        var rc = sd_bus_message_new_method_return(message, &reply)
        guard rc >= 0, let reply else { return rc }
        rc = sd_bus_send(nil, reply, nil)
        sd_bus_message_unref(reply)
        return rc < 0 ? rc : 1
    }

    // MARK: The main object

    private static let acknowledge: sd_bus_message_handler_t = { message, _, _ in reply(to: message) }

    private static let constant: sd_bus_property_get_t = { _, _, _, property, reply, _, _ in
        switch property.map({ String(cString: $0) }) ?? "" {
        case "AccelerometerOrientation", "AccelerometerTilt":
            return PropertiesChanged.appendString(reply!, "undefined")
        case "LightLevelUnit":
            return PropertiesChanged.appendString(reply!, "lux")
        case "LightLevel":
            var zero = 0.0
            return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "d")), &zero)
        default:
            var no: Int32 = 0
            return sd_bus_message_append_basic(reply, CChar(UInt8(ascii: "b")), &no)
        }
    }
}
