import CSystemd
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The user and groups of a message's sender, as the bus daemon vouches for them, never
/// as the client claims.
///
/// The bus's `GetConnectionCredentials` gives `UnixUserID` and `UnixGroupIDs`: the
/// user and groups of the peer when it connected (SO_PEERCRED, SO_PEERGROUPS), the same
/// facts dbus-daemon's own `user=` and `group=` policy rules use. (sd-bus 252's creds
/// query maps the user but not the groups, so the reply is read here.)
struct SenderIdentity: Sendable {
    var uid: UInt32
    var groups: [UInt32]

    /// Nil when the bus cannot say who sent `message` (then nothing is allowed).
    static func of(_ message: OpaquePointer?) -> SenderIdentity? {
        guard let message, let bus = sd_bus_message_get_bus(message), let sender = sd_bus_message_get_sender(message) else {
            return nil
        }
        var call: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &call, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                             "org.freedesktop.DBus", "GetConnectionCredentials") >= 0, let call else { return nil }
        defer { sd_bus_message_unref(call) }
        guard sd_bus_message_append_basic(call, CChar(UInt8(ascii: "s")), sender) >= 0 else { return nil }
        var reply: OpaquePointer?
        guard sd_bus_call(bus, call, 5_000_000, nil, &reply) >= 0, let reply else { return nil }
        defer { sd_bus_message_unref(reply) }
        return parse(reply)
    }

    /// Reads `a{sv}`: `UnixUserID` (u) and `UnixGroupIDs` (au); other keys are skipped.
    private static func parse(_ reply: OpaquePointer) -> SenderIdentity? {
        var uid: UInt32?
        var groups: [UInt32]?
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "{sv}") > 0 else { return nil }
        while sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "e")), "sv") > 0 {
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &key) > 0, let key else { return nil }
            switch String(cString: key) {
            case "UnixUserID":
                guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "u") > 0 else { return nil }
                var value: UInt32 = 0
                guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &value) > 0 else { return nil }
                uid = value
                _ = sd_bus_message_exit_container(reply)
            case "UnixGroupIDs":
                guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), "au") > 0,
                      sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "u") > 0 else { return nil }
                var list: [UInt32] = []
                var value: UInt32 = 0
                while sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &value) > 0 { list.append(value) }
                groups = list
                _ = sd_bus_message_exit_container(reply)
                _ = sd_bus_message_exit_container(reply)
            default:
                guard sd_bus_message_skip(reply, "v") >= 0 else { return nil }
            }
            _ = sd_bus_message_exit_container(reply)
        }
        guard let uid else { return nil }
        // A bus too old to report groups: the user's groups from NSS.
        return SenderIdentity(uid: uid, groups: groups ?? ClaimPolicy.groups(ofUser: uid))
    }

    static func sender(of message: OpaquePointer?) -> String {
        guard let s = sd_bus_message_get_sender(message) else { return "?" }
        return String(cString: s)
    }
}
