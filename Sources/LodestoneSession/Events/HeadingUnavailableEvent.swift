import LodestoneCore

/// The words of `headingUnavailable`: a forward axis near vertical has no heading.
/// A board mounted upright with the default forward axis gives nothing but invalid
/// headings, and this event is the only place that says why and what to change.
extension HeadingEvent {
    /// Starts it: `axis` has pointed within `limit` degrees of vertical (up or down) for a while.
    static func forwardAxisVertical(_ axis: ForwardAxis, pointsUp: Bool, limit: Double, timestamp: Double) -> HeadingEvent {
        let instead = axis.usableWhenVertical
        let detail = "the forward axis \(axis.rawValue) (\(axis.boardPart)) points within \(TrueNorth.short(limit))° "
            + "of straight \(pointsUp ? "up" : "down"), so it has no heading; for a board \(instead.posture) use "
            + "\(instead.boardPart), \(instead.rawValue): --forward \(instead.rawValue), "
            + "\"forward\": \"\(instead.rawValue)\" in the configuration file, or headingOrientation = .\(instead)"
        return HeadingEvent(.headingUnavailable, .forwardAxisVertical, detail, state: .start, timestamp: timestamp)
    }

    /// Ends it: `axis` has been away from vertical for a while.
    static func forwardAxisUsable(_ axis: ForwardAxis, timestamp: Double) -> HeadingEvent {
        HeadingEvent(.headingUnavailable, .forwardAxisUsable,
                     "the forward axis \(axis.rawValue) is no longer near vertical and has a heading again",
                     state: .end, timestamp: timestamp)
    }

    /// Ends it because the forward axis was changed while it was in force (a reload).
    static func forwardAxisChanged(from old: ForwardAxis, to new: ForwardAxis) -> HeadingEvent {
        HeadingEvent(.headingUnavailable, .forwardAxisUsable,
                     "the forward axis changed from \(old.rawValue) to \(new.rawValue)", state: .end)
    }
}

extension ForwardAxis {
    /// The axis to suggest when this one points vertical: the back when an edge
    /// points at the sky (the board stands upright), the top edge when the back or
    /// face does (the board lies flat). Either is then horizontal.
    var usableWhenVertical: ForwardAxis {
        liesFlat ? .minusZ : .plusY
    }

    /// How the board is held when ``usableWhenVertical`` is the right choice.
    fileprivate var posture: String {
        liesFlat ? "lying flat" : "standing upright"
    }

    /// Whether this axis is one of a board lying flat (its top is +z, ``top``).
    private var liesFlat: Bool { top == .unitZ }

    /// The part of the board the axis points out of, for people.
    fileprivate var boardPart: String {
        switch self {
        case .plusY: return "the board's top edge"
        case .minusY: return "the board's bottom edge"
        case .plusX: return "the board's right edge"
        case .minusX: return "the board's left edge"
        case .minusZ: return "the board's back"
        case .plusZ: return "the board's face"
        }
    }
}
