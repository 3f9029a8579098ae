#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The live view's sockets: non-blocking and close-on-exec, sends without SIGPIPE.
///
/// A copy in small of the service's socket plumbing (LodestoneService `Sockets`); when
/// that moves into a shared module, this file goes.
enum HTTPListener {
    static func prepare(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    /// Listens on the first address `host` resolves to; returns the descriptor and the port.
    static func listen(host: String, port: UInt16) throws(HTTPServerError) -> (fd: Int32, port: UInt16) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let info = list?.pointee, let address = info.ai_addr else {
            throw HTTPServerError("cannot resolve \(host): \(String(cString: gai_strerror(rc))); give an address such as 127.0.0.1:8080")
        }
        defer { freeaddrinfo(list) }
        let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw HTTPServerError("cannot create a socket: \(String(cString: strerror(errno)))") }
        prepare(fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, address, info.ai_addrlen) == 0, Glibc.listen(fd, 32) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw HTTPServerError("cannot listen on \(host):\(port) for the live view: \(reason); choose another --http address")
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let boundPort = withUnsafePointer(to: &bound) { p -> UInt16 in
            p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (fd, boundPort)
    }

    /// Accepts one connection, or nil when none waits (or the process is out of descriptors).
    static func accept(_ listener: Int32) -> Int32? {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        prepare(fd)
        return fd
    }

    /// Bytes sent, 0 when the socket is full, -1 when the peer is gone.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return -1
            }
        }
    }
}
