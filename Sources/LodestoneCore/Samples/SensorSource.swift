/// Where samples come from: a log reader, an IIO device, a simulation.
///
/// Pull-based and synchronous so the same pipeline runs a replay at full speed
/// or a live sensor at its own pace. A source that fails with a
/// ``SensorSourceError/isTransient`` error may be asked again: it reopens or
/// retries by itself, so a runner can back off and resume.
public protocol SensorSource {
    /// The next sample, or nil at the end of the stream.
    mutating func nextSample() throws -> SensorSample?
}

/// Errors a source reports; `isTransient` tells a runner whether retrying may help.
public protocol SensorSourceError: Error, CustomStringConvertible {
    var isTransient: Bool { get }
}
