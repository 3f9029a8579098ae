import Foundation
import Lodestone
import LodestoneTestSupport
import Testing

/// `Examples/TrueHeading`, a program on the Swift API that depends on this package by
/// path: built with `swift build` and run, as a user would.
@Suite struct ExamplePackageTests {
    static let gate = try! GeoCoordinate(latitude: 52.5163, longitude: 13.3777)
    static let tower = try! GeoCoordinate(latitude: 52.5208, longitude: 13.4094)

    @Test func trueHeadingAndTurnAdviceFromTheSimulatedBoard() throws {
        let executable = try ExamplePackage.executable(package: "TrueHeading", product: "TrueHeading")
        let p = Process()
        p.executableURL = executable
        p.arguments = ["--count", "8"]
        let output = Pipe()
        p.standardOutput = output
        try p.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 8, "\(text)")
        let path = Geodesic.wgs84.inverse(from: Self.gate, to: Self.tower)
        let pattern = /true heading ([0-9.]+)° ±([0-9.]+)°; TV tower ([0-9.]+) km at ([0-9.]+)°: (\w+)/
        for line in lines {
            let m = try #require(try pattern.wholeMatch(in: line), "\(line)")
            let heading = Double(m.1)!, accuracy = Double(m.2)!, distance = Double(m.3)!, bearing = Double(m.4)!
            #expect((0..<360).contains(heading) && accuracy > 0 && accuracy < 30)
            #expect(abs(distance - path.distance / 1000) <= 0.005, "\(line)")
            #expect(abs(bearing - path.initialBearing) <= 0.05, "\(line)")
            let turn = try #require(TurnInstruction(rawValue: String(m.5)), "\(line)")
            // The advisor holds a turn while the delta stays within its band widened by the hysteresis
            // (and the printed numbers are rounded to 0.1°).
            let settings = TurnAdvisor.Settings()
            let delta = Angle.difference(from: heading, to: bearing)
            #expect(turn.contains(delta: delta, aheadTolerance: settings.aheadTolerance, margin: settings.turnHysteresis + 0.2), "\(line)")
        }
    }
}
