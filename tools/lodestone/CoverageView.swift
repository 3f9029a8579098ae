import LodestoneCommandLine
import LodestoneHTTP
import LodestoneNetwork
import LodestoneService
import Synchronization

/// `calibrate --http`: the live view shows the sphere of field directions filling while the
/// user turns the board (COVERAGE objects after each refit). The page is the service's.
final class CoverageView: LiveFeed, @unchecked Sendable {
    // @unchecked: `server` is set once, before its thread starts.
    private let latest = Mutex<String?>(nil)
    private var server: LiveViewServer?

    /// Listens on `endpoint` and says where on standard error.
    init(_ endpoint: Endpoint) throws {
        var settings = HTTPServerSettings()
        settings.listen = endpoint
        let server = try LiveViewServer(settings: settings, feed: self, log: { Console.error("lodestone: \($0)") })
        self.server = server
        try server.start()
        Console.error("lodestone: live view on http://\(Endpoint(host: endpoint.host, port: server.port))/")
    }

    /// Parses `--http`'s `HOST:PORT` as `serve` does.
    static func endpoint(_ text: String) throws(UsageError) -> Endpoint {
        switch ServiceConfiguration.httpEndpoint(text) {
        case .success(let e): return e
        case .failure(let e): throw UsageError("--http: \(e.message)")
        }
    }

    func publish(regionCounts: [Int], percent: Double) {
        let json = LiveViewMessages.coverage(regionCounts: regionCounts, percent: percent)
        latest.withLock { $0 = json }
        server?.publish(json)
    }

    func stop() {
        server?.stop()
    }

    func snapshot() -> [String] { latest.withLock { $0.map { [$0] } ?? [] } }

    /// The sensor is read for the calibration anyway: viewers change nothing.
    func viewersChanged(_ count: Int) {}
}
