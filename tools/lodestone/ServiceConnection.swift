#if canImport(Glibc)
import Glibc
#endif
import LodestoneCommandLine
import LodestoneLogs
import LodestoneNetwork
import LodestoneService

/// A short conversation with a running `lodestone serve` over its Unix socket, for the
/// commands that act on the service (`track`, `regions`): send a command, read the
/// answer of the class expected; an ERROR from the service is a failure with its message.
final class ServiceConnection {
    static let defaultSocket = ServiceConfiguration.defaultSocketPath
    /// The socket option of the commands that talk to the service.
    static let socketOption = CommandLineOption.value("socket", "PATH", "The service's Unix socket (default \(defaultSocket)).")

    let path: String
    private let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        self.path = path
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard s >= 0 else { throw CommandFailure(.failure, "cannot make a socket: \(Sockets.errorText(errno))") }
        let rc = Sockets.withUnixAddress(path) { connect(s, $0, $1) }
        guard rc == 0 else {
            let reason = Sockets.errorText(errno)
            close(s)
            throw CommandFailure(.inaccessible, "cannot reach the service at \(path): \(reason); is 'lodestone serve' running (--socket PATH)?")
        }
        fd = s
    }

    deinit { close(fd) }

    /// Sends `command` and returns the first object of class `answer`; throws the service's ERROR.
    func request(_ command: String, answer: String, timeout: Double = 5) throws -> [String: JSONValue] {
        let bytes = Array((command + "\n").utf8)
        guard bytes.withUnsafeBytes({ Sockets.send(fd, $0) }) == bytes.count else {
            throw CommandFailure(.failure, "the service at \(path) closed the connection")
        }
        let deadline = BenchCommand.now() + timeout
        while BenchCommand.now() < deadline {
            guard let line = try readLine(until: deadline) else { break }
            guard let o = (try? JSONParser.parse(line))?.objectValue, let cls = o["class"]?.stringValue else { continue }
            if cls == "ERROR" { throw CommandFailure(.badInput, "the service says: \(o["message"]?.stringValue ?? "")") }
            if cls == answer { return o }
        }
        throw CommandFailure(.failure, "no \(answer) answer from the service at \(path) within \(Int(timeout)) s")
    }

    private func readLine(until deadline: Double) throws -> String? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let nl = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeSubrange(0...nl)
                return line
            }
            let left = deadline - BenchCommand.now()
            guard left > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw CommandFailure(.failure, "the service at \(path) closed the connection") }
            pending += chunk[0..<n]
        }
    }
}
