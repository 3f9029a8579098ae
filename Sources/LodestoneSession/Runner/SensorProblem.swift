/// One thing wrong with a source's sensors: its kind, which names the
/// `sensorHealth` event's reason, and a sentence for people. The kind is
/// carried, not read back out of the sentence, where a device's name or an
/// error's text could hold any word.
public struct SensorProblem: Hashable, Sendable {
    /// Ordered by rank, lowest first: the event names the highest.
    public enum Kind: Comparable, Sendable {
        case thermometerFailed, saturated, stuck

        var reason: HeadingEvent.Reason {
            switch self {
            case .thermometerFailed: return .thermometerFailed
            case .saturated: return .sensorSaturated
            case .stuck: return .sensorStuck
            }
        }
    }

    public var kind: Kind
    public var sentence: String

    public init(_ kind: Kind, _ sentence: String) {
        self.kind = kind
        self.sentence = sentence
    }
}
