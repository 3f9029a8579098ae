import Foundation
import LodestoneTestSupport

/// A TCP client that speaks bytes, to test the server as browsers and misbehaving peers do.
final class RawHTTPClient: @unchecked Sendable {
    let fd: Int32
    private(set) var received: [UInt8] = []

    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else {
            close(fd)
            throw ClientFailure("cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) {
        _ = text.withCString { Foundation.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// Reads until `needle` arrives, the peer closes, or `timeout` passes (searching only the
    /// new bytes: streams of megabytes stay cheap to read).
    @discardableResult
    func read(timeout: Double = 5, until needle: String? = nil) -> String {
        let deadline = Deadline(timeout)
        let pattern = needle.map { Array($0.utf8) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var searchedTo = 0
        while !deadline.hasPassed {
            if let pattern, received.count >= pattern.count {
                let from = max(0, searchedTo - pattern.count)
                if Self.find(pattern, in: received, from: from) { break }
                searchedTo = received.count
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return text
    }

    static func find(_ pattern: [UInt8], in bytes: [UInt8], from: Int) -> Bool {
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var i = from
        while i + pattern.count <= bytes.count {
            if bytes[i] == first, bytes[i..<(i + pattern.count)].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }

    var text: String { String(decoding: received, as: UTF8.self) }

    /// The JSON objects of the `data:` lines received.
    var events: [[String: Any]] {
        text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any]
        }
    }

    /// Whether the server closed the connection (a read returns end of stream).
    func isClosed(timeout: Double = 3) -> Bool {
        let deadline = Deadline(timeout)
        var byte: UInt8 = 0
        while !deadline.hasPassed {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = recv(fd, &byte, 1, 0)
            if n == 0 { return true }
            if n > 0 { received.append(byte) }
        }
        return false
    }
}

struct ClientFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
