/// Where the D-Bus compass gets its headings: the service's heading session.
///
/// The compass is read only while a client holds a claim, as iio-sensor-proxy does:
/// ``DBusCompassService`` calls ``startCompass()`` when the first client claims and
/// ``stopCompass()`` when the last claim is released or its client leaves the bus.
/// Both are called on the D-Bus thread and must return promptly (flag the demand and
/// wake the sample thread; do not open devices here). While started, the provider
/// hands each heading to ``DBusCompassService/publish(_:)``, from any thread.
public protocol CompassProvider: AnyObject, Sendable {
    func startCompass()
    func stopCompass()
}
