import CLibIIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Owns one libiio context. Not thread-safe: each capture thread gets its own clone.
final class IIOContext {
    let pointer: OpaquePointer
    let uri: String

    init(uri: String) throws(IIOSourceError) {
        errno = 0
        guard let p = iio_create_context_from_uri(uri) else {
            let e = errno
            throw .contextUnavailable(uri: uri, errno: e == 0 ? ENODEV : e)
        }
        pointer = p
        self.uri = uri
    }

    private init(pointer: OpaquePointer, uri: String) {
        self.pointer = pointer
        self.uri = uri
    }

    /// A second, independent context on the same URI (a new connection for `ip:`).
    func clone() throws(IIOSourceError) -> IIOContext {
        errno = 0
        guard let p = iio_context_clone(pointer) else {
            let e = errno
            throw .contextUnavailable(uri: uri, errno: e == 0 ? ENODEV : e)
        }
        return IIOContext(pointer: p, uri: uri)
    }

    deinit { iio_context_destroy(pointer) }

    /// Timeout of buffer refills in milliseconds (0 = none).
    func setTimeout(milliseconds: Int) {
        _ = iio_context_set_timeout(pointer, UInt32(clamping: milliseconds))
    }

    /// All devices, triggers included, in libiio's order.
    func devices() -> [IIODevice] {
        let n = iio_context_get_devices_count(pointer)
        return (0..<n).compactMap { i in iio_context_get_device(pointer, i).map { IIODevice($0) } }
    }
}

/// One IIO device of a context, with its attributes indexed by sysfs file name.
///
/// libiio regroups attributes (`in_magn_scale` becomes channel attribute `scale`,
/// `in_mount_matrix` even becomes a channel `mount`), so lookups go by the file
/// name the kernel ABI documents, which libiio reports for every attribute.
struct IIODevice {
    enum Attribute {
        case device(String)
        case channel(OpaquePointer, String)
    }

    let pointer: OpaquePointer
    let id: String
    let name: String?
    let label: String?
    let isTrigger: Bool
    let files: [String: Attribute]

    init(_ p: OpaquePointer) {
        pointer = p
        id = String(cString: iio_device_get_id(p))
        name = iio_device_get_name(p).map { String(cString: $0) }
        label = iio_device_get_label(p).map { String(cString: $0) }
        isTrigger = iio_device_is_trigger(p)
        var files: [String: Attribute] = [:]
        for i in 0..<iio_device_get_attrs_count(p) {
            if let a = iio_device_get_attr(p, i) {
                let s = String(cString: a)
                files[s] = .device(s)
            }
        }
        for c in 0..<iio_device_get_channels_count(p) {
            guard let ch = iio_device_get_channel(p, c), !iio_channel_is_output(ch) else { continue }
            for k in 0..<iio_channel_get_attrs_count(ch) {
                guard let a = iio_channel_get_attr(ch, k) else { continue }
                let short = String(cString: a)
                let file = iio_channel_attr_get_filename(ch, a).map { String(cString: $0) } ?? short
                files[file] = .channel(ch, short)
            }
        }
        self.files = files
    }

    /// `name (id)` for messages.
    var displayName: String { name.map { "\($0) (\(id))" } ?? id }

    /// The input channel with libiio id `id` (e.g. `magn_x`).
    func channel(_ id: String) -> OpaquePointer? {
        iio_device_find_channel(pointer, id, false)
    }

    /// Input channel ids, in libiio's order.
    var channelIDs: [String] {
        (0..<iio_device_get_channels_count(pointer)).compactMap { c in
            guard let ch = iio_device_get_channel(pointer, c), !iio_channel_is_output(ch) else { return nil }
            return String(cString: iio_channel_get_id(ch))
        }
    }

    func has(_ file: String) -> Bool { files[file] != nil }

    /// The first of `candidates` the device has.
    func first(of candidates: [String]) -> String? { candidates.first { files[$0] != nil } }

    /// Reads an attribute by file name; `.failure(errno)` on error.
    func read(_ file: String) -> Result<String, IIOErrno> {
        guard let attr = files[file] else { return .failure(IIOErrno(ENOENT)) }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 4096) { buf -> Result<String, IIOErrno> in
            let n = readInto(attr, buf.baseAddress!, buf.count)
            if n < 0 { return .failure(IIOErrno(Int32(clamping: -n))) }
            buf[min(n, buf.count - 1)] = 0
            return .success(String(cString: buf.baseAddress!))
        }
    }

    /// Reads an integer attribute without allocating (the polled hot path).
    func readInteger(_ attr: Attribute) -> Result<Int64, IIOErrno> {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buf -> Result<Int64, IIOErrno> in
            let n = readInto(attr, buf.baseAddress!, buf.count)
            if n < 0 { return .failure(IIOErrno(Int32(clamping: -n))) }
            var len = min(n, buf.count)
            while len > 0, buf[len - 1] == 0 { len -= 1 }
            guard let v = IIOText.integer(bytes: UnsafePointer(buf.baseAddress!), count: len) else { return .failure(IIOErrno(EINVAL)) }
            return .success(v)
        }
    }

    private func readInto(_ attr: Attribute, _ p: UnsafeMutablePointer<CChar>, _ len: Int) -> Int {
        switch attr {
        case .device(let name): return iio_device_attr_read(pointer, name, p, len)
        case .channel(let ch, let name): return iio_channel_attr_read(ch, name, p, len)
        }
    }

    /// Writes an attribute by file name; returns 0 or an errno.
    @discardableResult
    func write(_ file: String, _ value: String) -> Int32 {
        guard let attr = files[file] else { return ENOENT }
        let n: Int
        switch attr {
        case .device(let name): n = iio_device_attr_write(pointer, name, value)
        case .channel(let ch, let name): n = iio_channel_attr_write(ch, name, value)
        }
        return n < 0 ? Int32(clamping: -n) : 0
    }

    /// The device's current trigger: `.none` when the device has no trigger
    /// directory (a hardware FIFO), `.unset` when one is needed but empty.
    enum TriggerState { case notNeeded, unset, set(String), error(Int32) }

    func triggerState() -> TriggerState {
        var trig: OpaquePointer? = nil
        let r = iio_device_get_trigger(pointer, &trig)
        if r == -ENOENT { return .notNeeded }
        if r < 0 { return .error(-r) }
        guard let t = trig else { return .unset }
        return .set(iio_device_get_name(t).map { String(cString: $0) } ?? String(cString: iio_device_get_id(t)))
    }
}

/// An errno value as a typed failure.
struct IIOErrno: Error, Equatable {
    var code: Int32
    init(_ code: Int32) { self.code = code }
}
