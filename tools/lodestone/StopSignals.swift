import LodestoneCommandLine
import LodestoneSession
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM end a live command cleanly.
///
/// The signals are blocked in every thread and taken by one waiting thread
/// (`sigwait`), so no code runs in signal context. The first signal sets
/// ``received`` and calls the stop action (which cancels the sensor source, so a
/// blocked read returns at once); the command then finishes its work (a
/// recording is flushed and synced) and exits 130 after SIGINT, 0 after SIGTERM.
/// A second signal exits at once. SIGPIPE is ignored: a closed output shows up
/// as a failed write instead of killing a recording mid-way.
final class StopSignals: Sendable {
    private let signal = Atomic<Int32>(0)
    /// Set with the first signal: wakes a ``SystemClock`` sleeping in a source runner.
    let flag = StopFlag()
    private let action = Mutex<(@Sendable () -> Void)?>(nil)

    /// Must run before any other thread is started, so every thread inherits the mask.
    init() {
        var set = StopSignals.signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        Glibc.signal(SIGPIPE, SIG_IGN)
        let box = Unmanaged.passRetained(self).toOpaque()
        var tid = pthread_t()
        let started = pthread_create(&tid, nil, { arg in
            let me = Unmanaged<StopSignals>.fromOpaque(arg!).takeRetainedValue()
            me.waitForSignals()
            return nil
        }, box)
        if started == 0 {
            pthread_detach(tid)
        } else {
            Unmanaged<StopSignals>.fromOpaque(box).release()
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }

    private func waitForSignals() {
        var set = StopSignals.signalSet()
        while true {
            var sig: Int32 = 0
            guard sigwait(&set, &sig) == 0 else { continue }
            if signal.compareExchange(expected: 0, desired: sig, ordering: .acquiringAndReleasing).exchanged {
                flag.set()
                if let stop = action.withLock({ $0 }) {
                    stop()
                } else {
                    _exit(StopSignals.exitCode(for: sig).rawValue) // nothing started yet: nothing to finish
                }
            } else {
                _exit(StopSignals.exitCode(for: signal.load(ordering: .acquiring)).rawValue)
            }
        }
    }

    /// What to do on the first signal once work has started (e.g. cancel the source).
    func onStop(_ stop: @escaping @Sendable () -> Void) {
        action.withLock { $0 = stop }
        if signal.load(ordering: .acquiring) != 0 { stop() }
    }

    /// The signal received, if any.
    var received: Int32? {
        let s = signal.load(ordering: .acquiring)
        return s == 0 ? nil : s
    }

    var isRequested: Bool { received != nil }

    /// The exit code a command stopped by a signal returns: 130 for SIGINT, 0 for SIGTERM (an orderly stop).
    var exitCode: ExitCode { received.map(StopSignals.exitCode(for:)) ?? .success }

    static func exitCode(for signal: Int32) -> ExitCode {
        signal == SIGINT ? .interrupted : .success
    }
}
