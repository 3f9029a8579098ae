/// This release of Lodestone: what `lodestone --version` prints and what the service's
/// `VERSION` object reports. The one place the version is written.
public enum LodestoneRelease {
    public static let version = "0.1.0"
}
