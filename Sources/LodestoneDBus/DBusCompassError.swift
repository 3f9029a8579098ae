#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The D-Bus compass could not be set up or lost its bus, with what to do about it.
public struct DBusCompassError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// `what` failed with the negative errno `code` that sd-bus returned.
    init(_ what: String, code: Int32, advice: String = "") {
        let reason = String(cString: strerror(-code))
        description = "\(what): \(reason)" + (advice.isEmpty ? "" : "; \(advice)")
    }
}
