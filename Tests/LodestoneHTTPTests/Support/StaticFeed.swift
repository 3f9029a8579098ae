import LodestoneCore
import LodestoneHTTP

/// A feed with a fixed snapshot that records the viewer counts it is told.
final class StaticFeed: LiveFeed, @unchecked Sendable {
    let objects: [String]
    let counts = Locked<[Int]>([])

    init(_ objects: [String] = []) {
        self.objects = objects
    }

    func snapshot() -> [String] { objects }
    func viewersChanged(_ count: Int) { counts.withLock { $0.append(count) } }
    var history: [Int] { counts.withLock { $0 } }
}
