#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Replaces a file so that a reader, or the next boot after a crash or power
/// cut, finds either the old complete file or the new complete one — never
/// a mix or a truncated file.
///
/// The steps: write a temporary file in the **same directory** (a rename is
/// atomic only within one file system), `fsync` it (the data is on disk
/// before the name points at it), `rename` it over the target (atomic), then
/// `fsync` the directory (the rename itself is on disk). Temporary files are
/// named `.NAME.tmp-PID`; ones left by a process that was killed in the middle
/// are removed by the next write to the same target.
public enum AtomicFile {
    public struct Options: Sendable {
        /// Bytes per `write` call.
        public var chunkSize: Int
        /// Seconds to pause after each chunk. Test-only: it widens the window
        /// in which a test can kill the writer in the middle of writing.
        public var pauseBetweenChunks: Double
        /// Permissions of a new file (before the umask).
        public var permissions: mode_t

        public init(chunkSize: Int = 1 << 16, pauseBetweenChunks: Double = 0, permissions: mode_t = 0o644) {
            self.chunkSize = max(1, chunkSize)
            self.pauseBetweenChunks = pauseBetweenChunks
            self.permissions = permissions
        }
    }

    /// Writes `bytes` to `path` atomically, replacing any existing file.
    public static func write(_ bytes: [UInt8], to path: String, options: Options = Options()) throws(AtomicFileError) {
        let (directory, name) = split(path)
        guard !name.isEmpty else { throw AtomicFileError(path: path, operation: "naming the file", code: EISDIR) }
        removeStaleTemporaries(directory: directory, name: name)
        let temporary = directory + "/" + temporaryPrefix(name) + String(getpid())
        unlink(temporary)  // left by an earlier process with the same PID
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, options.permissions)
        guard fd >= 0 else { throw AtomicFileError(path: path, operation: "creating \(temporary)", code: errno) }
        do throws(AtomicFileError) {
            try writeAll(fd, bytes, options: options, path: path)
            guard fsync(fd) == 0 else { throw AtomicFileError(path: path, operation: "flushing \(temporary) to disk", code: errno) }
            guard close(fd) == 0 else {
                throw AtomicFileError(path: path, operation: "closing \(temporary)", code: errno)
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw AtomicFileError(path: path, operation: "renaming \(temporary) over it", code: code)
        }
        let dfd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { throw AtomicFileError(path: path, operation: "opening directory \(directory) to flush it", code: errno) }
        defer { close(dfd) }
        guard fsync(dfd) == 0 else { throw AtomicFileError(path: path, operation: "flushing directory \(directory) to disk", code: errno) }
    }

    /// `dir/name` → (`dir`, `name`); a bare name is in `.`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    static func temporaryPrefix(_ name: String) -> String { "." + name + ".tmp-" }

    /// Removes `.NAME.tmp-PID` files in `directory` whose process is gone.
    static func removeStaleTemporaries(directory: String, name: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        let prefix = temporaryPrefix(name)
        while let entry = readdir(dir) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix), let pid = pid_t(entryName.dropFirst(prefix.count)) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
                unlink(directory + "/" + entryName)
            }
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8], options: Options, path: String) throws(AtomicFileError) {
        var offset = 0
        var failure: AtomicFileError?
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let n = Glibc.write(fd, buffer.baseAddress! + offset, min(options.chunkSize, buffer.count - offset))
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = AtomicFileError(path: path, operation: "writing", code: errno)
                    return
                }
                offset += n
                if options.pauseBetweenChunks > 0 { pause(options.pauseBetweenChunks) }
            }
        }
        if let failure { throw failure }
    }

    private static func pause(_ seconds: Double) {
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
