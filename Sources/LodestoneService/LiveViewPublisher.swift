import LodestoneCore
import LodestoneHTTP
import LodestoneLocation
import LodestoneLogs
import LodestoneNetwork

/// The service's side of the live view: what goes to the browser, from the same session
/// as every other output.
///
/// - HEADING (with pitch, roll and expectedField) at most 20 times a second;
/// - every EVENT the protocol's watchers get;
/// - POSITION when the position changes;
/// - STEER: the advice of the protocol client that asked for steering last, while it steers;
/// - DEVICES when the source is described.
///
/// A new viewer first gets DEVICES, POSITION, the latest HEADING and STEER and the events
/// still in force (``snapshot()``). Viewers are demand: the sensors are read while one watches.
/// Called on the sample thread and the event loop (under the hub's lock) and on the live
/// view's thread (``snapshot()``, ``viewersChanged(_:)``), which never waits for the hub.
final class LiveViewPublisher: LiveFeed, @unchecked Sendable {
    // @unchecked: `server` is set once before its thread starts; the rest is behind `state`.
    private struct State {
        var heading: String?
        var position: String?
        var positionKey: [Double]?
        var devices: String?
        var steer: String?
        var inForce = EventsInForce()
        var viewers = 0
        var lastHeading = -Double.infinity
    }

    private let state = Locked(State())
    private let listeners: ListenerOutputs
    private(set) var server: LiveViewServer?

    /// The shortest time between two HEADING objects, seconds (20 Hz).
    static let shortestInterval = 0.05

    init(listeners: ListenerOutputs) {
        self.listeners = listeners
    }

    /// Listens (a bad address throws with what to do) and starts the live view's thread.
    func start(_ settings: HTTPServerSettings, log: ServiceLog) throws(ServiceError) {
        do {
            let server = try LiveViewServer(settings: settings, feed: self, log: { log.warning($0) })
            self.server = server
            try server.start()
            log.info("live view on http://\(Endpoint(host: settings.listen.host, port: server.port).description)/")
        } catch {
            throw ServiceError(.inaccessible, error.description)
        }
    }

    func stop() {
        server?.stop()
    }

    // MARK: LiveFeed (the live view's thread)

    func snapshot() -> [String] {
        state.withLock { s in
            let events = JSONLineBuilder(capacity: 4096)
            var out = [s.devices, s.position, s.heading, s.steer].compactMap { $0 }
            for (e, time) in s.inForce.events {
                events.removeAll()
                ProtocolMessages.event(events, e, time: time)
                out.append(events.text)
            }
            return out
        }
    }

    func viewersChanged(_ count: Int) {
        state.withLock { $0.viewers = count }
        listeners.liveViewersChanged(count)
    }

    // MARK: Under the hub's lock

    /// Whether a HEADING is due at `now` (someone watches and the last is old enough); takes the turn.
    func wantsHeading(now: Double) -> Bool {
        state.withLock { s in
            guard s.viewers > 0, now - s.lastHeading >= Self.shortestInterval else { return false }
            s.lastHeading = now
            return true
        }
    }

    func publishHeading(_ line: UnsafeBufferPointer<UInt8>) {
        let text = Self.text(line)
        state.withLock { $0.heading = text }
        server?.publish(text)
    }

    /// Sends a POSITION when `p` differs from the last one sent.
    func positionChanged(_ p: Location?, source: String) {
        let key = p.map { [$0.latitude, $0.longitude, $0.timestamp] }
        let text: String? = state.withLock { s in
            guard key != s.positionKey else { return nil }
            s.positionKey = key
            s.position = p.map {
                LiveViewMessages.position(latitude: $0.latitude, longitude: $0.longitude, source: source, altitude: $0.altitude,
                                          horizontalAccuracy: $0.horizontalAccuracy, speed: $0.speed, course: $0.course)
            }
            return s.position
        }
        if let text { server?.publish(text) }
    }

    /// The latest steering client's STEER; nil when no client steers (the view is told once).
    func publishSteer(_ line: UnsafeBufferPointer<UInt8>?) {
        let text = line.map(Self.text)
        let stopped = state.withLock { s -> Bool in
            defer { s.steer = text }
            return text == nil && s.steer != nil
        }
        if let text {
            server?.publish(text)
        } else if stopped {
            let j = JSONLineBuilder(capacity: 256)
            ProtocolMessages.event(j, ServiceEvent("steerStopped", reason: "noClientSteers", "no client steers any more"), time: Clock.wall())
            server?.publish(j.text)
        }
    }

    /// An EVENT as the watchers got it, and the events in force after it.
    func publishEvent(_ line: UnsafeBufferPointer<UInt8>, inForce: EventsInForce) {
        state.withLock { $0.inForce = inForce }
        server?.publish(Self.text(line))
    }

    func publishDevices(_ line: UnsafeBufferPointer<UInt8>) {
        let text = Self.text(line)
        state.withLock { $0.devices = text }
        server?.publish(text)
    }

    /// A line without its newline.
    private static func text(_ line: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: line.count > 0 && line.last == 0x0A ? UnsafeBufferPointer(rebasing: line.dropLast()) : line, as: UTF8.self)
    }
}
