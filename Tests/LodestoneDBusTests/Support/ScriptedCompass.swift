import Foundation
import LodestoneCore
import LodestoneDBus

/// A compass provider that plays a scripted turn while started: magnetic headings 0°, 15°,
/// 30°, … with a declination of +3.2° (so true = magnetic + 3.2), one every 40 ms.
final class ScriptedCompass: CompassProvider, @unchecked Sendable {
    static let declination = 3.2
    static let step = 15.0

    struct State {
        var starts = 0
        var stops = 0
        var generation = 0
        var running = false
    }

    let state = Locked(State())
    private let service = WeakService()

    func attach(_ service: DBusCompassService) { self.service.value = service }

    var starts: Int { state.withLock { $0.starts } }
    var stops: Int { state.withLock { $0.stops } }
    var running: Bool { state.withLock { $0.running } }

    /// The true headings the script produces.
    static func isScripted(_ degrees: Double) -> Bool {
        let magnetic = degrees - declination
        let steps = (magnetic / step).rounded()
        return abs(magnetic - steps * step) < 1e-6
    }

    static func heading(_ index: Int) -> Heading {
        let magnetic = Double(index % 24) * step
        return Heading(timestamp: Double(index) * 0.04, magneticHeading: magnetic,
                       trueHeading: Angle.normalized360(magnetic + declination), headingAccuracy: 4,
                       declination: Declination(degrees: declination), x: 20, y: 0, z: -40, attitude: .identity)
    }

    func startCompass() {
        let generation = state.withLock { s in
            s.starts += 1
            s.running = true
            s.generation += 1
            return s.generation
        }
        let thread = Thread { [self] in
            var i = 0
            while state.withLock({ $0.running && $0.generation == generation }) {
                let reading = CompassReading(Self.heading(i))
                service.value?.publish(reading)
                i += 1
                Thread.sleep(forTimeInterval: 0.04)
            }
        }
        thread.start()
    }

    func stopCompass() {
        state.withLock { s in
            s.stops += 1
            s.running = false
        }
    }
}

/// The service, not kept alive by its provider.
private final class WeakService: @unchecked Sendable {
    weak var value: DBusCompassService?
}
