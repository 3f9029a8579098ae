#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// POSIX socket plumbing: listeners, non-blocking accept/connect/send.
///
/// Every descriptor is close-on-exec and non-blocking, so that no single
/// peer can stall the event loop. `send` uses MSG_NOSIGNAL: a client that
/// went away is an error to handle, not a SIGPIPE.
public enum Sockets {
    public static func errorText(_ e: Int32) -> String {
        String(cString: strerror(e))
    }

    public static func prepare(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    public static var streamType: Int32 { Int32(SOCK_STREAM.rawValue) }

    /// Binds a Unix stream socket at `path` with file mode `mode`.
    ///
    /// A stale socket file left by a crashed service is replaced; one that a
    /// running service answers on is not.
    public static func listenUnix(path: String, mode: UInt32, backlog: Int32 = 16) throws(SocketError) -> Int32 {
        var st = stat()
        if lstat(path, &st) == 0 {
            guard st.st_mode & S_IFMT == S_IFSOCK else {
                throw SocketError("\(path) exists and is not a socket; remove it or choose another --socket path")
            }
            let probe = socket(AF_UNIX, streamType, 0)
            var connected = false
            if probe >= 0 {
                connected = withUnixAddress(path) { connect(probe, $0, $1) } == 0
                close(probe)
            }
            guard !connected else {
                throw SocketError("another service is listening on \(path); stop it or choose another --socket path")
            }
            unlink(path)
        }
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let directory = String(path[..<slash])
            var dst = stat()
            if stat(directory, &dst) != 0 {
                guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
                    throw SocketError("cannot create the socket directory \(directory): \(errorText(errno)); create it (systemd: RuntimeDirectory=lodestone) or choose another --socket path")
                }
            }
        }
        let fd = socket(AF_UNIX, streamType, 0)
        guard fd >= 0 else { throw SocketError("cannot create a Unix socket: \(errorText(errno))") }
        prepare(fd)
        // The file is made with its final mode (through the umask): no chmod by path
        // afterwards, which would follow a symbolic link put in its place meanwhile.
        let old = umask(mode_t(0o777 & ~mode))
        let bound = withUnixAddress(path) { bind(fd, $0, $1) }
        let bindErrno = errno
        umask(old)
        guard bound == 0 else {
            close(fd)
            throw SocketError("cannot bind the Unix socket \(path): \(errorText(bindErrno))")
        }
        guard listen(fd, backlog) == 0 else {
            let e = errno
            close(fd)
            unlink(path)
            throw SocketError("cannot set up the Unix socket \(path): \(errorText(e))")
        }
        return fd
    }

    public static func withUnixAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Resolves `endpoint` (numeric port) into addresses.
    public static func resolve(_ endpoint: Endpoint, passive: Bool) -> Result<[(family: Int32, address: [UInt8])], SocketError> {
        var hints = addrinfo()
        hints.ai_socktype = streamType
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard rc == 0, let first = list else {
            return .failure(SocketError("cannot resolve \(endpoint.host): \(String(cString: gai_strerror(rc)))"))
        }
        defer { freeaddrinfo(list) }
        var out: [(Int32, [UInt8])] = []
        var p: UnsafeMutablePointer<addrinfo>? = first
        while let a = p {
            if let sa = a.pointee.ai_addr {
                let bytes = Array(UnsafeRawBufferPointer(start: sa, count: Int(a.pointee.ai_addrlen)))
                if !out.contains(where: { $0.1 == bytes }) { out.append((a.pointee.ai_family, bytes)) }
            }
            p = a.pointee.ai_next
        }
        return .success(out)
    }

    /// TCP listeners on every address `endpoint` resolves to (e.g. 127.0.0.1 and ::1 for localhost).
    /// Port 0 lets the system choose a free port, the same one on every address (``localPort(_:)``).
    public static func listenTCP(_ endpoint: Endpoint, backlog: Int32 = 16) throws(SocketError) -> [Int32] {
        var addresses = try resolve(endpoint, passive: true).get()
        var fds: [Int32] = []
        var lastError = "no address"
        for index in addresses.indices {
            if endpoint.port == 0, let first = fds.first, let port = localPort(first) { setPort(port, in: &addresses[index].address) }
            let (family, address) = addresses[index]
            let fd = socket(family, streamType, 0)
            guard fd >= 0 else { lastError = errorText(errno); continue }
            prepare(fd)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if family == AF_INET6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size)) }
            let ok = address.withUnsafeBytes { raw in
                bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count)) == 0
            } && listen(fd, backlog) == 0
            if ok {
                fds.append(fd)
            } else {
                lastError = errorText(errno)
                close(fd)
            }
        }
        guard !fds.isEmpty else { throw SocketError("cannot listen on \(endpoint): \(lastError)") }
        return fds
    }

    /// The port a bound socket has (the one the system chose for port 0); nil when it has none.
    public static func localPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        return withUnsafeBytes(of: &storage) { port(inAddress: $0) }
    }

    /// The port of an IPv4 or IPv6 socket address (both keep it, big-endian, right after the family).
    static func port(inAddress raw: UnsafeRawBufferPointer) -> UInt16? {
        let family = Int32(raw.load(as: sockaddr.self).sa_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        return UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: MemoryLayout<sa_family_t>.size, as: UInt16.self))
    }

    static func setPort(_ port: UInt16, in address: inout [UInt8]) {
        address.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: port.bigEndian, toByteOffset: MemoryLayout<sa_family_t>.size, as: UInt16.self)
        }
    }

    /// Accepts one connection, or nil when none is waiting.
    public static func accept(_ listener: Int32) -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
        }
        guard fd >= 0 else { return nil }
        prepare(fd)
        return (fd, describe(storage))
    }

    public static func describe(_ storage: sockaddr_storage) -> String {
        var s = storage
        var text = [CChar](repeating: 0, count: 64)
        switch Int32(s.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &s) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var a = sin.pointee.sin_addr
                    inet_ntop(AF_INET, &a, &text, 64)
                    return "tcp \(cText(text)):\(UInt16(bigEndian: sin.pointee.sin_port))"
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &s) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin in
                    var a = sin.pointee.sin6_addr
                    inet_ntop(AF_INET6, &a, &text, 64)
                    return "tcp [\(cText(text))]:\(UInt16(bigEndian: sin.pointee.sin6_port))"
                }
            }
        default:
            return "unix"
        }
    }

    public static func cText(_ chars: [CChar]) -> String {
        String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Starts a non-blocking TCP connection; `connected` is false while it is in progress.
    public static func connectTCP(_ endpoint: Endpoint) -> Result<(fd: Int32, connected: Bool), SocketError> {
        let addresses: [(family: Int32, address: [UInt8])]
        switch resolve(endpoint, passive: false) {
        case .success(let a): addresses = a
        case .failure(let e): return .failure(e)
        }
        var lastError = "no address"
        for (family, address) in addresses {
            let fd = socket(family, streamType, 0)
            guard fd >= 0 else { lastError = errorText(errno); continue }
            prepare(fd)
            let rc = address.withUnsafeBytes { raw in
                connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
            }
            if rc == 0 { return .success((fd, true)) }
            if errno == EINPROGRESS { return .success((fd, false)) }
            lastError = errorText(errno)
            close(fd)
        }
        return .failure(SocketError(lastError))
    }

    /// The outcome of a non-blocking connect once the socket is writable: nil on success.
    public static func connectionError(_ fd: Int32) -> String? {
        var e: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &length) == 0 else { return errorText(errno) }
        return e == 0 ? nil : errorText(e)
    }

    /// Sends without blocking: bytes sent, 0 when the socket is full, -1 when the peer is gone.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return -1
            }
        }
    }

    /// Writes to a non-socket descriptor (a serial device) without blocking; as `send`.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard !bytes.isEmpty else { return 0 }
        while true {
            let n = Glibc.write(fd, bytes.baseAddress, bytes.count)
            if n >= 0 { return n }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return -1
            }
        }
    }
}
