import LodestoneCore
import LodestoneLocation
import LodestoneLogs
import LodestonePosition
import LodestoneSession

/// The location half of `serve`: one ``LocationSession`` for all clients (the
/// checks of every fix, the monitored regions, the recorded track), and the
/// saved regions. Touched only under the hub's lock, by the event loop, which
/// reads the position source; the regions file is written by the event loop
/// outside the lock (``takeRegionsToSave()``), so a slow disk never holds up
/// the samples.
final class LocationService {
    var session: LocationSession
    private(set) var configuration: ServiceConfiguration.Location
    /// Why the regions file could not be read: regions are refused (and the file left
    /// alone) until it is fixed and the service reloaded.
    private(set) var regionsProblem: String?
    private var regionsToSave: RegionSet?
    let line = JSONLineBuilder(capacity: 16_384)

    /// Loads the saved regions; a bad file does not stop the service (``regionsProblem``).
    init(_ configuration: ServiceConfiguration.Location) throws(ServiceError) {
        self.configuration = configuration
        session = try LocationSession(settings: configuration.session)
        loadRegions()
    }

    /// Takes a reloaded configuration: the regions are read again when their file changed or
    /// could not be read before; otherwise the regions in force (the file's own) stay. The
    /// recorded track is kept.
    func reload(_ new: ServiceConfiguration.Location) {
        let reread = new.regionsFile != configuration.regionsFile || regionsProblem != nil
        let old = configuration
        configuration = new
        if reread {
            loadRegions()
        } else if new.session != old.session {
            do {
                try session.reconfigure(settings: new.session, regions: session.regions.snapshot)
            } catch {
                regionsProblem = error.description
            }
        }
    }

    /// Reads the regions file into the session; a bad file leaves the session without regions.
    private func loadRegions() {
        regionsProblem = nil
        do {
            let saved = try configuration.regionsFile.flatMap { (path) throws(SessionError) in
                try RegionFile.load(path, settings: configuration.session.regions)
            }
            try session.reconfigure(settings: configuration.session, regions: saved)
        } catch {
            regionsProblem = error.description
            try? session.reconfigure(settings: configuration.session, regions: nil)
        }
        _ = session.takeRegionChanges()
    }

    /// What to say about the regions at start and after a reload.
    var regionsNote: String {
        if let regionsProblem { return "regions are unavailable: \(regionsProblem)" }
        let count = session.regions.regions.count
        guard let path = configuration.regionsFile else { return "\(count) region(s) monitored, kept in memory only (no regions file)" }
        return "\(count) region(s) monitored, saved in \(path)"
    }

    /// Refuses a change of the regions while their file is bad.
    func checkRegionsUsable() throws(ClientCommand.Failure) {
        if let regionsProblem { throw ClientCommand.Failure("?REGION: regions are unavailable: \(regionsProblem); then reload the service (SIGHUP)") }
    }

    /// Notes a change of the regions or their states, to be saved by the event loop.
    func noteRegionChanges() {
        guard let changed = session.takeRegionChanges(), configuration.regionsFile != nil, regionsProblem == nil else { return }
        regionsToSave = changed
    }

    /// The regions to write, and where, once after each change.
    func takeRegionsToSave() -> (RegionSet, String, RegionMonitor.Settings)? {
        defer { regionsToSave = nil }
        guard let set = regionsToSave, let path = configuration.regionsFile else { return nil }
        return (set, path, configuration.session.regions)
    }
}
