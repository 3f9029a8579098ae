import Foundation


/// `tools/dbus/watch-compass.py --commands`: a GDBus client like GeoClue's, kept connected,
/// that claims, releases and reads on command and reports each signal as a JSON line.
public final class CompassWatcher: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let lock = NSLock()
    private var lines: [[String: Any]] = []
    private var consumed = 0
    private var partial = Data()

    public static let script = SharedData.packageRoot.appendingPathComponent("tools/dbus/watch-compass.py").path

    public init(address: String, listenOnly: Bool = false, as user: ClientUser? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = (user?.wrapper ?? []) + ["/usr/bin/python3", Self.script, "--address", address]
            + (listenOnly ? ["--listen-only"] : ["--commands"])
        process.standardInput = input
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in self?.take(handle.availableData) }
        try process.run()
        guard next(timeout: 10, where: { $0["event"] as? String == "connected" }) != nil else {
            throw BusFailure("watch-compass.py did not connect to \(address)")
        }
    }

    deinit { kill() }

    public var uniqueName: String? {
        lock.withLock { lines.first { $0["event"] as? String == "connected" }?["unique"] as? String }
    }

    /// A watcher that has exited is seen by `next` timing out, not by a SIGPIPE here.
    public func send(_ command: String) {
        BrokenPipes.ignored
        try? input.fileHandleForWriting.write(contentsOf: Data((command + "\n").utf8))
    }

    /// The next line, after those already returned, that matches; nil after `timeout` seconds.
    public func next(timeout: Double = 5, where match: ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        let deadline = Deadline(timeout)
        repeat {
            let found: [String: Any]? = lock.withLock {
                while consumed < lines.count {
                    let line = lines[consumed]
                    consumed += 1
                    if match(line) { return line }
                }
                return nil
            }
            if let found { return found }
            usleep(5_000)
        } while !deadline.hasPassed
        return nil
    }

    /// Every line received so far.
    public var all: [[String: Any]] { lock.withLock { lines } }

    /// Sends `command` and waits for its answer (the method's name, or an error).
    @discardableResult
    public func perform(_ command: String, method: String) -> [String: Any]? {
        send(command)
        return next(timeout: 10) { ($0["event"] as? String) == method || ($0["event"] as? String) == "error" }
    }

    public func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private func take(_ data: Data) {
        lock.withLock {
            partial.append(data)
            while let newline = partial.firstIndex(of: 0x0A) {
                let line = partial[partial.startIndex..<newline]
                partial.removeSubrange(partial.startIndex...newline)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { lines.append(object) }
            }
        }
    }
}
