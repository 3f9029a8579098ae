import LodestoneCore
import LodestoneSession
import LodestoneSteering

/// For code that prefers callbacks to streams, in the manner of
/// `CLLocationManagerDelegate`. Called on the manager's reading thread: return
/// quickly, and hop to your own queue or actor for slow work.
public protocol HeadingManagerDelegate: AnyObject, Sendable {
    /// A heading passed the headingFilter.
    func headingManager(_ manager: HeadingManager, didUpdate heading: Heading)
    /// Calibration prompts, disturbances, true-north changes, source faults, the end of the source.
    func headingManager(_ manager: HeadingManager, didReceive event: HeadingEvent)
    /// Steering advice toward ``HeadingManager/steeringTarget``, with each delivered heading.
    func headingManager(_ manager: HeadingManager, didUpdate advice: SteeringAdvice)
}

extension HeadingManagerDelegate {
    public func headingManager(_ manager: HeadingManager, didUpdate heading: Heading) {}
    public func headingManager(_ manager: HeadingManager, didReceive event: HeadingEvent) {}
    public func headingManager(_ manager: HeadingManager, didUpdate advice: SteeringAdvice) {}
}
