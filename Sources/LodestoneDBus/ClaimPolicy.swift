#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who may claim the compass and read its heading, checked by the service itself for
/// every call.
///
/// The D-Bus policy file already limits who may send to the compass object, but a policy
/// can be missing, loosened by hand or overridden by another package's file. iio-sensor-proxy
/// 3.6 (January 2025) dropped its GeoClue-only policy for the compass while its compass
/// methods did not run the claim check (polkit `net.hadess.SensorProxy.claim-sensor`)
/// that its other sensors did, so any local user could claim the compass (openSUSE
/// bsc#1236290, fixed in 3.7). Here the service checks the caller's user and groups, as
/// the bus daemon reports them for the sender's connection, on every claim and every read
/// of the heading, whatever the policy file says.
struct ClaimPolicy: Sendable {
    let uids: Set<UInt32>
    let gids: Set<UInt32>
    /// Names in the settings that this system does not know (e.g. no GeoClue installed).
    let unknownNames: [String]

    init(uids: Set<UInt32>, gids: Set<UInt32>, unknownNames: [String] = []) {
        self.uids = uids
        self.gids = gids
        self.unknownNames = unknownNames
    }

    /// Resolves user and group names through NSS; the service's own user is always allowed.
    init(users: [String], groups: [String], serviceUID: UInt32 = getuid()) {
        var uids: Set<UInt32> = [serviceUID]
        var gids: Set<UInt32> = []
        var unknown: [String] = []
        for name in users {
            if let pw = getpwnam(name) { uids.insert(pw.pointee.pw_uid) } else { unknown.append("user \(name)") }
        }
        for name in groups {
            if let gr = getgrnam(name) { gids.insert(gr.pointee.gr_gid) } else { unknown.append("group \(name)") }
        }
        self.init(uids: uids, gids: gids, unknownNames: unknown)
    }

    func allows(uid: UInt32, groups: [UInt32]) -> Bool {
        uids.contains(uid) || groups.contains(where: gids.contains)
    }

    /// The groups of `uid`'s user from NSS (primary and supplementary), for a bus that
    /// does not report a connection's groups.
    static func groups(ofUser uid: UInt32) -> [UInt32] {
        guard let pw = getpwuid(uid) else { return [] }
        let primary = pw.pointee.pw_gid
        var count: Int32 = 64
        var list = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(pw.pointee.pw_name, primary, &list, &count) < 0 {
            list = [gid_t](repeating: 0, count: Int(max(count, 1)))
            guard getgrouplist(pw.pointee.pw_name, primary, &list, &count) >= 0 else { return [primary] }
        }
        return Array(list.prefix(Int(count)))
    }

    static func userName(_ uid: UInt32) -> String {
        guard let pw = getpwuid(uid), let name = pw.pointee.pw_name else { return "uid \(uid)" }
        return "\(String(cString: name)) (uid \(uid))"
    }
}
