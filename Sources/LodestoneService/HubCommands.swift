import LodestoneCore
import LodestoneLogs

/// Client commands: the protocol's `?WATCH`, `?POLL`, `?DEVICES`, `?STEER` and `?VERSION`
/// (`?REGION` and `?TRACK` in `LocationCommands.swift`).
extension HubState {
    /// Handles bytes read from a client: splits lines, runs commands, answers.
    func received(_ bytes: UnsafeRawBufferPointer, from c: ClientSession, wall: Double, now: Double) {
        c.lastInput = now
        var commands: [Result<ClientCommand?, ClientCommand.Failure>] = []
        let limit = clients.limits.maxLineLength
        c.input.feed(bytes) { item, text in
            switch item {
            case .tooLong:
                commands.append(.failure(.init("command line longer than \(limit) bytes; skipped")))
            case .line:
                commands.append(Result { () throws(ClientCommand.Failure) in try ClientCommand.parse(text) })
            }
        }
        for command in commands {
            switch command {
            case .failure(let f): clients.reply(c) { ProtocolMessages.error($0, f.message) }
            case .success(nil): break
            case .success(let command?): run(command, for: c, wall: wall, now: now)
            }
        }
    }

    private func run(_ command: ClientCommand, for c: ClientSession, wall: Double, now: Double) {
        switch command {
        case .version:
            clients.reply(c) { ProtocolMessages.version($0, release: release) }
        case .watch(let w):
            watch(w, for: c, wall: wall)
        case .poll:
            poll(for: c, wall: wall, now: now)
        case .devices:
            clients.reply(c) { ProtocolMessages.devices($0, source: status.sourceLabel, devices: status.devices,
                                                        gpsd: c.gpsd != nil, activated: status.activated) }
        case .steer(nil):
            c.steering = nil
            clients.reply(c) { ProtocolMessages.event($0, ServiceEvent("steerStopped", reason: "clientRequest", "steering stopped at the client's request"), time: wall) }
        case .steer(let request?):
            steer(request, for: c, wall: wall, now: now)
        case .region(let request):
            region(request, for: c)
        case .track(let request):
            track(request, for: c, wall: wall)
        }
    }

    private func watch(_ w: ClientCommand.Watch, for c: ClientSession, wall: Double) {
        do {
            try c.location.apply(w.location, wasWatching: c.watching)
        } catch {
            clients.reply(c) { ProtocolMessages.error($0, error.message) }
            return
        }
        if let request = w.gpsd {
            c.gpsd = GPSDWatch(request)
        } else if w.headingFilter != nil {
            c.gpsd = nil
        }
        // Without a headingFilter the client keeps the one it chose last, watching or not;
        // else the server's default. gpsd has no filter: its clients get every heading
        // (at most 10 Hz) unless they give one.
        if let chosen = w.headingFilter { c.chosenHeadingFilter = chosen }
        let threshold = c.chosenHeadingFilter ?? (c.gpsd == nil ? clients.defaultHeadingFilter : 0)
        c.filter = HeadingFilter(threshold: threshold)
        c.watching = w.enable
        if let gpsd = c.gpsd {
            gpsdWatch(gpsd, enable: w.enable, threshold: threshold, for: c, wall: wall)
            return
        }
        clients.reply(c) { ProtocolMessages.watch($0, enable: w.enable, headingFilter: threshold, location: c.location) }
        guard w.enable else { return }
        let trueNorth = ServiceEvent(processing.session.trueNorth.status)
        clients.reply(c) { ProtocolMessages.event($0, trueNorth, time: wall) }
        if let problem = status.sourceProblem {
            clients.reply(c) { ProtocolMessages.event($0, problem, time: wall) }
        }
    }

    /// gpsd's answer: DEVICES (when enabling), then WATCH; no EVENT.
    private func gpsdWatch(_ gpsd: GPSDWatch, enable: Bool, threshold: Double, for c: ClientSession, wall: Double) {
        c.gpsd?.lastDelivery = -.infinity
        if enable {
            clients.reply(c) { ProtocolMessages.devices($0, source: status.sourceLabel, devices: status.devices, gpsd: true, activated: status.activated) }
        }
        clients.reply(c) { GPSDMessages.watch($0, enable: enable, gpsd, headingFilter: threshold) }
    }

    private func poll(for c: ClientSession, wall: Double, now: Double) {
        if processing.answerPoll(c, clients: clients, now: now, wall: wall) { return }
        if status.sourceEnded || status.fatalError != nil {
            let why = status.sourceProblem?.detail ?? "the source ended"
            clients.reply(c) { ProtocolMessages.error($0, "?POLL: no heading: \(why)") }
        } else {
            // Claims the sensors until a heading arrives (or the deadline passes).
            c.pollDeadline = now + ClientRegistry.pollTimeout
        }
    }

    private func steer(_ request: ClientCommand.Steer, for c: ClientSession, wall: Double, now: Double) {
        do {
            c.steering = try ClientSteering(request)
            c.steeringOrder = clients.nextSteeringOrder()
        } catch {
            clients.reply(c) { ProtocolMessages.error($0, error.message) }
            return
        }
        processing.sendFirstSteer(c, now: now, wall: wall)
        if !c.watching {
            let event = ServiceEvent("steerUnavailable", reason: "notWatching",
                                     #"STEER objects follow the HEADING and LOCATION objects of a watching client: send ?WATCH={"enable":true}; (add "heading":false,"location":true to steer by position alone, without the sensors)"#)
            clients.reply(c) { ProtocolMessages.event($0, event, time: wall) }
        }
        if processing.session.trueNorth.position == nil {
            let t = processing.session.trueNorth.status
            let event = ServiceEvent("steerUnavailable", reason: t.reason.rawValue, "no position yet: STEER objects follow once it is known (\(t.detail))")
            clients.reply(c) { ProtocolMessages.event($0, event, time: wall) }
        }
    }
}
