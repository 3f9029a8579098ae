import LodestoneCore
import LodestoneSession

/// A clock a test moves by hand: sleeping advances it at once.
final class ManualClock: SessionClock {
    private let state = Locked<(now: Double, sleeps: [Double])>((1000, []))
    let wallOffset = 1_800_000_000.0

    func monotonic() -> Double { state.withLock { $0.now } }
    func wall() -> Double { wallOffset + monotonic() }

    func sleep(_ seconds: Double) -> Bool {
        state.withLock {
            $0.now += seconds
            $0.sleeps.append(seconds)
        }
        return true
    }

    func advance(_ seconds: Double) {
        state.withLock { $0.now += seconds }
    }

    /// The sleeps asked for so far.
    var sleeps: [Double] { state.withLock { $0.sleeps } }
}
