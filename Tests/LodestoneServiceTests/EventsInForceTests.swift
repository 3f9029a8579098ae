import Testing
@testable import LodestoneService

@Suite struct EventsInForceTests {
    func names(_ e: EventsInForce) -> [String] { e.events.map(\.event.name) }

    @Test func lastingConditionsStayUntilTheirEnd() {
        var e = EventsInForce()
        e.record(ServiceEvent("magneticDisturbance", reason: "fieldMagnitudeOff", "field 80 µT", state: "start"), time: 1)
        e.record(ServiceEvent("calibrationNeeded", reason: "neverCalibrated", "no profile"), time: 2)
        e.record(ServiceEvent("linesDropped", reason: "clientTooSlow", "3 lines"), time: 3)
        #expect(names(e) == ["magneticDisturbance", "calibrationNeeded"])
        #expect(e.contains("magneticDisturbance"))
        e.record(ServiceEvent("magneticDisturbance", reason: "fieldNormal", "back", state: "end"), time: 4)
        e.record(ServiceEvent("calibrationUpdated", reason: "hardIronSwing", "an offset taken out in memory"), time: 5)
        #expect(names(e) == ["calibrationNeeded"], "the profile is still missing")
        e.record(ServiceEvent("calibrationUpdated", reason: "hardIronTracking", "new offset"), time: 6)
        #expect(names(e).isEmpty)
    }

    @Test func oneTrueHeadingStateAndOneSourceFaultAtATime() {
        var e = EventsInForce()
        e.record(ServiceEvent("trueHeadingUnavailable", reason: "noFix", "no fix"), time: 1)
        e.record(ServiceEvent("trueHeadingAvailable", reason: "positionKnown", "fix"), time: 2)
        e.record(ServiceEvent("sourceFault", reason: "ioError", "read failed"), time: 3)
        e.record(ServiceEvent("sourceFault", reason: "noData", "no data"), time: 4)
        #expect(names(e) == ["trueHeadingAvailable", "sourceFault"])
        #expect(e.events.last?.event.reason == "noData" && e.events.last?.time == 4)
        e.record(ServiceEvent("sourceResumed", reason: "recovered", "works"), time: 5)
        #expect(names(e) == ["trueHeadingAvailable"])
        var health = ServiceEvent("sensorHealth", reason: "sensorStuck", "stuck")
        health.flags = ["magnetometerStuck"]
        e.record(health, time: 6)
        #expect(e.contains("sensorHealth"))
        health.flags = []
        e.record(health, time: 7)
        #expect(!e.contains("sensorHealth"))
    }
}
