extension CalibrationProfile.DeviceIdentity {
    /// True when no member that identifies a device (driver, name, serial) is known.
    public var isAnonymous: Bool { driver == nil && name == nil && serial == nil }

    /// The members that both identities know and that differ, as
    /// (field, this value, other value). The URI is not compared: the same
    /// sensor is `local:` on the board and `ip:…` from elsewhere.
    public func conflicts(with other: Self) -> [(field: String, value: String, other: String)] {
        var out: [(String, String, String)] = []
        for (field, a, b) in [("driver", driver, other.driver), ("name", name, other.name), ("serial", serial, other.serial)] {
            if let a, let b, a != b { out.append(("device.\(field)", a, b)) }
        }
        return out
    }

    /// A short description for messages, e.g. `hmc5883l (driver hmc5843) at local:`.
    public var summary: String {
        var s = name ?? driver ?? serial ?? "an unnamed device"
        if let driver, name != nil, driver != name { s += " (driver \(driver))" }
        if let serial, name != nil || driver != nil { s += " [\(serial)]" }
        if let uri { s += " at \(uri)" }
        return s
    }
}
