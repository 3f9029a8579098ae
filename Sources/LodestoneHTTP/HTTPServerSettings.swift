import LodestoneNetwork

/// The live view's HTTP listener and the limits that keep one visitor from hurting the others.
public struct HTTPServerSettings: Hashable, Sendable {
    /// Loopback unless a host is given: anyone who reaches a non-loopback listener sees
    /// the headings and the position. Port 0 picks a free port; ``LiveViewServer/port`` tells which.
    public var listen = Endpoint(host: "127.0.0.1", port: 8080)
    /// Open connections at most (page loads and streams together); one more gets 503.
    public var maxClients = 16
    /// A request head larger than this gets 431 and is closed.
    public var maxRequestBytes = 8192
    /// Seconds to send a whole request head (slow senders are closed with 408).
    public var requestTimeout = 5.0
    /// Events kept for viewers that have not read them yet; a viewer further behind
    /// skips the oldest (and is told how many with an EVENT `linesDropped`).
    public var bufferedEvents = 512
    /// Seconds between keep-alive comments on an idle stream.
    public var heartbeatInterval = 15.0
    /// A viewer whose socket took no byte for this long is closed (a dead peer holds no slot).
    public var stallTimeout = 60.0
    /// Host header values accepted besides the listen address and, on loopback,
    /// `localhost`: a page on another site cannot reach a loopback server by pointing
    /// its own name at 127.0.0.1 (DNS rebinding). Empty on a non-loopback host: any.
    public var allowedHosts: [String] = []

    public init() {}
}
