import LodestoneCore
import LodestoneDBus
import LodestoneNetwork
import Synchronization

/// The listeners with threads of their own — the D-Bus compass and the live view — and
/// the demand for samples they make: a D-Bus client holding a claim, a browser watching.
///
/// Their threads set the demand here without the hub's lock (the sample thread holds that
/// lock while it hands them headings, so they must never wait for it) and wake the sample
/// thread, which then claims or releases the sensors as for protocol watchers.
final class ListenerOutputs: CompassProvider, @unchecked Sendable {
    // @unchecked: `compass` is set once by the event loop before the D-Bus thread starts
    // and cleared at shutdown after it stopped; the rest is atomic.
    private let compassClaimed = Atomic<Bool>(false)
    private let liveViewers = Atomic<Int>(0)
    private let sampleWake: WakePipe
    private(set) var compass: DBusCompassService?

    init(sampleWake: WakePipe) {
        self.sampleWake = sampleWake
    }

    /// Whether a D-Bus claimant or a live viewer wants headings.
    var wantSamples: Bool {
        compassClaimed.load(ordering: .acquiring) || liveViewers.load(ordering: .acquiring) > 0
    }

    func attach(_ compass: DBusCompassService) {
        self.compass = compass
    }

    func detachCompass() {
        compass?.stop()
        compass = nil
    }

    // MARK: CompassProvider (the D-Bus thread)

    func startCompass() {
        compassClaimed.store(true, ordering: .releasing)
        sampleWake.signal()
    }

    func stopCompass() {
        compassClaimed.store(false, ordering: .releasing)
        sampleWake.signal()
    }

    // MARK: The live view (its own thread)

    func liveViewersChanged(_ count: Int) {
        liveViewers.store(count, ordering: .releasing)
        sampleWake.signal()
    }

    // MARK: The sample thread

    /// Hands a heading to the D-Bus compass while it is claimed: true north when known, else magnetic.
    func headingProduced(_ h: Heading) {
        guard compassClaimed.load(ordering: .relaxed), let compass else { return }
        compass.publish(CompassReading(h))
    }

    /// The source works (or stopped working): D-Bus's `HasCompass`.
    func sourceWorks(_ works: Bool) {
        compass?.setHasCompass(works)
    }
}
