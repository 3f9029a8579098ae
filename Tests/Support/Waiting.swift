import Foundation

/// Polls `condition` every 10 ms until it holds (true) or `timeout` seconds pass (false):
/// for state that another thread or process changes.
public func waitUntil(_ timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Deadline(timeout)
    while !condition() {
        if deadline.hasPassed { return false }
        usleep(10_000)
    }
    return true
}
