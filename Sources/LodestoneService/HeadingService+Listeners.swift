import LodestoneDBus
import LodestoneHTTP

/// The listeners with threads of their own: built after the source opened (so that a
/// bad address or a bus that refuses the name stops the start with the reason), stopped
/// at shutdown.
extension HeadingService {
    func startListenerThreads(_ c: ServiceConfiguration) throws(ServiceError) {
        if let settings = c.http {
            let live = LiveViewPublisher(listeners: listenerOutputs)
            try live.start(settings, log: log)
            liveView = live
            hub.withLock { s in
                s.clients.liveView = live
                s.describeSource(label: s.status.sourceLabel, devices: s.status.devices, identities: s.status.calibrationDevices)
            }
        }
        if c.dbus.enable {
            let log = self.log
            do {
                let compass = try DBusCompassService(settings: c.dbus.compass, provider: listenerOutputs, hasCompass: true,
                                                     log: { log.info($0) })
                listenerOutputs.attach(compass)
                try compass.start()
            } catch {
                throw ServiceError(.inaccessible, error.description)
            }
        }
    }

    /// Stops the D-Bus compass (its claims end with its connection) and the live view.
    func stopListenerThreads() {
        listenerOutputs.detachCompass()
        liveView?.stop()
        hub.withLock { $0.clients.liveView = nil }
    }

    /// For the "ready" line.
    var listenerThreadNames: [String] {
        var names: [String] = []
        if let port = liveView?.server?.port, let http = configuration.http { names.append("http \(http.listen.host):\(port)") }
        if listenerOutputs.compass != nil { names.append("D-Bus \(DBusCompassSettings.busName)") }
        return names
    }
}
