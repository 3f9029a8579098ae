/// The optional measurements of a ``Location``, to name one that was discarded.
public enum LocationField: String, Sendable, Equatable, CaseIterable {
    case altitude
    case ellipsoidalAltitude
    case horizontalAccuracy
    case verticalAccuracy
    case speed
    case speedAccuracy
    case course
    case courseAccuracy
}
