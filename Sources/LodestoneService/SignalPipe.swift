#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LodestoneNetwork

/// The write end of the signal pipe, for the async-signal-safe handler.
/// Set once before the handlers are installed, never changed after.
nonisolated(unsafe) private var signalWriteFD: Int32 = -1

/// Turns SIGTERM, SIGINT and SIGHUP into bytes on a pipe that the event loop
/// polls (the self-pipe trick): the handler only calls `write`, which is
/// async-signal-safe. SIGPIPE is ignored (sockets use MSG_NOSIGNAL anyway).
final class SignalPipe {
    let pipe: WakePipe

    init() throws(ServiceError) {
        pipe = try WakePipe.make()
        signalWriteFD = pipe.writeFD
        for s in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                var b = UInt8(truncatingIfNeeded: signal)
                _ = write(signalWriteFD, &b, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(s, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started us with these blocked (the mask is inherited):
        // unblock them, before any other thread exists.
        var set = sigset_t()
        sigemptyset(&set)
        for s in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, s) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Signals received since the last call, in order.
    func take() -> [Int32] {
        var out: [Int32] = []
        var b: UInt8 = 0
        while read(pipe.readFD, &b, 1) == 1 { out.append(Int32(b)) }
        return out
    }
}
