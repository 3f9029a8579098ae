import LodestoneCore
import LodestoneIIO

/// One sensor (three axes) of a simulated part, described as the driver prints it.
public struct SimulatedSensor: Sendable {
    public var kind: IIOSensorKind
    /// Scale text per axis as the driver prints it (x, y, z).
    public var scaleText: [String]
    /// True when the driver publishes one `in_<type>_scale` instead of per-axis files.
    public var sharedScale: Bool
    /// Physical units (Gauss, m/s², rad/s) per count ÷ printed scale: 100 for the HMC5883L quirk.
    public var physicalScaleFactor: Double
    /// Scan index per axis (x, y, z): HMC5883L stores X, Z, Y.
    public var scanIndex: [Int]
    public var scanType: IIOScanType
    /// Raw values clamp here (ADC range).
    public var rawLimit: Int64
    /// `v_device = M · v_chip`: how the chip really sits.
    public var mountMatrix: Matrix3
    /// What the driver prints, when that differs from ``mountMatrix`` (the inv_mpu6050 magnetometer).
    public var printedMountMatrix: Matrix3?
    /// Where the driver prints the matrix (`mount_matrix`, `in_mount_matrix`, `in_magn_mount_matrix` …), nil if none.
    public var mountMatrixFile: String?

    public init(kind: IIOSensorKind, scaleText: [String], sharedScale: Bool, physicalScaleFactor: Double = 1, scanIndex: [Int],
                scanType: IIOScanType, rawLimit: Int64, mountMatrix: Matrix3 = .identity, printedMountMatrix: Matrix3? = nil,
                mountMatrixFile: String?) {
        self.kind = kind
        self.scaleText = scaleText
        self.sharedScale = sharedScale
        self.physicalScaleFactor = physicalScaleFactor
        self.scanIndex = scanIndex
        self.scanType = scanType
        self.rawLimit = rawLimit
        self.mountMatrix = mountMatrix
        self.printedMountMatrix = printedMountMatrix
        self.mountMatrixFile = mountMatrixFile
    }

    /// Physical units per count, per axis.
    var unitsPerCount: [Double] { scaleText.map { (IIOText.double($0) ?? 1) * physicalScaleFactor * kind.unitFactor } }
}

/// A channel the simulator carries but Lodestone does not read (temperature).
public struct SimulatedExtraChannel: Sendable {
    public var id: String
    public var scanIndex: Int
    public var scanType: IIOScanType
    public var raw: Int64
}

/// One IIO device of a simulated board, following `iio-layouts.md`.
public struct SimulatedPart: Sendable {
    public var name: String
    /// Path under `/sys/devices`, e.g. `platform/soc/i2c-1/1-001e`.
    public var parentPath: String
    public var sensors: [SimulatedSensor]
    public var extraChannels: [SimulatedExtraChannel]
    /// Plain attribute files (name → content without the newline).
    public var files: [String: String]
    public var timestampIndex: Int?
    public var hasBuffer: Bool
    /// The device's own trigger name (`lis3dh-trigger`, `mpu9250-dev0`), if it has one.
    public var ownTrigger: String?
    /// A triggered buffer (has `trigger/current_trigger`).
    public var usesTrigger: Bool
    /// Files whose value is the device's data rate, first found wins.
    public var rateFiles: [String]

    public init(name: String, parentPath: String, sensors: [SimulatedSensor], extraChannels: [SimulatedExtraChannel] = [],
                files: [String: String], timestampIndex: Int?, hasBuffer: Bool = true, ownTrigger: String?, usesTrigger: Bool = true,
                rateFiles: [String]) {
        self.name = name
        self.parentPath = parentPath
        self.sensors = sensors
        self.extraChannels = extraChannels
        self.files = files
        self.timestampIndex = timestampIndex
        self.hasBuffer = hasBuffer
        self.ownTrigger = ownTrigger
        self.usesTrigger = usesTrigger
        self.rateFiles = rateFiles
    }
}
