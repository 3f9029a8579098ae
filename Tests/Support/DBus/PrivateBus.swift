import Foundation


/// A dbus-daemon of the test's own, on a Unix socket in a temporary directory.
///
/// `systemLike` repeats the system bus's defaults (no one owns a name or receives a method
/// call unless a policy allows it) and includes a policy file, as /etc/dbus-1/system.d/
/// would; `open` lets anyone do anything, to show what the service checks on its own.
public final class PrivateBus: @unchecked Sendable {
    public enum Policy {
        case systemLike(including: String)
        case open
    }

    public let scratch = TemporaryDirectory()
    public let address: String
    private let process = Process()

    public init(_ policy: Policy) throws {
        let socket = scratch.path("bus")
        address = "unix:path=\(socket)"
        let config = scratch.file("bus.conf", Self.config(listen: address, policy: policy, directory: scratch.directory))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.directory)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config)", "--nofork", "--nopidfile", "--nosyslog"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: scratch.file("dbus-daemon.log", ""))
        try process.run()
        // The socket file appears at bind(), before listen(): wait until a connection is accepted.
        let deadline = Deadline(10)
        while !Self.accepts(socket), !deadline.hasPassed, process.isRunning { usleep(10_000) }
        guard Self.accepts(socket) else {
            throw BusFailure("dbus-daemon did not start: \(scratch.read("dbus-daemon.log") ?? "")")
        }
    }

    /// SIGKILL: the test process blocks SIGTERM in its threads, and children inherit the mask.
    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    public var log: String { scratch.read("dbus-daemon.log") ?? "" }

    /// The policy file Lodestone installs (tools/dbus/lodestone-compass.conf), with the
    /// service's user set to the user running the test.
    public static var lodestonePolicyForThisUser: String {
        let file = SharedData.packageRoot.appendingPathComponent("tools/dbus/lodestone-compass.conf").path
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let me = String(cString: getpwuid(getuid()).pointee.pw_name)
        return text.replacingOccurrences(of: #"<policy user="lodestone">"#, with: #"<policy user="\#(me)">"#)
    }

    static func accepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// What every bus allows: signals, replies to calls made, receiving.
    static let replies = """
        <allow send_type="signal"/>
        <allow send_requested_reply="true" send_type="method_return"/>
        <allow send_requested_reply="true" send_type="error"/>
        <allow receive_type="method_call"/><allow receive_type="method_return"/>
        <allow receive_type="error"/><allow receive_type="signal"/>
        """

    static func config(listen: String, policy: Policy, directory: String) -> String {
        let rules: String
        switch policy {
        case .open:
            rules = """
                <policy context="default">
                  <allow user="*"/>
                  <allow own="*"/>
                  <allow send_type="method_call"/>
                \(replies)
                </policy>
                """
        case .systemLike(let file):
            let path = directory + "/policy.conf"
            _ = FileManager.default.createFile(atPath: path, contents: Data(file.utf8))
            rules = """
                <policy context="default">
                  <allow user="*"/>
                  <deny own="*"/>
                  <deny send_type="method_call"/>
                \(replies)
                  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                  <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                </policy>
                <include>\(path)</include>
                """
        }
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>\(listen)</listen>
              <auth>EXTERNAL</auth>
            \(rules)
            </busconfig>
            """
    }
}

public struct BusFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Who a client process runs as: the test's own user, or another through setpriv.
public struct ClientUser: Sendable {
    public var uid: UInt32
    public var gid: UInt32
    public var groups: [UInt32] = []

    public init(uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    public static let nobody = ClientUser(uid: 65534, gid: 65534)

    public var wrapper: [String] {
        ["setpriv", "--reuid=\(uid)", "--regid=\(gid)"] + (groups.isEmpty ? ["--clear-groups"] : ["--groups=" + groups.map(String.init).joined(separator: ",")])
    }
}

/// What the D-Bus tests need: root (to run clients as other users), dbus-daemon, busctl,
/// gdbus, setpriv, and Debian's python3 with GLib's GDBus (python3-gi).
public enum DBusTools {
    public static let problem: String? = {
        if getuid() != 0 { return "needs root to run clients as other users" }
        let tools = ["/usr/bin/dbus-daemon", "/usr/bin/busctl", "/usr/bin/gdbus", "/usr/bin/setpriv", "/usr/bin/python3"]
        let missing = tools.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        if !missing.isEmpty { return "missing \(missing.joined(separator: ", ")) (apt-get install dbus systemd libglib2.0-bin util-linux python3-gi)" }
        let check = Command.run(["/usr/bin/python3", "-c", "from gi.repository import Gio"])
        return check.status == 0 ? nil : "python3 cannot import gi.repository.Gio (apt-get install python3-gi)"
    }()
}
