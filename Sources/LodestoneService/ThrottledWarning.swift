/// A warning that may repeat fast (a refused connection, a failing accept): logged
/// the first time, then at most once per `interval` with the count of those not logged.
///
/// Why: a peer that connects in a loop must not fill the journal (issue 13 saw one
/// warning per refused connection).
struct ThrottledWarning {
    let interval: Double
    private var nextAllowed = -Double.infinity
    private var suppressed = 0

    init(interval: Double = 60) {
        self.interval = interval
    }

    /// Whether to log now; if so, how many were left out since the last one logged.
    mutating func admit(now: Double) -> (log: Bool, leftOut: Int) {
        guard now >= nextAllowed else {
            suppressed += 1
            return (false, 0)
        }
        defer { suppressed = 0 }
        nextAllowed = now + interval
        return (true, suppressed)
    }

    /// `text`, with what was left out since the last warning.
    static func text(_ text: String, leftOut: Int, interval: Double) -> String {
        leftOut == 0 ? text : text + " (and \(leftOut) more like it in the last \(Int(interval)) s)"
    }
}
