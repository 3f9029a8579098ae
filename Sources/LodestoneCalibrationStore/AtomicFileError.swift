#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failed atomic write: which file, which step, and the system's reason.
/// The target file is unchanged when this is thrown.
public struct AtomicFileError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    /// The step that failed, e.g. `renaming …/.x.json.tmp-12 over it`.
    public var operation: String
    /// `errno`.
    public var code: Int32

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String {
        let reason = String(cString: strerror(code))
        var advice = ""
        switch code {
        case ENOENT: advice = "; create the directory first"
        case EACCES, EPERM, EROFS: advice = "; check the permissions of the directory, or write elsewhere with -o"
        case ENOSPC, EDQUOT: advice = "; free some disk space"
        default: break
        }
        return "\(path): cannot write (\(operation): \(reason))\(advice); the old file, if any, is unchanged"
    }
}
