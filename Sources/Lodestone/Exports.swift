// `import Lodestone` gives everything a heading client needs: the heading types,
// the session's events and settings, positions, and steering.
@_exported import LodestoneCore
@_exported import LodestoneIIO
@_exported import LodestoneLocation
@_exported import LodestonePosition
@_exported import LodestoneSession
@_exported import LodestoneSteering
