import LodestoneCalibrationStore
import LodestoneJSON
import LodestoneLogs

extension SourceDevices {
    /// From a native log's `metadata.device`. Two shapes are understood:
    /// one recorded from IIO (`magnetometer`/`accelerometer` objects with
    /// `deviceName`, as `IIOSourceMetadata` encodes them, plus `uri`), and a
    /// flat identity (`driver`, `name`, `serial` or `label`, `uri`) that then
    /// stands for both sensors. Anything else (a simulation, a plain CSV) has no identity.
    public init(log metadata: LogMetadata?) {
        guard let device = metadata?.device else {
            self.init()
            return
        }
        let uri = device["uri"]?.stringValue
        func identity(_ object: JSONValue?) -> Identity? {
            guard let object else { return nil }
            let id = Identity(driver: object["driver"]?.stringValue,
                              name: object["name"]?.stringValue ?? object["deviceName"]?.stringValue,
                              uri: object["uri"]?.stringValue ?? uri,
                              serial: object["serial"]?.stringValue ?? object["label"]?.stringValue)
            return id.isAnonymous ? nil : id
        }
        let flat = identity(device)
        self.init(magnetometer: identity(device["magnetometer"]) ?? flat, accelerometer: identity(device["accelerometer"]) ?? flat)
    }
}
