import LodestoneLocation
import LodestoneSession
import LodestoneSteering

/// For code that prefers callbacks to streams, in the manner of
/// `CLLocationManagerDelegate`. Called on the manager's reading thread: return
/// quickly, and hop to your own queue or actor for slow work.
public protocol LocationManagerDelegate: AnyObject, Sendable {
    /// A fix passed the checks, `desiredAccuracy` and `distanceFilter` (`didUpdateLocations`).
    func locationManager(_ manager: LocationManager, didUpdate location: Location)
    /// A refused fix, a dropped value, the source's state, the end of a replay (`didFailWithError`).
    func locationManager(_ manager: LocationManager, didReceive event: LocationSessionEvent)
    /// An entry, exit, dwell or determined state (`didEnterRegion`, `didExitRegion`, `didDetermineState`).
    func locationManager(_ manager: LocationManager, didReceive regionEvent: RegionEvent)
    /// Steering advice toward ``LocationManager/steeringTarget`` with each delivered fix.
    func locationManager(_ manager: LocationManager, didUpdate advice: SteeringAdvice)
}

extension LocationManagerDelegate {
    public func locationManager(_ manager: LocationManager, didUpdate location: Location) {}
    public func locationManager(_ manager: LocationManager, didReceive event: LocationSessionEvent) {}
    public func locationManager(_ manager: LocationManager, didReceive regionEvent: RegionEvent) {}
    public func locationManager(_ manager: LocationManager, didUpdate advice: SteeringAdvice) {}
}
