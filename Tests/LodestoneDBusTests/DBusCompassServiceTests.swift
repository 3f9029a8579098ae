import Foundation
import LodestoneDBus
import LodestoneTestSupport
import Testing

/// The D-Bus compass on a private dbus-daemon, with the clients desktops use: busctl and
/// gdbus for single calls, and GDBus (GeoClue's library, through PyGObject) for a client
/// that stays connected. Runs as root in CI (fails there without the tools); skips elsewhere.
@Suite(.serialized, .enabled(if: DBusTools.problem == nil || SharedData.isInCI, "skipped: \(DBusTools.problem ?? "")"))
struct DBusCompassServiceTests {
    static let name = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy/Compass"
    static let interface = "net.hadess.SensorProxy.Compass"

    static var policyForThisUser: String { PrivateBus.lodestonePolicyForThisUser }

    func start(on bus: PrivateBus, _ adjust: (inout DBusCompassSettings) -> Void = { _ in })
        throws -> (DBusCompassService, ScriptedCompass) {
        try #require(DBusTools.problem == nil, "\(DBusTools.problem ?? "")")
        var settings = DBusCompassSettings()
        settings.bus = .address(bus.address)
        adjust(&settings)
        let provider = ScriptedCompass()
        let service = try DBusCompassService(settings: settings, provider: provider, hasCompass: true)
        provider.attach(service)
        try service.start()
        return (service, provider)
    }

    func busctl(_ bus: PrivateBus, _ arguments: [String], as user: ClientUser? = nil) -> Command {
        Command.run(["busctl", "--address=\(bus.address)"] + arguments, as: user)
    }

    /// gdbus prints an error's whole message (busctl shortens AccessDenied to "Access denied").
    func gdbusCall(_ bus: PrivateBus, _ method: String, _ arguments: [String] = [], as user: ClientUser? = nil) -> Command {
        Command.run(["gdbus", "call", "--address", bus.address, "--dest", Self.name, "--object-path", Self.path,
                     "--method", method] + arguments, as: user)
    }


