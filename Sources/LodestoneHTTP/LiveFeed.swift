/// What the live view shows: the service's heading session, seen through the objects of
/// the client protocol (PROTOCOL.md, "Live view").
///
/// The producer hands each object to ``LiveViewServer/publish(_:)`` (any thread; it never
/// waits). The server asks the feed for the state a new viewer needs first, and says when
/// the number of viewers changes, so that sensors are read only while someone watches.
/// Both are called on the server's thread and must return promptly.
public protocol LiveFeed: AnyObject, Sendable {
    /// JSON objects a new viewer gets before the stream: the latest HEADING, POSITION,
    /// STEER advice, COVERAGE, and the events still in force.
    func snapshot() -> [String]
    /// The number of open streams changed (0 → 1: start reading; 1 → 0: stop).
    func viewersChanged(_ count: Int)
}
