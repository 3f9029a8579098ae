import LodestoneCore
import CSystemd
import LodestoneNetwork
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The desktop's compass on D-Bus, as iio-sensor-proxy offers it: bus name
/// `net.hadess.SensorProxy`, object `/net/hadess/SensorProxy/Compass`, interface
/// `net.hadess.SensorProxy.Compass` with `HasCompass` (b), `CompassHeading` (d),
/// `ClaimCompass()` and `ReleaseCompass()`. GeoClue, Qt Sensors and `monitor-sensor`
/// use it unchanged.
///
/// - The compass is read only while claimed: the first claim starts the
///   ``CompassProvider``, the last release stops it. A client that leaves the bus
///   (exits, crashes) releases its claim (sd-bus peer tracking); claiming twice counts once.
/// - Only allowed users and groups may claim or read the heading (``ClaimPolicy``),
///   checked here on every call, whatever the D-Bus policy file says.
/// - Changes reach each claimant as a PropertiesChanged signal addressed to it, filtered
///   and rate-limited (``AnnouncementThrottle``); no one else sees the heading.
/// - `/net/hadess/SensorProxy` answers with `net.hadess.SensorProxy`: no accelerometer,
///   light or proximity sensor, and claims of them that do nothing, so that tools that
///   claim everything (`monitor-sensor`) work.
///
/// sd-bus runs on a thread of its own; ``publish(_:)`` may be called from any thread.
public final class DBusCompassService: @unchecked Sendable {
    public typealias Log = @Sendable (String) -> Void

    struct Shared {
        var latest = CompassReading.unknown
        var hasCompass: Bool
        var hasCompassChanged = false
        var stopping = false
        var claimants = 0
    }

    let settings: DBusCompassSettings
    let provider: CompassProvider
    let policy: ClaimPolicy
    let log: Log
    let shared: Locked<Shared>
    private let wakeup: WakePipe

    // Owned by the D-Bus thread (by the caller before `start` and after `stop`).
    var connection: BusConnection?
    var track: OpaquePointer?
    private var slots: [OpaquePointer] = []
    private var tables: [ObjectTable] = []
    var throttle: AnnouncementThrottle
    var providerRunning = false
    private var announceAt: Double?
    private var reconnectAt: Double?
    private var reconnectDelay = 1.0
    private var thread: BackgroundThread?

    /// Connects, takes the bus name and exports the objects; throws with what to do when
    /// the bus is not there, the name is taken or the policy does not allow it.
    public init(settings: DBusCompassSettings, provider: CompassProvider, hasCompass: Bool,
                log: @escaping Log = { _ in }) throws(DBusCompassError) {
        self.settings = settings
        self.provider = provider
        self.log = log
        policy = ClaimPolicy(users: settings.allowedUsers, groups: settings.allowedGroups)
        shared = Locked(Shared(hasCompass: hasCompass))
        do {
            wakeup = try WakePipe()
        } catch {
            throw DBusCompassError(error.description)
        }
        throttle = AnnouncementThrottle(headingFilter: settings.headingFilter, maximumRate: settings.maximumRate)
        for name in policy.unknownNames { log("D-Bus compass: \(name) does not exist here; it cannot claim the compass") }
        try connect()
    }

    deinit {
        stop()
    }

    /// Starts serving on the D-Bus thread.
    public func start() throws(DBusCompassError) {
        guard thread == nil, !shared.withLock({ $0.stopping }) else { return }
        switch BackgroundThread.start({ [self] in run() }) {
        case .success(let t): thread = t
        case .failure(let e): throw DBusCompassError("cannot start the D-Bus thread: \(e.description)")
        }
    }

    /// Stops the provider if it runs, gives up the bus name and closes the connection.
    public func stop() {
        let first = shared.withLock { s in
            defer { s.stopping = true }
            return !s.stopping
        }
        guard first else { return }
        if let thread {
            wakeup.signal()
            thread.join()
            self.thread = nil
        } else {
            disconnect()
        }
    }

    /// The heading to offer; called for each heading while the provider runs, from any thread.
    public func publish(_ reading: CompassReading) {
        let changed = shared.withLock { s in
            defer { s.latest = reading }
            return s.latest != reading
        }
        if changed { wakeup.signal() }
    }

    /// The sensors appeared or went away.
    public func setHasCompass(_ hasCompass: Bool) {
        shared.withLock { s in
            s.hasCompassChanged = s.hasCompassChanged || s.hasCompass != hasCompass
            s.hasCompass = hasCompass
        }
        wakeup.signal()
    }

    /// Clients holding a claim now.
    public var claimantCount: Int { shared.withLock { $0.claimants } }

    // MARK: The D-Bus thread

    private func run() {
        while !shared.withLock({ $0.stopping }) {
            let now = SystemTime.monotonic()
            if connection == nil, let at = reconnectAt, now >= at { reconnect() }
            if let connection {
                do {
                    try connection.processAll()
                    reconcile() // a claimant may have left the bus
                    announceChanges(now: SystemTime.monotonic())
                    try connection.processAll()
                } catch {
                    lose(error)
                }
            }
            wait()
        }
        disconnect()
    }