    @Test func exportsWhatIioSensorProxyExports() throws {
        let bus = try PrivateBus(.systemLike(including: Self.policyForThisUser))
        let (service, provider) = try start(on: bus)
        defer { service.stop() }

        let introspection = Command.run(["gdbus", "introspect", "--address", bus.address, "--dest", Self.name,
                                         "--object-path", Self.path])
        #expect(introspection.status == 0, "\(introspection.stderr)")
        for line in ["interface net.hadess.SensorProxy.Compass {", "ClaimCompass();", "ReleaseCompass();",
                     "readonly b HasCompass = true;", "readonly d CompassHeading = -1.0;"] {
            #expect(introspection.stdout.contains(line), "missing \(line) in \(introspection.stdout)")
        }
        #expect(busctl(bus, ["get-property", Self.name, Self.path, Self.interface, "HasCompass"]).stdout == "b true\n")
        // Unclaimed, the heading is unknown and the sensors are not read.
        #expect(busctl(bus, ["get-property", Self.name, Self.path, Self.interface, "CompassHeading"]).stdout == "d -1\n")
        #expect(provider.starts == 0)

        // The main object: no other sensors, and claims of them that anyone may make.
        let main = busctl(bus, ["get-property", Self.name, "/net/hadess/SensorProxy", "net.hadess.SensorProxy",
                                "HasAccelerometer", "HasAmbientLight", "HasProximity", "AccelerometerOrientation"], as: .nobody)
        #expect(main.stdout == "b false\nb false\nb false\ns \"undefined\"\n", "\(main.stdout) \(main.stderr)")
        #expect(busctl(bus, ["call", Self.name, "/net/hadess/SensorProxy", "net.hadess.SensorProxy", "ClaimAccelerometer"],
                       as: .nobody).status == 0)
        #expect(provider.starts == 0)
    }

    @Test func claimReadsChangingHeadingsAndReleaseStopsTheSensors() throws {
        let bus = try PrivateBus(.systemLike(including: Self.policyForThisUser))
        let (service, provider) = try start(on: bus)
        defer { service.stop() }
        let client = try CompassWatcher(address: bus.address)

        #expect(client.perform("claim", method: "ClaimCompass")?["event"] as? String == "ClaimCompass")
        #expect(waitUntil { provider.running }, "the first claim starts the sensors")
        var headings: [Double] = []
        while headings.count < 12, let line = client.next(timeout: 5, where: { $0["CompassHeading"] != nil }) {
            headings.append(line["CompassHeading"] as? Double ?? .nan)
        }
        #expect(headings.count == 12, "\(client.all)")
        #expect(headings.allSatisfy(ScriptedCompass.isScripted), "true headings of the script: \(headings)")
        #expect(Set(headings).count >= 6, "the heading changes: \(headings)")
        #expect(service.claimantCount == 1)

        // A read while claimed gives a current heading too.
        client.send("get CompassHeading")
        let value = try #require(client.next(where: { $0["event"] as? String == "value" }))
        #expect(ScriptedCompass.isScripted(value["CompassHeading"] as? Double ?? .nan), "\(value)")

        #expect(client.perform("release", method: "ReleaseCompass")?["event"] as? String == "ReleaseCompass")
        #expect(waitUntil { !provider.running && provider.stops == 1 }, "the last release stops the sensors")
        #expect(service.claimantCount == 0 && provider.starts == 1)
        // Nothing more arrives once released; the property is unknown again.
        _ = client.next(timeout: 0.3, where: { _ in false })
        let after = client.next(timeout: 0.5, where: { $0["CompassHeading"] != nil && $0["event"] as? String == "changed" })
        #expect(after == nil, "no heading after the release: \(String(describing: after))")
        #expect(busctl(bus, ["get-property", Self.name, Self.path, Self.interface, "CompassHeading"]).stdout == "d -1\n")
    }

    @Test func aClientThatLeavesTheBusReleasesItsClaim() throws {
        let bus = try PrivateBus(.systemLike(including: Self.policyForThisUser))
        let (service, provider) = try start(on: bus)
        defer { service.stop() }

        // GDBus client killed while it holds a claim.
        let client = try CompassWatcher(address: bus.address)
        client.perform("claim", method: "ClaimCompass")
        #expect(waitUntil { provider.running })
        #expect(client.next(where: { $0["CompassHeading"] != nil }) != nil)
        client.kill()
        #expect(waitUntil { !provider.running }, "a vanished client's claim is released")
        #expect(provider.stops == 1 && service.claimantCount == 0)

        // busctl claims and exits at once: the claim goes with its connection.
        let oneShot = busctl(bus, ["call", Self.name, Self.path, Self.interface, "ClaimCompass"])
        #expect(oneShot.status == 0, "\(oneShot.stderr)")
        #expect(waitUntil { provider.starts == 2 && provider.stops == 2 }, "starts \(provider.starts), stops \(provider.stops)")
        #expect(!provider.running)
    }

    @Test func claimsAreCountedPerClient() throws {
        let bus = try PrivateBus(.systemLike(including: Self.policyForThisUser))
        let (service, provider) = try start(on: bus)
        defer { service.stop() }
        let a = try CompassWatcher(address: bus.address)
        let b = try CompassWatcher(address: bus.address)

        a.perform("claim", method: "ClaimCompass")
        a.perform("claim", method: "ClaimCompass") // a second claim by the same client counts once
        b.perform("claim", method: "ClaimCompass")
        #expect(service.claimantCount == 2 && provider.starts == 1)
        // B joins a running compass and still gets a heading at once.
        #expect(b.next(timeout: 3, where: { $0["CompassHeading"] != nil }) != nil)

        a.perform("release", method: "ReleaseCompass")
        #expect(service.claimantCount == 1 && provider.running, "B still holds the compass")
        b.perform("release", method: "ReleaseCompass")
        #expect(waitUntil { !provider.running })
        #expect(service.claimantCount == 0 && provider.starts == 1 && provider.stops == 1)
        // Releasing without a claim is harmless, as with iio-sensor-proxy.
        #expect(b.perform("release", method: "ReleaseCompass")?["event"] as? String == "ReleaseCompass")
        #expect(provider.stops == 1)
    }

    @Test func headingsGoOnlyToClaimants() throws {
        let bus = try PrivateBus(.systemLike(including: Self.policyForThisUser))
        let (service, _) = try start(on: bus)
        defer { service.stop() }
        let listener = try CompassWatcher(address: bus.address, listenOnly: true)
        let claimant = try CompassWatcher(address: bus.address)
        claimant.perform("claim", method: "ClaimCompass")
        var received = 0
        while received < 5, claimant.next(timeout: 5, where: { $0["CompassHeading"] != nil }) != nil { received += 1 }
        #expect(received == 5)
        // The listener's match rule catches every broadcast PropertiesChanged on the path; the
        // headings are addressed to the claimant alone.
        let overheard = listener.all.filter { $0["event"] as? String == "broadcast" }
        #expect(overheard.isEmpty, "\(overheard)")
        service.setHasCompass(false)
        let announced = listener.next(timeout: 5, where: { $0["event"] as? String == "broadcast" })
        #expect((announced?["changed"] as? [String: Any])?["HasCompass"] as? Bool == false,
                "HasCompass changes are for everyone: \(String(describing: announced))")
    }

    @Test func thePolicyFileKeepsOtherUsersOut() throws {
        let bus = try PrivateBus(.systemLike(including: Self.policyForThisUser))
        let (service, provider) = try start(on: bus)
        defer { service.stop() }
        let claim = gdbusCall(bus, Self.interface + ".ClaimCompass", as: .nobody)
        #expect(claim.status != 0 && claim.stderr.contains("AccessDenied: Rejected send message"), "\(claim.stderr)")
        let read = gdbusCall(bus, "org.freedesktop.DBus.Properties.Get", [Self.interface, "CompassHeading"], as: .nobody)
        #expect(read.status != 0 && read.stderr.contains("AccessDenied: Rejected send message"), "\(read.stderr)")
        #expect(provider.starts == 0 && service.claimantCount == 0)
    }

    /// iio-sensor-proxy's 2025 flaw: with its GeoClue-only policy gone, anyone could claim
    /// the compass. Here the bus lets everyone call, and the service still says no.
    @Test func theServiceRefusesUnallowedCallersEvenOnAnOpenBus() throws {
        let bus = try PrivateBus(.open)
        let (service, provider) = try start(on: bus) { s in
            s.allowedUsers = []
            s.allowedGroups = ["dialout"]
        }
        defer { service.stop() }
        let claim = gdbusCall(bus, Self.interface + ".ClaimCompass", as: .nobody)
        #expect(claim.status != 0 && claim.stderr.contains("AccessDenied: nobody (uid 65534) may not claim the compass"), "\(claim.stderr)")
        let read = gdbusCall(bus, "org.freedesktop.DBus.Properties.Get", [Self.interface, "CompassHeading"], as: .nobody)
        #expect(read.status != 0 && read.stderr.contains("may not read the compass heading"), "\(read.stderr)")
        #expect(provider.starts == 0)

        // A member of an allowed group may, and so may the service's own user.
        let member = ClientUser(uid: 65534, gid: 65534, groups: [20])
        let allowed = try CompassWatcher(address: bus.address, as: member)
        #expect(allowed.perform("claim", method: "ClaimCompass")?["event"] as? String == "ClaimCompass", "\(allowed.all)")
        #expect(waitUntil { provider.running })
        #expect(busctl(bus, ["get-property", Self.name, Self.path, Self.interface, "HasCompass"]).status == 0)
    }

    @Test func onlyTheServiceUserOwnsTheNameAndOnlyOnce() throws {
        try #require(DBusTools.problem == nil, "\(DBusTools.problem ?? "")")
        // The file as installed names the user lodestone: root may not own the name.
        let installed = (try? String(contentsOfFile: SharedData.packageRoot.appendingPathComponent("tools/dbus/lodestone-compass.conf").path,
                                     encoding: .utf8)) ?? ""
        let strict = try PrivateBus(.systemLike(including: installed))
        var settings = DBusCompassSettings()
        settings.bus = .address(strict.address)
        #expect {
            _ = try DBusCompassService(settings: settings, provider: ScriptedCompass(), hasCompass: true)
        } throws: { error in
            "\(error)".contains("the D-Bus policy does not let") && "\(error)".contains("own net.hadess.SensorProxy")
        }

        // A second service (or iio-sensor-proxy) cannot take the name from the first.
        let open = try PrivateBus(.open)
        let (first, _) = try start(on: open)
        defer { first.stop() }
        settings.bus = .address(open.address)
        #expect {
            _ = try DBusCompassService(settings: settings, provider: ScriptedCompass(), hasCompass: true)
        } throws: { error in
            "\(error)".contains("another service owns net.hadess.SensorProxy")
        }
    }
}
