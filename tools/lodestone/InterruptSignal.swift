#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Ctrl-C as a flag a loop can poll, so a long-running command can stop
/// cleanly and say why. A second Ctrl-C ends the process at once.
enum InterruptSignal {
    private static let received = Atomic<Bool>(false)

    static func install() {
        signal(SIGINT) { _ in
            InterruptSignal.received.store(true, ordering: .relaxed)
            signal(SIGINT, SIG_DFL)
        }
    }

    static var wasReceived: Bool { received.load(ordering: .relaxed) }
}
