// The heading daemon on its own: what `lodestone serve` runs (see ServeCommandLine for why
// it is a separate executable). Arguments are those after `lodestone serve`.
#if canImport(Glibc)
import Glibc
#endif
import LodestoneService

exit(ServeCommandLine.main(Array(CommandLine.arguments.dropFirst())))
