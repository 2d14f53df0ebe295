import TactusCLI
#if canImport(Glibc)
import Glibc
#endif

exit(Tactus.main(Array(CommandLine.arguments.dropFirst())))
