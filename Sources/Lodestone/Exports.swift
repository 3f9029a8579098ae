// `import Lodestone` gives the heading types too.
@_exported import LodestoneCore