    private func wait() {
        var fds = [pollfd(fd: wakeup.readFD, events: Int16(POLLIN), revents: 0)]
        var deadline = [announceAt, reconnectAt].compactMap { $0 }.min()
        if let connection {
            let w = connection.waitParameters()
            fds.append(pollfd(fd: w.fd, events: w.events, revents: 0))
            if let d = w.deadline { deadline = min(deadline ?? d, d) }
        }
        let timeout = deadline.map { Int32(max(0, min(60_000, (($0 - SystemTime.monotonic()) * 1000).rounded(.up)))) } ?? -1
        _ = poll(&fds, nfds_t(fds.count), timeout)
        wakeup.drain()
    }

    /// Sends the latest reading to the claimants when the throttle says so, and HasCompass
    /// changes to everyone.
    private func announceChanges(now: Double) {
        guard let connection else { return }
        let (reading, hasCompassChanged) = shared.withLock { s in
            defer { s.hasCompassChanged = false }
            return (s.latest, s.hasCompassChanged)
        }
        if hasCompassChanged {
            announceHasCompass(on: connection)
        }
        announceAt = nil
        guard providerRunning else { return }
        switch throttle.decide(reading, now: now) {
        case .skip: break
        case .wait(let until): announceAt = until
        case .announce:
            for name in claimants() { send(reading, to: name, on: connection) }
            throttle.didAnnounce(reading, at: now)
        }
    }

    func send(_ reading: CompassReading, to name: String, on connection: BusConnection) {
        let rc = PropertiesChanged.send(on: connection.bus, path: DBusCompassSettings.compassPath,
                                        interface: DBusCompassSettings.compassInterface,
                                        property: "CompassHeading", value: reading.propertyValue, to: name)
        if rc < 0 { log("D-Bus compass: cannot send the heading to \(name): \(String(cString: strerror(-rc)))") }
    }

    private func announceHasCompass(on connection: BusConnection) {
        var names: [UnsafeMutablePointer<CChar>?] = [strdup("HasCompass"), nil]
        defer { free(names[0]) }
        _ = sd_bus_emit_properties_changed_strv(connection.bus, DBusCompassSettings.compassPath,
                                                DBusCompassSettings.compassInterface, &names)
    }

    /// The unique names holding a claim.
    func claimants() -> [String] {
        guard let track else { return [] }
        var names: [String] = []
        var name = sd_bus_track_first(track)
        while let n = name {
            names.append(String(cString: n))
            name = sd_bus_track_next(track)
        }
        return names
    }

    // MARK: Connection

    private func connect() throws(DBusCompassError) {
        let connection = try BusConnection.open(settings.bus)
        let me = Unmanaged.passUnretained(self).toOpaque()
        // No handler: sd-bus queues an empty track with a handler for dispatch, and a
        // synchronous call (the creds of a caller) then spins until it times out. The
        // loop compares the count after each round of messages instead (`reconcile`).
        var newTrack: OpaquePointer?
        var rc = sd_bus_track_new(connection.bus, &newTrack, nil, nil)
        guard rc >= 0, let newTrack else { throw DBusCompassError("cannot track D-Bus clients", code: rc) }
        let compass = ObjectTable(Self.compassMembers)
        let proxy = ObjectTable(Self.proxyMembers)
        var newSlots: [OpaquePointer] = []
        for (path, interface, table) in [(DBusCompassSettings.compassPath, DBusCompassSettings.compassInterface, compass),
                                         (DBusCompassSettings.proxyPath, DBusCompassSettings.proxyInterface, proxy)] {
            var slot: OpaquePointer?
            rc = sd_bus_add_object_vtable(connection.bus, &slot, path, interface, table.entries, me)
            guard rc >= 0, let slot else {
                for s in newSlots { sd_bus_slot_unref(s) }
                sd_bus_track_unref(newTrack)
                throw DBusCompassError("cannot export \(path) on D-Bus", code: rc)
            }
            newSlots.append(slot)
        }
        do {
            try connection.requestName(DBusCompassSettings.busName)
        } catch {
            for s in newSlots { sd_bus_slot_unref(s) }
            sd_bus_track_unref(newTrack)
            throw error
        }
        self.connection = connection
        track = newTrack
        slots = newSlots
        tables = [compass, proxy]
        log("D-Bus compass: \(DBusCompassSettings.busName) \(DBusCompassSettings.compassPath) as \(connection.uniqueName)")
    }

    /// Drops the claims with the connection: the clients are gone with it.
    private func disconnect() {
        for s in slots { sd_bus_slot_unref(s) }
        slots = []
        if let track { sd_bus_track_unref(track) }
        track = nil
        if let connection { _ = sd_bus_release_name(connection.bus, DBusCompassSettings.busName) }
        connection = nil
        tables = []
        reconcile()
    }

    private func lose(_ error: DBusCompassError) {
        log("D-Bus compass: \(error.description); reconnecting in \(Int(reconnectDelay)) s")
        disconnect()
        reconnectAt = SystemTime.monotonic() + reconnectDelay
        reconnectDelay = min(reconnectDelay * 2, 30)
    }

    private func reconnect() {
        do {
            try connect()
            reconnectAt = nil
            reconnectDelay = 1
        } catch {
            lose(error)
        }
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> DBusCompassService {
        Unmanaged<DBusCompassService>.fromOpaque(userdata!).takeUnretainedValue()
    }
}
